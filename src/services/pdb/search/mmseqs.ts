/**
 * MMseqs2, the engine the RCSB runs for sequence search and for its sequence clusters: each call
 * a child process of its own with a time budget (a run past it is killed, with the programs its
 * workflow started), ended with the server.
 */
import { spawnSync } from 'node:child_process';
import { killOwned, spawnOwned } from '../../../core/children.js';
import { engineUnavailable } from '../errors.js';

/** The program, read when called (BIOMIRROR_MMSEQS names another). */
const program = () => process.env.BIOMIRROR_MMSEQS || 'mmseqs';

const versions = new Map<string, string>();
/** The installed version ('' when mmseqs is not there); part of what an index is built from. */
export function mmseqsVersion(): string {
  const p = program();
  let v = versions.get(p);
  if (v === undefined) {
    const r = spawnSync(p, ['version'], { timeout: 10_000, encoding: 'utf8' });
    v = r.status === 0 ? r.stdout.trim() || 'unknown' : '';
    versions.set(p, v);
  }
  return v;
}

export function mmseqsAvailable(): boolean {
  return mmseqsVersion() !== '';
}

export function mmseqsState(): { state: string; version?: string } {
  return mmseqsAvailable() ? { state: 'ok', version: mmseqsVersion() } : { state: 'unavailable' };
}

export const notInstalled = (what: string) => engineUnavailable(`${what} is not available on this server: the MMseqs2 program (mmseqs) is not installed`);

/** Runs `mmseqs <args>` in `cwd`; rejects with the end of its error output, or when past the budget. */
export function mmseqs(args: string[], budgetMs: number, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnOwned(program(), args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (err.length < 4000) err += d.toString();
    });
    const timer = setTimeout(() => {
      killOwned(child);
      reject(engineUnavailable(`MMseqs2 (${args[0]}) ran past its time limit (${budgetMs} ms)`));
    }, budgetMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(engineUnavailable(`MMseqs2 could not start: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`mmseqs ${args[0]} ended with ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}
