/**
 * The conversion threads (worker.ts) on the core worker pool. Each conversion has a time budget
 * that starts when a thread takes it; one that waits its whole budget for a thread fails as one
 * that ran it out would. A thread past its budget, or one that dies (out of memory, a crash in
 * Mol*), is terminated and replaced, and only its task fails.
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AssemblyNotFound, CifFormatError, CifTaskTimeout, LegacyFormatUnavailable } from './errors.js';
import { cifLimits } from './limits.js';
import type { CifTaskKind, CifTaskOptions } from './tasks.js';
import { builtPath } from '../files/project.js';
import { WorkerPool } from '../workers/pool.js';

/**
 * The thread's script is the compiled worker.js beside this module; when this module runs from
 * the TypeScript sources (tests), the build's copy is used, so run `npm run build` first.
 */
function workerUrl(): URL {
  const path = builtPath('core/mmcif/worker.js');
  if (!existsSync(path)) throw new Error(`conversion worker missing at ${path}: run npm run build`);
  return pathToFileURL(path);
}

/** Conversions waiting for a thread beyond which new ones are refused at once (as past their budget). */
const MAX_QUEUED = Number(process.env.BIOMIRROR_CIF_MAX_QUEUED ?? 256);

/** Pool counters for /health and tests. */
export const cifPoolState = { replacements: 0, timeouts: 0, completed: 0 };

interface Reply {
  id?: number;
  bytes?: Uint8Array;
  error?: { name: string; message: string };
}

function rebuild(error: { name: string; message: string }): Error {
  switch (error.name) {
    case 'LegacyFormatUnavailable':
      return new LegacyFormatUnavailable(error.message);
    case 'AssemblyNotFound':
      return new AssemblyNotFound(error.message);
    default:
      return new CifFormatError(error.message);
  }
}

export class CifPool {
  private readonly pool: WorkerPool;

  constructor(size: number, memoryMb = Number(process.env.BIOMIRROR_CIF_WORKER_MB ?? 2048)) {
    this.pool = new WorkerPool({
      script: workerUrl,
      size,
      workerOptions: { resourceLimits: { maxOldGenerationSizeMb: memoryMb } },
      maxQueued: MAX_QUEUED,
      errors: {
        closed: () => new Error('the conversion pool is closed'),
        full: () => new CifTaskTimeout(`${MAX_QUEUED} conversions are already waiting`),
        timeout: (phase, t) =>
          new CifTaskTimeout(phase === 'queued' ? `the conversion waited past its time budget of ${t.budgetMs} ms for a thread` : `the conversion ran past its time budget of ${t.budgetMs} ms`),
        lost: (cause, how) =>
          new CifFormatError(how === 'start' ? `the conversion thread did not start: ${cause.message}` : how === 'exit' ? 'the conversion thread stopped' : `the conversion failed: ${cause.message}`),
      },
      onEvent: (e) => {
        if (e === 'completed') cifPoolState.completed++;
        if (e === 'refused' || e === 'expired' || e === 'deadline') cifPoolState.timeouts++;
        if (e === 'deadline' || e === 'fault') cifPoolState.replacements++;
      },
    });
  }

  async run(kind: CifTaskKind, bytes: Uint8Array, timeoutMs: number, options?: CifTaskOptions): Promise<Uint8Array> {
    if (bytes.byteLength > cifLimits.maxInputBytes) {
      throw new CifFormatError(`input of ${bytes.byteLength} bytes exceeds the limit of ${cifLimits.maxInputBytes}`);
    }
    // The budget starts when the thread is ready: loading Mol* is not the task's time.
    const r = await this.pool.run<Reply>({ kind, bytes, options }, { waitUntil: Date.now() + timeoutMs, budgetMs: timeoutMs });
    if (r.error) throw rebuild(r.error);
    return r.bytes ?? new Uint8Array(0);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

let shared: CifPool | undefined;

/** Threads of the shared pool: BIOMIRROR_CIF_WORKERS, else half the cores (at least 1, at most 4). */
function defaultSize(): number {
  const env = Number(process.env.BIOMIRROR_CIF_WORKERS);
  if (env > 0) return env;
  return Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));
}

/**
 * Runs one conversion on the shared pool. Resolves with the result bytes; rejects with
 * CifFormatError (bad input), LegacyFormatUnavailable, AssemblyNotFound or CifTaskTimeout.
 */
export function runCifTask(kind: CifTaskKind, bytes: Uint8Array, timeoutMs: number, options?: CifTaskOptions): Promise<Uint8Array> {
  shared ??= new CifPool(defaultSize());
  return shared.run(kind, bytes, timeoutMs, options);
}

/** Stops the shared pool's threads (server shutdown, end of a test file). */
export async function closeCifPool(): Promise<void> {
  const p = shared;
  shared = undefined;
  await p?.close();
}
