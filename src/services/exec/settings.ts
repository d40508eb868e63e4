import { cpus } from 'node:os';
import { delimiter } from 'node:path';
import { projectPath } from '../../core/files/project.js';

/** The skills that ship with biomirror: a folder at the root of the repository (and of the package). */
export const BUILTIN_SKILLS = projectPath('skills/');

/** How the service runs scripts. Read from the environment by default; tests pass their own. */
export interface ExecSettings {
  /** Folders holding skill folders, searched in order; the first skill of a name wins. */
  skillDirs: string[];
  /** `auto`: bubblewrap when it works, else refuse to run. `none`: run unsandboxed (operator's opt-in). */
  sandbox: 'auto' | 'none';
  /** The bubblewrap program. */
  bwrap: string;
  /** The in-sandbox forwarder to the proxy; the fastest installed one when not set. */
  forwarder?: 'socat' | 'python' | 'node' | undefined;
  /** `auto`: a bearer token is needed unless the server listens on loopback only. */
  auth: 'auto' | 'always' | 'never';
  /** A fixed token; otherwise one is made at first start and kept in the database. */
  token: string | undefined;
  concurrency: number;
  /** Runs allowed to wait for a slot; beyond that a run is refused (503). */
  maxQueued: number;
  /** Longest wait for a slot, in ms. */
  queueWaitMs: number;
  limits: RunLimits;
}

export interface RunLimits {
  /** Wall-clock time of one run, ms. */
  wallMs: number;
  /** CPU seconds of one run. */
  cpuSeconds: number;
  /** Address space of each process, bytes. */
  memoryBytes: number;
  /** Resident memory of the whole run (every process, its /tmp and /dev/shm files), bytes; needs cgroups. */
  runMemoryBytes: number;
  /** CPU time of the whole run per period, in cores; needs cgroups. */
  cpus: number;
  /** Processes (threads count too) the run's user may have. */
  processes: number;
  /** Largest file a run may write, and the size of its temp folder, bytes. */
  fileBytes: number;
  /** Bytes kept of stdout and of stderr; more cuts the run. */
  outputBytes: number;
  /** Arguments: how many, and their total length in bytes. */
  maxArgs: number;
  maxArgBytes: number;
}

export const DEFAULT_LIMITS: RunLimits = {
  wallMs: 30_000,
  cpuSeconds: 20,
  memoryBytes: 1024 * 1024 * 1024,
  runMemoryBytes: 1024 * 1024 * 1024,
  cpus: 1,
  processes: 128,
  fileBytes: 64 * 1024 * 1024,
  outputBytes: 1024 * 1024,
  maxArgs: 256,
  maxArgBytes: 64 * 1024,
};

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, not "${value}"`);
  return n;
}

function choice<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${name} must be one of ${allowed.join(', ')}, not "${value}"`);
}

/** The settings from BIOMIRROR_EXEC_* variables (see docs/operations.md). */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ExecSettings {
  const extra = (env.BIOMIRROR_EXEC_SKILLS ?? '').split(delimiter).filter((d) => d !== '');
  const builtin = env.BIOMIRROR_EXEC_BUILTIN_SKILLS === 'off' ? [] : [BUILTIN_SKILLS];
  return {
    skillDirs: [...extra, ...builtin],
    bwrap: env.BIOMIRROR_EXEC_BWRAP || '/usr/bin/bwrap',
    sandbox: choice(env.BIOMIRROR_EXEC_SANDBOX, ['auto', 'none'] as const, 'auto', 'BIOMIRROR_EXEC_SANDBOX'),
    auth: choice(env.BIOMIRROR_EXEC_AUTH, ['auto', 'always', 'never'] as const, 'auto', 'BIOMIRROR_EXEC_AUTH'),
    token: env.BIOMIRROR_EXEC_TOKEN || undefined,
    concurrency: int(env.BIOMIRROR_EXEC_CONCURRENCY, Math.max(1, Math.min(4, cpus().length)), 'BIOMIRROR_EXEC_CONCURRENCY'),
    maxQueued: int(env.BIOMIRROR_EXEC_QUEUE, 64, 'BIOMIRROR_EXEC_QUEUE'),
    queueWaitMs: int(env.BIOMIRROR_EXEC_QUEUE_WAIT_MS, 60_000, 'BIOMIRROR_EXEC_QUEUE_WAIT_MS'),
    limits: {
      ...DEFAULT_LIMITS,
      wallMs: int(env.BIOMIRROR_EXEC_TIMEOUT_MS, DEFAULT_LIMITS.wallMs, 'BIOMIRROR_EXEC_TIMEOUT_MS'),
      memoryBytes: int(env.BIOMIRROR_EXEC_MEMORY_MB, DEFAULT_LIMITS.memoryBytes / 1048576, 'BIOMIRROR_EXEC_MEMORY_MB') * 1048576,
      runMemoryBytes: int(env.BIOMIRROR_EXEC_RUN_MEMORY_MB, DEFAULT_LIMITS.runMemoryBytes / 1048576, 'BIOMIRROR_EXEC_RUN_MEMORY_MB') * 1048576,
      outputBytes: int(env.BIOMIRROR_EXEC_OUTPUT_KB, DEFAULT_LIMITS.outputBytes / 1024, 'BIOMIRROR_EXEC_OUTPUT_KB') * 1024,
    },
  };
}
