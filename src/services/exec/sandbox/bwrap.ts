/**
 * The bubblewrap command line of a run. Every namespace is new (so no network but the sandbox's own
 * loopback), the system is read-only, /tmp and /dev/shm are fresh size-bound tmpfs, the user is
 * 65534. The environment is not set here but handed to bubblewrap as its own (see Runner): a command
 * line is readable by every user of the machine, and the environment carries the skills' secrets. prlimit adds CPU, memory, process, file-size and
 * open-file limits. When the server runs as root, setpriv first drops to an unprivileged uid of
 * the run's slot: root's process count is never limited, and each slot then has its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import type { RunLimits } from '../settings.js';
import { sourcePath } from '../../../core/files/project.js';

export const SETPRIV = '/usr/bin/setpriv';
export const PRLIMIT = '/usr/bin/prlimit';
export const PYTHON = '/usr/bin/python3';
/** Where things appear inside the sandbox. */
export const IN = {
  skill: '/skill',
  opt: '/opt/biomirror',
  node: '/opt/biomirror/node',
  entry: '/opt/biomirror/entry.mjs',
  entryPy: '/opt/biomirror/entry.py',
  entrySh: '/opt/biomirror/entry.sh',
  run: '/opt/biomirror/run',
  socket: '/opt/biomirror/run/proxy.sock',
  ca: '/opt/biomirror/run/ca.pem',
  script: '/opt/biomirror/script',
} as const;
/** The proxy's port on the sandbox's own loopback. */
export const PROXY_PORT = 3128;
/** First uid of the runs' users when the server is root; slot n runs as UID_BASE + n. */
export const UID_BASE = 2_100_000_000;

export const ENTRY = sourcePath('services/exec/sandbox/entry.mjs');
export const ENTRY_PY = sourcePath('services/exec/sandbox/entry.py');
export const ENTRY_SH = sourcePath('services/exec/sandbox/entry.sh');
export const SOCAT = '/usr/bin/socat';

/**
 * The in-sandbox forwarder: socat where it is installed (a millisecond to start), else Python
 * (tens of ms), else the server's Node (a hundred ms or more).
 */
export type Forwarder = 'socat' | 'python' | 'node';
export const FORWARDER: Forwarder = existsSync(SOCAT) ? 'socat' : existsSync(PYTHON) ? 'python' : 'node';

function forwarder(kind: Forwarder): { bind: [string, string]; argv: string[] } {
  switch (kind) {
    case 'socat':
      return { bind: [ENTRY_SH, IN.entrySh], argv: ['/bin/sh', IN.entrySh] };
    case 'python':
      return { bind: [ENTRY_PY, IN.entryPy], argv: [PYTHON, '-I', '-S', '-B', IN.entryPy] };
    case 'node':
      return { bind: [ENTRY, IN.entry], argv: [nodeInside(), IN.entry] };
  }
}
export const NODE = realpathSync(process.execPath);

export interface SandboxState {
  kind: 'bubblewrap' | 'none';
  state: 'ok' | 'unavailable' | 'unsandboxed';
  version?: string;
  reason?: string;
}

export const runningAsRoot = (): boolean => process.getuid?.() === 0;

function dropPrivileges(slot: number): string[] {
  if (!runningAsRoot()) return [];
  const uid = String(UID_BASE + slot);
  return [SETPRIV, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--'];
}

export function limitArgs(l: RunLimits): string[] {
  return [PRLIMIT, `--as=${l.memoryBytes}`, `--cpu=${l.cpuSeconds}`, `--nproc=${l.processes}`, `--fsize=${l.fileBytes}`, '--nofile=256', '--core=0', '--'];
}

export interface BwrapRun {
  bwrap: string;
  slot: number;
  skillDir: string;
  runtimeDir: string;
  /** A file to show at IN.script (a transpiled TypeScript script), if any. */
  extraScript?: string | undefined;
  limits: RunLimits;
  /** The program and its arguments, as seen inside the sandbox. */
  argv: string[];
  /** Which forwarder to start (tests try each); the fastest installed one by default. */
  forwarder?: Forwarder | undefined;
  /** A seccomp program is handed to bubblewrap on SECCOMP_FD. */
  seccomp?: boolean | undefined;
}

/** The descriptor bubblewrap reads the seccomp program from (3 is its status). */
export const SECCOMP_FD = 4;

/** The whole argument vector: [setpriv ...] bwrap ... <forwarder entry> socket port prlimit ... program args. */
export function bwrapArgv(r: BwrapRun): string[] {
  const a = [
    ...dropPrivileges(r.slot),
    r.bwrap,
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--hostname',
    'sandbox',
    '--json-status-fd',
    '3',
  ];
  // Installed just before the forwarder starts, so the forwarder, prlimit and the script run under it.
  if (r.seccomp) a.push('--seccomp', String(SECCOMP_FD));
  a.push(
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/sbin',
    '/sbin',
    '--ro-bind-try',
    '/etc/alternatives',
    '/etc/alternatives',
    '--ro-bind-try',
    '/etc/ld.so.cache',
    '/etc/ld.so.cache',
    '--ro-bind-try',
    '/etc/mime.types',
    '/etc/mime.types',
    '--ro-bind',
    r.skillDir,
    IN.skill,
    '--ro-bind',
    r.runtimeDir,
    IN.run,
  );
  const entry = forwarder(r.forwarder ?? FORWARDER);
  a.push('--ro-bind', ...entry.bind);
  if (!NODE.startsWith('/usr/')) a.push('--ro-bind', NODE, IN.node);
  if (r.extraScript) a.push('--ro-bind', r.extraScript, IN.script);
  a.push('--proc', '/proc', '--dev', '/dev', '--size', String(r.limits.fileBytes), '--tmpfs', '/tmp', '--chdir', '/tmp');
  // /dev is a tmpfs without a size: only its shm folder stays writable, as a sized tmpfs of its own.
  a.push('--size', String(r.limits.fileBytes), '--tmpfs', '/dev/shm');
  // The folders bubblewrap made for the binds (/etc, /opt) would otherwise be writable.
  a.push('--remount-ro', '/', '--remount-ro', '/dev');
  // The limits bind the script and what it starts, not the forwarder before it (Node alone needs
  // more address space than a script's budget may allow).
  a.push(...entry.argv, IN.socket, String(PROXY_PORT), ...limitArgs(r.limits), ...r.argv);
  return a;
}

/** The server's node binary as the sandbox sees it. */
export function nodeInside(): string {
  return NODE.startsWith('/usr/') ? NODE : IN.node;
}

/** Whether bubblewrap is installed and can make this sandbox here (user namespaces allowed, ...). */
export function probeBubblewrap(BWRAP: string): SandboxState {
  if (!existsSync(BWRAP)) return { kind: 'bubblewrap', state: 'unavailable', reason: `${BWRAP} is not installed` };
  if (!existsSync(PRLIMIT)) return { kind: 'bubblewrap', state: 'unavailable', reason: `${PRLIMIT} is not installed` };
  if (runningAsRoot() && !existsSync(SETPRIV)) return { kind: 'bubblewrap', state: 'unavailable', reason: `${SETPRIV} is needed when running as root` };
  const version = spawnSync(BWRAP, ['--version'], { encoding: 'utf8', timeout: 5000 })
    .stdout?.trim()
    .replace(/^bubblewrap\s*/, '');
  const probe = spawnSync(
    dropPrivileges(0)[0] ?? BWRAP,
    [
      ...dropPrivileges(0).slice(1),
      ...(runningAsRoot() ? [BWRAP] : []),
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
      '--uid',
      '65534',
      '--gid',
      '65534',
      '--clearenv',
      '--ro-bind',
      '/usr',
      '/usr',
      '--symlink',
      'usr/bin',
      '/bin',
      '--symlink',
      'usr/lib',
      '/lib',
      '--symlink',
      'usr/lib64',
      '/lib64',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--tmpfs',
      '/tmp',
      '/bin/true',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.status !== 0) {
    return { kind: 'bubblewrap', state: 'unavailable', version, reason: `bubblewrap cannot make a sandbox here: ${(probe.stderr || probe.error?.message || `exit ${String(probe.status)}`).trim()}` };
  }
  return { kind: 'bubblewrap', state: 'ok', version };
}
