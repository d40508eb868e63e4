/**
 * One thread of a worker pool (pool.ts). Its script posts `{ready: true}` once loaded (an engine's
 * WASM, Mol*), so that start-up is never charged to the first task's time budget, then answers
 * each `{id, ...}` with `{id, ...}`.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** What a thread answers: the task's id, and `retire` when its engine faulted and it must end. */
export interface ThreadReply {
  id?: number;
  ready?: boolean;
  /** The thread is unusable after this answer (a corrupted engine heap): the pool replaces it. */
  retire?: boolean;
}

export interface ThreadEvents {
  reply(m: ThreadReply): void;
  /** The thread raised an uncaught error, or ended by itself. */
  lost(err: Error, how: 'error' | 'exit'): void;
}

export class PoolThread {
  readonly worker: Worker;
  /** Settles when the script has loaded; rejects when the thread ends first. */
  readonly ready: Promise<void>;
  /** Tasks this thread was given (a pool renews a thread after a number of them). */
  tasks = 0;

  constructor(script: URL | string, options: WorkerOptions | undefined, events: ThreadEvents) {
    const w = new Worker(script, options);
    // An idle thread never keeps the process alive; the pool refs it while it runs a task.
    w.unref();
    this.worker = w;
    this.ready = new Promise((resolve, reject) => {
      const onReady = (m: ThreadReply) => {
        if (!m?.ready) return;
        w.off('message', onReady);
        resolve();
      };
      w.on('message', onReady);
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`the thread stopped while starting (exit ${code})`)));
    });
    // A start-up failure is reported through the task waiting on it.
    this.ready.catch(() => undefined);
    w.on('message', (m: ThreadReply) => {
      if (!m?.ready) events.reply(m);
    });
    w.on('error', (err) => events.lost(err, 'error'));
    w.on('exit', (code) => events.lost(new Error(`the thread stopped (exit ${code})`), 'exit'));
  }

  /** Ends the thread (the only way to stop a running WASM call); its events are no longer heard. */
  end(): Promise<number> {
    this.worker.removeAllListeners();
    // An error raised while it ends is of no interest; unheard, it would be thrown.
    this.worker.on('error', () => undefined);
    return this.worker.terminate();
  }
}
