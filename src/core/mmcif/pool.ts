/**
 * A small pool of conversion threads (worker.ts). Tasks queue; each has a time budget that starts
 * when a thread takes it. A thread past its budget, or one that dies (out of memory, a crash in
 * Mol*), is terminated and replaced, and only its task fails.
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AssemblyNotFound, CifFormatError, CifTaskTimeout, LegacyFormatUnavailable } from './errors.js';
import { cifLimits } from './limits.js';
import type { CifTaskKind, CifTaskOptions } from './tasks.js';
import { builtPath } from '../files/project.js';

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

interface Task {
  id: number;
  /** Ends the wait of a task still queued when its budget has passed. */
  queued?: NodeJS.Timeout;
  kind: CifTaskKind;
  bytes: Uint8Array;
  options: CifTaskOptions | undefined;
  timeoutMs: number;
  resolve(b: Uint8Array): void;
  reject(e: Error): void;
}

interface Reply {
  id?: number;
  ready?: boolean;
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

class Slot {
  worker: Worker | undefined;
  ready: Promise<void> | undefined;
  task: Task | undefined;
  timer: NodeJS.Timeout | undefined;
}

export class CifPool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private seq = 0;
  private closed = false;

  constructor(size: number, private readonly memoryMb = Number(process.env.BIOMIRROR_CIF_WORKER_MB ?? 2048)) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => new Slot());
  }

  run(kind: CifTaskKind, bytes: Uint8Array, timeoutMs: number, options?: CifTaskOptions): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('the conversion pool is closed'));
    if (bytes.byteLength > cifLimits.maxInputBytes) {
      return Promise.reject(new CifFormatError(`input of ${bytes.byteLength} bytes exceeds the limit of ${cifLimits.maxInputBytes}`));
    }
    if (this.queue.length >= MAX_QUEUED) {
      cifPoolState.timeouts++;
      return Promise.reject(new CifTaskTimeout(`${MAX_QUEUED} conversions are already waiting`));
    }
    return new Promise((resolve, reject) => {
      const task: Task = { id: ++this.seq, kind, bytes, options, timeoutMs, resolve, reject };
      // A task that waits its whole budget for a thread fails as one that ran it out would.
      task.queued = setTimeout(() => {
        const at = this.queue.indexOf(task);
        if (at < 0) return;
        this.queue.splice(at, 1);
        cifPoolState.timeouts++;
        reject(new CifTaskTimeout(`the conversion waited past its time budget of ${timeoutMs} ms for a thread`));
      }, Math.max(1, timeoutMs));
      this.queue.push(task);
      this.pump();
    });
  }

  private spawn(slot: Slot): void {
    const w = new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
    w.unref();
    slot.worker = w;
    slot.ready = new Promise((resolve, reject) => {
      const onReady = (m: Reply) => {
        if (m.ready) {
          w.off('message', onReady);
          resolve();
        }
      };
      w.on('message', onReady);
      w.once('error', reject);
      w.once('exit', () => reject(new Error('the conversion thread stopped while starting')));
    });
    // A start-up failure is reported through the task that waits on it.
    slot.ready.catch(() => undefined);
    w.on('message', (m: Reply) => {
      const t = slot.task;
      if (m.ready || !t || m.id !== t.id || slot.worker !== w) return;
      this.finish(slot);
      cifPoolState.completed++;
      if (m.error) t.reject(rebuild(m.error));
      else t.resolve(m.bytes ?? new Uint8Array(0));
    });
    w.on('error', (err) => {
      if (slot.worker === w) this.retire(slot, new CifFormatError(`the conversion failed: ${err.message}`));
    });
    w.on('exit', () => {
      if (slot.worker === w) this.retire(slot, new CifFormatError('the conversion thread stopped'));
    });
  }

  /** Ends the slot's thread (a fresh one starts with the next task) and fails its task. */
  private retire(slot: Slot, err: Error): void {
    const w = slot.worker;
    const t = slot.task;
    slot.worker = undefined;
    slot.ready = undefined;
    cifPoolState.replacements++;
    if (w) void w.terminate();
    this.finish(slot);
    t?.reject(err);
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    queueMicrotask(() => this.pump());
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.task || !this.queue.length) continue;
      const task = this.queue.shift() as Task;
      clearTimeout(task.queued);
      if (!slot.worker) {
        try {
          this.spawn(slot);
        } catch (e) {
          task.reject(e as Error);
          continue;
        }
      }
      slot.task = task;
      const w = slot.worker as Worker;
      // The budget starts when the thread is ready: loading Mol* is not the task's time.
      (slot.ready as Promise<void>).then(
        () => {
          if (slot.task !== task || slot.worker !== w) return;
          slot.timer = setTimeout(() => {
            if (slot.task !== task) return;
            cifPoolState.timeouts++;
            this.retire(slot, new CifTaskTimeout(`the conversion ran past its time budget of ${task.timeoutMs} ms`));
          }, Math.max(1, task.timeoutMs));
          w.postMessage({ id: task.id, kind: task.kind, bytes: task.bytes, options: task.options });
        },
        (err: Error) => {
          if (slot.task === task) this.retire(slot, new CifFormatError(`the conversion thread did not start: ${err.message}`));
        },
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) {
      clearTimeout(t.queued);
      t.reject(new Error('the conversion pool is closed'));
    }
    await Promise.all(
      this.slots.map(async (s) => {
        const w = s.worker;
        const t = s.task;
        s.worker = undefined;
        s.task = undefined;
        if (s.timer) clearTimeout(s.timer);
        t?.reject(new Error('the conversion pool is closed'));
        if (w) await w.terminate();
      }),
    );
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
