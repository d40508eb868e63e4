/**
 * A pool of worker threads for engines treated as untrusted (RDKit, Mol*, a key scan kernel): a
 * task queue, a thread per task at a time, and a time budget counted from when a thread takes the
 * task. A thread that passes its task's budget is terminated (the only way to stop a WASM call)
 * and one that dies or retires itself is dropped; a fresh one starts with the next task, so a
 * pathological input costs one thread, never a stuck server or a poisoned next request.
 *
 * Threads start on demand and are renewed after a number of tasks when asked (an engine heap that
 * only grows). There is no idle shutdown: idle threads are unref'd and cost only their memory.
 */
import type { WorkerOptions } from 'node:worker_threads';
import { PoolThread, type ThreadReply } from './thread.js';

export interface TaskOptions {
  /**
   * Epoch ms by which the task must be answered; thread start-up is not charged (the deadline
   * moves by that wait). A task still queued at it is refused when a thread frees up.
   */
  deadline?: number;
  /** Epoch ms at which a task still waiting for a thread is refused, whether or not one frees up. */
  waitUntil?: number;
  /** Longest the task may run once a thread takes it (its wait in the queue not counted). */
  budgetMs?: number;
  transfer?: readonly ArrayBuffer[];
  /** Told how long the task waited for its thread to start once taken (callers extend their own deadlines by it). */
  started?(waitedMs: number): void;
}

/** What the pool did, for a caller's counters (`/health`). */
export type PoolEvent =
  | 'completed' // a thread answered
  | 'refused' // the queue was full
  | 'expired' // a task's wait for a thread passed its `waitUntil` or `deadline`
  | 'deadline' // a running task passed its budget: its thread was terminated
  | 'fault' // a thread raised an error, ended by itself or did not start
  | 'retired' // a thread said it was unusable after its answer
  | 'renewed'; // a thread ran its number of tasks and was replaced

/** The errors a pool's callers see; each pool words them for its engine. */
export interface PoolErrors {
  closed(): Error;
  full(): Error;
  timeout(phase: 'queued' | 'running', task: TaskOptions): Error;
  lost(cause: Error, how: 'start' | 'error' | 'exit'): Error;
}

export interface PoolOptions {
  /** The thread's script (or a function giving it, called at each start: it may throw, failing that task). */
  script: URL | string | (() => URL | string);
  /** Threads at most. */
  size: number;
  /** workerData, resourceLimits, ... */
  workerOptions?: WorkerOptions;
  /** Tasks waiting for a thread beyond which new ones are refused at once. */
  maxQueued?: number;
  /** Tasks a thread runs before a fresh one replaces it, read at each task (default: no limit). */
  tasksPerThread?: () => number;
  errors?: Partial<PoolErrors>;
  onEvent?(e: PoolEvent): void;
}

interface Task {
  id: number;
  msg: object;
  opts: TaskOptions;
  /** Epoch ms past which it is refused while queued (Infinity: never). */
  refuseAt: number;
  queued: NodeJS.Timeout | undefined;
  resolve(r: unknown): void;
  reject(e: Error): void;
}

class Slot {
  thread: PoolThread | undefined;
  task: Task | undefined;
  timer: NodeJS.Timeout | undefined;
}

const DEFAULT_ERRORS: PoolErrors = {
  closed: () => new Error('the worker pool is closed'),
  full: () => new Error('too many tasks are waiting for a thread'),
  timeout: (phase) => new Error(phase === 'queued' ? 'the task waited past its time limit' : 'the task ran past its time limit'),
  lost: (cause) => cause,
};

export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private readonly errors: PoolErrors;
  private seq = 0;
  private closed = false;

  constructor(private readonly opts: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.size) }, () => new Slot());
    this.errors = { ...DEFAULT_ERRORS, ...opts.errors };
  }

  /** Threads the pool runs at most. */
  get size(): number {
    return this.slots.length;
  }

  /** Tasks waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs `msg` (sent with an `id`) on a thread; resolves with the thread's answer as it is (a
   * caller reads its own error fields), rejects on a timeout, a lost thread or a closed pool.
   */
  run<R extends object = ThreadReply>(msg: object, opts: TaskOptions = {}): Promise<R> {
    if (this.closed) return Promise.reject(this.errors.closed());
    if (this.opts.maxQueued !== undefined && this.queue.length >= this.opts.maxQueued) {
      this.opts.onEvent?.('refused');
      return Promise.reject(this.errors.full());
    }
    return new Promise((resolve, reject) => {
      const task: Task = { id: ++this.seq, msg, opts, refuseAt: Math.min(opts.waitUntil ?? Infinity, opts.deadline ?? Infinity), queued: undefined, resolve: resolve as (r: unknown) => void, reject };
      if (opts.waitUntil !== undefined) {
        task.queued = setTimeout(
          () => {
            const at = this.queue.indexOf(task);
            if (at >= 0) this.queue.splice(at, 1);
            if (at >= 0) this.expire(task);
          },
          Math.max(1, opts.waitUntil - Date.now()),
        );
      }
      this.queue.push(task);
      this.pump();
    });
  }

  private expire(task: Task): void {
    clearTimeout(task.queued);
    this.opts.onEvent?.('expired');
    task.reject(this.errors.timeout('queued', task.opts));
  }

  /** Hands queued tasks to free slots, starting or renewing their threads. */
  private pump(): void {
    for (const slot of this.slots) {
      if (slot.task) continue;
      let task: Task | undefined;
      while ((task = this.queue.shift()) && Date.now() >= task.refuseAt) this.expire(task);
      if (!task) return;
      clearTimeout(task.queued);
      const limit = this.opts.tasksPerThread?.();
      if (slot.thread && limit !== undefined && slot.thread.tasks >= limit) {
        this.opts.onEvent?.('renewed');
        this.drop(slot);
      }
      try {
        slot.thread ??= this.start(slot);
      } catch (err) {
        task.reject(err as Error);
        continue;
      }
      this.take(slot, slot.thread, task);
    }
  }

  private start(slot: Slot): PoolThread {
    const s = this.opts.script;
    const thread: PoolThread = new PoolThread(typeof s === 'function' ? s() : s, this.opts.workerOptions, {
      reply: (m) => this.answered(slot, thread, m),
      lost: (err, how) => {
        if (slot.thread === thread) this.lose(slot, this.errors.lost(err, how));
      },
    });
    return thread;
  }

  private take(slot: Slot, thread: PoolThread, task: Task): void {
    thread.tasks++;
    slot.task = task;
    thread.worker.ref();
    const taken = Date.now();
    thread.ready.then(
      () => {
        if (slot.task !== task || slot.thread !== thread) return;
        const now = Date.now();
        const waited = now - taken;
        task.opts.started?.(waited);
        let end = task.opts.deadline === undefined ? Infinity : task.opts.deadline + waited;
        if (task.opts.budgetMs !== undefined) end = Math.min(end, now + task.opts.budgetMs);
        if (end !== Infinity) slot.timer = setTimeout(() => this.overrun(slot, task), Math.max(1, end - now));
        thread.worker.postMessage({ ...task.msg, id: task.id }, task.opts.transfer);
      },
      (err: Error) => {
        if (slot.task === task && slot.thread === thread) this.lose(slot, this.errors.lost(err, 'start'));
      },
    );
  }

  private answered(slot: Slot, thread: PoolThread, m: ThreadReply): void {
    const task = slot.task;
    if (slot.thread !== thread || !task || m.id !== task.id) return;
    this.opts.onEvent?.('completed');
    if (m.retire) {
      // Forgotten before the next task is handed out: that one gets a fresh thread.
      this.opts.onEvent?.('retired');
      this.drop(slot);
    }
    this.finish(slot);
    task.resolve(m);
  }

  private overrun(slot: Slot, task: Task): void {
    if (slot.task !== task) return;
    this.opts.onEvent?.('deadline');
    this.drop(slot);
    this.finish(slot);
    task.reject(this.errors.timeout('running', task.opts));
  }

  /** The slot's thread died or could not start: its task fails, the next task gets a fresh thread. */
  private lose(slot: Slot, err: Error): void {
    const task = slot.task;
    this.opts.onEvent?.('fault');
    this.drop(slot);
    this.finish(slot);
    task?.reject(err);
  }

  private drop(slot: Slot): void {
    const t = slot.thread;
    slot.thread = undefined;
    void t?.end();
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    slot.thread?.worker.unref();
    this.pump();
  }

  /** Refuses waiting tasks, fails running ones and ends every thread. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) {
      clearTimeout(t.queued);
      t.reject(this.errors.closed());
    }
    await Promise.all(
      this.slots.map(async (s) => {
        const thread = s.thread;
        const task = s.task;
        s.thread = undefined;
        s.task = undefined;
        if (s.timer) clearTimeout(s.timer);
        s.timer = undefined;
        task?.reject(this.errors.closed());
        await thread?.end();
      }),
    );
  }
}
