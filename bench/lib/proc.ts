import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Starts a process and resolves with the first match of `ready` in its stderr. */
export function startAndWait(cmd: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, opts: { stdout?: boolean } = {}): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    // Standard output (the server's request log) is dropped unless the caller reads it.
    const child = spawn(cmd, args, { env, stdio: ['ignore', opts.stdout ? 'pipe' : 'ignore', 'pipe'] });
    let seen = '';
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = ready.exec(seen);
      if (m) resolve({ child, match: m });
    });
    child.on('exit', (code) => reject(new Error(`${cmd} ${args.join(' ')} exited (${code}) before it was ready:\n${seen}`)));
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs a command to its end, sampling its resident memory; resolves with time and peak RSS. */
export function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; peakRssMb: number; stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const sampler = setInterval(() => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        // the process has just ended
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, peakRssMb: Math.round(peak), stdout, stderr, code });
    });
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
