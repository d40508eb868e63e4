/**
 * Runs one script: in the sandbox (or, on the operator's opt-in, without), with its arguments as
 * an argument vector, never a shell; bounded in time and output; the whole process group killed
 * when it runs over. The answer is the execution response: success, returncode, stdout, stderr,
 * command, with the HTTP status the service answers it with.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Logger } from 'pino';
import type { RunCgroups, RunGroup } from './sandbox/cgroup.js';
import { bwrapArgv, type Forwarder, IN, limitArgs, NODE, nodeInside, PROXY_PORT, PYTHON, type SandboxState } from './sandbox/bwrap.js';
import { seccompProgram } from './sandbox/seccomp.js';
import type { RunLimits } from './settings.js';
import type { Script, Skill } from './skills.js';

export interface ExecutionResponse {
  success: boolean;
  returncode: number;
  stdout: string;
  stderr: string;
  command: string;
}

export interface RunOutcome {
  status: number;
  body: ExecutionResponse;
}

export interface RunnerOptions {
  bwrap: string;
  forwarder?: Forwarder | undefined;
  sandbox: SandboxState;
  limits: RunLimits;
  /** Holds the proxy's socket and the CA certificate; bound read-only into every run. */
  runtimeDir: string;
  /** The proxy's loopback port, for unsandboxed runs. */
  loopbackPort: () => number | undefined;
  /** Variables every run gets (the services' base URLs). */
  baseEnv: Record<string, string>;
  /** Control groups that bound each run as a whole, where the machine allows them. */
  cgroups?: RunCgroups | undefined;
  /** A transpiled copy of a TypeScript script. */
  transpiled: (skill: Skill, script: Script) => string | undefined;
  log: Logger;
}

export const TIMEOUT_CODE = 124;

/** How the command is shown back: the interpreter's short name and the script's path in its skill. */
export function displayCommand(skill: Skill, script: Script, args: readonly string[]): string {
  const quote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const program = { python: 'python3', javascript: 'node', typescript: 'node', shell: 'sh' }[script.language];
  return [program, relative(skill.dir, script.path), ...args].map(quote).join(' ');
}

/** V8 reserves far more address space than it uses: Node gets this much on top, and a heap bound instead. */
const NODE_RESERVE = 1024 * 1024 * 1024;

/** What V8 keeps resident beside its heap (code, stacks, the heap's own bookkeeping). */
const NODE_RESIDENT = 256 * 1024 * 1024;

function limitsFor(script: Script, limits: RunLimits): RunLimits {
  const node = script.language === 'javascript' || script.language === 'typescript';
  return node ? { ...limits, memoryBytes: limits.memoryBytes + NODE_RESERVE, runMemoryBytes: limits.runMemoryBytes + NODE_RESIDENT } : limits;
}

/**
 * The command that puts its own process into the run's groups, then becomes the run: the host's
 * sh, started as the server's user, before any privilege is dropped.
 */
function joinGroups(procs: readonly string[]): string[] {
  const script = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@"';
  return ['/bin/sh', '-c', script, 'biomirror-run', String(procs.length), ...procs];
}

function programFor(script: Script, path: string, node: string, transpiled: string | undefined, limits: RunLimits): string[] {
  const heap = `--max-old-space-size=${Math.max(16, Math.floor(limits.memoryBytes / 1048576))}`;
  switch (script.language) {
    case 'python':
      return [PYTHON, '-B', '-s', path];
    case 'javascript':
      return [node, heap, path];
    case 'typescript':
      return [node, heap, transpiled ?? path];
    case 'shell':
      return ['/bin/sh', path];
  }
}

function proxyEnv(url: string): Record<string, string> {
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, ALL_PROXY: url, NO_PROXY: '', no_proxy: '' };
}

function caEnv(path: string): Record<string, string> {
  return { SSL_CERT_FILE: path, REQUESTS_CA_BUNDLE: path, CURL_CA_BUNDLE: path, NODE_EXTRA_CA_CERTS: path };
}

/** Collects a stream up to a byte cap; reports when the cap was passed. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  overflowed = false;
  constructor(
    private readonly cap: number,
    private readonly onOverflow: () => void,
  ) {}
  push(chunk: Buffer): void {
    if (this.overflowed) return;
    const room = this.cap - this.size;
    if (chunk.length > room) {
      this.chunks.push(chunk.subarray(0, room));
      this.size = this.cap;
      this.overflowed = true;
      this.onOverflow();
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }
  text(): string {
    const s = Buffer.concat(this.chunks).toString('utf8');
    return this.overflowed ? `${s}\n...[output truncated at ${this.cap} bytes]` : s;
  }
}

export class Runner {
  /** The seccomp filter of every sandboxed run; none on architectures it has no numbers for. */
  private readonly seccomp = seccompProgram();

  constructor(private readonly o: RunnerOptions) {}

  /** Whether sandboxed runs get the seccomp filter (false on architectures it has no numbers for). */
  get filtered(): boolean {
    return this.seccomp !== undefined;
  }

  /** Runs the script in the given slot; never throws for anything the script does. */
  async run(slot: number, skill: Skill, script: Script, args: readonly string[]): Promise<RunOutcome> {
    const command = displayCommand(skill, script, args);
    const declared: Record<string, string> = {};
    for (const name of skill.env) {
      const v = process.env[name];
      if (v !== undefined) declared[name] = v;
    }
    const common = { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', ...this.o.baseEnv, ...declared };
    let argv: string[];
    let env: Record<string, string>;
    let cwd: string | undefined;
    let scratch: string | undefined;
    const transpiled = script.language === 'typescript' ? this.o.transpiled(skill, script) : undefined;
    if (script.language === 'typescript' && !transpiled) {
      return { status: 500, body: { success: false, returncode: -1, stdout: '', stderr: 'TypeScript scripts need the typescript package on the server to be compiled', command } };
    }
    if (this.o.sandbox.state === 'ok') {
      const inside = `${IN.skill}/${relative(skill.dir, script.path)}`;
      argv = bwrapArgv({
        bwrap: this.o.bwrap,
        forwarder: this.o.forwarder,
        slot,
        skillDir: skill.dir,
        runtimeDir: this.o.runtimeDir,
        extraScript: transpiled,
        limits: limitsFor(script, this.o.limits),
        seccomp: this.seccomp !== undefined,
        argv: [...programFor(script, inside, nodeInside(), transpiled ? IN.script : undefined, this.o.limits), ...args],
      });
      // bubblewrap's own environment, which it hands on: never its command line, which every user
      // of the machine can read in /proc, while a declared secret is among these variables.
      env = { PATH: '/usr/bin:/bin', HOME: '/tmp', TMPDIR: '/tmp', ...common, ...proxyEnv(`http://127.0.0.1:${PROXY_PORT}`), ...caEnv(IN.ca) };
    } else if (this.o.sandbox.state === 'unsandboxed') {
      scratch = mkdtempSync(join(this.o.runtimeDir, 'run-'));
      cwd = scratch;
      const port = this.o.loopbackPort();
      argv = [...limitArgs(limitsFor(script, this.o.limits)), ...programFor(script, script.path, NODE, transpiled, this.o.limits), ...args];
      env = { ...common, PATH: '/usr/bin:/bin', HOME: scratch, TMPDIR: scratch, ...(port ? proxyEnv(`http://127.0.0.1:${port}`) : {}), ...caEnv(join(this.o.runtimeDir, 'ca.pem')) };
    } else {
      return {
        status: 503,
        body: { success: false, returncode: -1, stdout: '', stderr: `scripts are not run: no sandbox is available (${this.o.sandbox.reason ?? 'unknown reason'})`, command },
      };
    }
    const bounds = limitsFor(script, this.o.limits);
    const group = this.o.cgroups?.create({ memoryBytes: bounds.runMemoryBytes, processes: bounds.processes, cpus: bounds.cpus });
    if (group) argv = [...joinGroups(group.procs), ...argv];
    try {
      return await this.spawnRun(argv, cwd, env, command, this.o.sandbox.state === 'ok', group, bounds.runMemoryBytes);
    } finally {
      group?.release();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  }

  private spawnRun(argv: string[], cwd: string | undefined, env: Record<string, string>, command: string, sandboxed: boolean, group: RunGroup | undefined, runMemory: number): Promise<RunOutcome> {
    const limits = this.o.limits;
    return new Promise<RunOutcome>((resolve) => {
      const [program, ...rest] = argv as [string, ...string[]];
      const child = spawn(program, rest, {
        // A process group of its own, so that one signal reaches everything the run started.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', sandboxed ? 'pipe' : 'ignore', sandboxed && this.seccomp ? 'pipe' : 'ignore'],
        env,
        cwd,
      });
      // bubblewrap reads the filter to its end once the sandbox is made (and closes it: the script
      // never inherits it); a bubblewrap that failed before reading breaks the pipe, harmlessly.
      const filter = child.stdio[4];
      if (filter && 'end' in filter && this.seccomp) {
        filter.on('error', () => undefined);
        filter.end(this.seccomp);
      }
      let timedOut = false;
      let cut = false;
      let started = !sandboxed;
      let failed: string | undefined;
      const killGroup = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const stdout = new Capped(limits.outputBytes, () => {
        cut = true;
        killGroup();
      });
      const stderr = new Capped(limits.outputBytes, () => {
        cut = true;
        killGroup();
      });
      child.stdout?.on('data', (c: Buffer) => stdout.push(c));
      child.stderr?.on('data', (c: Buffer) => stderr.push(c));
      // bubblewrap reports {"child-pid": n} once the sandbox is made; without it, the sandbox failed.
      const status = child.stdio[3];
      if (status && 'on' in status) {
        status.on('data', (c: Buffer) => {
          if (c.toString().includes('"child-pid"')) started = true;
        });
        status.on('error', () => undefined);
      }
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, limits.wallMs);
      child.on('error', (err) => {
        failed = err.message;
      });
      // A descendant that left the process group (only possible without the sandbox, whose process
      // namespace ends with the run) could hold the pipes open: once the run has exited, its
      // output is what it wrote by then.
      child.on('exit', () => {
        killGroup();
        setTimeout(() => {
          for (const s of child.stdio) s?.destroy();
        }, 500).unref();
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        killGroup();
        let returncode = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
        let err = stderr.text();
        let httpStatus = 200;
        if (failed) {
          httpStatus = 500;
          returncode = -1;
          err = `the run could not start: ${failed}`;
        } else if (timedOut) {
          httpStatus = 504;
          returncode = TIMEOUT_CODE;
          err = `${err}${err && !err.endsWith('\n') ? '\n' : ''}killed: the run took longer than ${limits.wallMs} ms`;
        } else if (cut) {
          httpStatus = 413;
          err = `${err}${err && !err.endsWith('\n') ? '\n' : ''}killed: the run wrote more than ${limits.outputBytes} bytes to ${stdout.overflowed ? 'stdout' : 'stderr'}`;
        } else if (group?.oomKilled()) {
          err = `${err}${err && !err.endsWith('\n') ? '\n' : ''}killed: the run's processes together used more than ${runMemory} bytes of memory`;
        } else if (!started) {
          httpStatus = 503;
          returncode = -1;
          this.o.log.error({ stderr: err.slice(0, 2000) }, 'the sandbox refused to start');
          err = `the sandbox refused to start the run: ${err.trim() || `exit ${String(code)}`}`;
        }
        resolve({ status: httpStatus, body: { success: !failed && !timedOut && !cut && started && returncode === 0, returncode, stdout: stdout.text(), stderr: err, command } });
      });
    });
  }
}
