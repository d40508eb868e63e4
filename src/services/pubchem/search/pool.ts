/**
 * A small pool of matching threads (match-worker.mjs). Tasks queue; each has a deadline, and a
 * thread that passes it is terminated (the only way to stop a WASM call) and replaced, so a
 * pathological query costs one thread restart, never a stuck server.
 */
import { Worker } from 'node:worker_threads';
import { SearchTimeout } from './scan.js';
import { sourceUrl } from '../../../core/files/project.js';

// The worker is plain JavaScript in the source tree; from the build this path leads back to it.
const WORKER = sourceUrl('services/pubchem/search/match-worker.mjs');

export interface WorkerReply {
  id: number;
  invalid?: boolean;
  error?: string;
  atoms?: number;
  matched?: number[];
  /** The thread faulted and ends after this answer. */
  retire?: boolean;
  /** Milliseconds the task waited for its thread to start (loading RDKit); callers add them to their deadline. */
  waited?: number;
  /** Other workers' answers (the conformer worker's molfile and energy). */
  molfile?: string;
  energy?: number;
}

interface Task {
  msg: Record<string, unknown>;
  transfer: ArrayBuffer[];
  deadline: number;
  /** Longest the task may run once a thread has it (its wait in the queue not counted). */
  budgetMs?: number;
  resolve(r: WorkerReply): void;
  reject(e: Error): void;
}

/** Matching threads replaced in this process (past a deadline, or after a fault), for `/health`. */
export const matcherState: ThreadState = { replacements: 0, renewals: 0 };

/** Tasks a matching thread runs before it is replaced by a fresh one (its RDKit heap with it). */
export const threadBudget = { tasks: Number(process.env.BIOMIRROR_MATCHER_BUDGET ?? 5_000) };

class Slot {
  worker: Worker | undefined;
  /** Tasks the current thread was given. */
  tasks = 0;
  ready: Promise<void> | undefined;
  task: Task | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** A pool's thread counts, as `/health` reports them. */
export interface ThreadState {
  replacements: number;
  renewals: number;
  /** When a thread was last replaced after a fault or past a deadline (ISO time). */
  lastFault?: string;
}

/** Counts a thread replaced after a fault or past a deadline. */
function replaced(state: ThreadState): void {
  state.replacements++;
  state.lastFault = new Date().toISOString();
}

export class MatchPool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private seq = 0;
  private closed = false;
  /** Threads ended for running past a deadline (reported in tests and logs). */
  restarts = 0;

  /** Threads the pool runs at most. */
  get size(): number {
    return this.slots.length;
  }

  /** `worker` and `state`: the same pool runs other engines' threads (the conformer worker). */
  constructor(
    size: number,
    private readonly worker: URL = WORKER,
    private readonly state: ThreadState = matcherState,
  ) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => new Slot());
  }

  /** `R`: the worker's own reply fields beside the common ones. */
  run<R extends WorkerReply = WorkerReply>(msg: object, deadline: number, transfer: ArrayBuffer[] = [], budgetMs?: number): Promise<R> {
    if (this.closed) return Promise.reject(new Error('the search pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ msg: { ...msg, id: ++this.seq }, transfer, deadline, budgetMs, resolve: resolve as (r: WorkerReply) => void, reject });
      this.pump();
    });
  }

  private spawn(slot: Slot): void {
    const w = new Worker(this.worker);
    w.unref();
    slot.worker = w;
    slot.ready = new Promise((resolve, reject) => {
      const onReady = (m: { ready?: boolean }) => {
        if (m.ready) {
          w.off('message', onReady);
          resolve();
        }
      };
      w.on('message', onReady);
      w.once('error', reject);
    });
    w.on('message', (m: WorkerReply & { ready?: boolean }) => {
      if (m.ready) return;
      const t = slot.task;
      if (!t || m.id !== t.msg.id) return;
      if (m.retire && slot.worker === w) {
        // Forget the thread before the next task is handed out: that one gets a fresh thread.
        replaced(this.state);
        slot.worker = undefined;
        slot.ready = undefined;
        void w.terminate();
      }
      this.finish(slot);
      if (m.error) t.reject(new Error(m.error));
      else t.resolve({ ...m, waited: Number(t.msg.waited ?? 0) });
    });
    w.on('error', (err) => this.fail(slot, err));
    w.on('exit', () => {
      // A thread that ended by itself (after a WASM fault) is replaced at the next task.
      if (slot.worker === w) {
        replaced(this.state);
        this.fail(slot, new Error('the matching thread stopped'));
      }
    });
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    this.pump();
  }

  private fail(slot: Slot, err: Error): void {
    const t = slot.task;
    slot.worker = undefined;
    slot.ready = undefined;
    this.finish(slot);
    t?.reject(err);
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.task) continue;
      // Tasks whose deadline passed while they waited are refused; the slot takes the next one.
      let task: Task | undefined;
      while ((task = this.queue.shift()) && Date.now() >= task.deadline) task.reject(new SearchTimeout('the search ran past its time limit'));
      if (!task) return;
      if (slot.worker && slot.tasks >= threadBudget.tasks) {
        // Spent: this thread ends and a fresh one takes the task.
        this.state.renewals++;
        const old = slot.worker;
        slot.worker = undefined;
        slot.ready = undefined;
        void old.terminate();
      }
      if (!slot.worker) {
        this.spawn(slot);
        slot.tasks = 0;
      }
      slot.tasks++;
      slot.task = task;
      const w = slot.worker as Worker;
      const dispatched = Date.now();
      // Thread start-up (loading RDKit) is not charged to the task: its deadline moves by the wait.
      void (slot.ready as Promise<void>).then(
        () => {
          if (slot.task !== task || slot.worker !== w) return;
          const waited = Date.now() - dispatched;
          task.deadline += waited;
          if (task.budgetMs !== undefined) task.deadline = Math.min(task.deadline, Date.now() + task.budgetMs);
          task.msg.waited = waited;
          slot.timer = setTimeout(() => {
            if (slot.task !== task) return;
            this.restarts++;
            replaced(this.state);
            slot.worker = undefined;
            slot.ready = undefined;
            void w.terminate();
            this.finish(slot);
            task.reject(new SearchTimeout('the search ran past its time limit'));
          }, Math.max(1, task.deadline - Date.now()));
          w.postMessage(task.msg, task.transfer);
        },
        (err: Error) => this.fail(slot, err),
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error('the search pool is closed'));
    await Promise.all(
      this.slots.map(async (s) => {
        const w = s.worker;
        s.worker = undefined;
        if (s.task) this.fail(s, new Error('the search pool is closed'));
        if (w) await w.terminate();
      }),
    );
  }
}
