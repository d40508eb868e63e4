/**
 * The matching threads (match-worker.mjs) on core's worker pool: a thread past a task's deadline
 * is terminated (the only way to stop a WASM call) and replaced, so a pathological query costs one
 * thread restart, never a stuck server. The same pool runs the structure and conformer threads,
 * and PDB's chemical search.
 */
import { SearchTimeout } from './deadline.js';
import { sourceUrl } from '../files/project.js';
import { WorkerPool, type PoolEvent } from '../workers/pool.js';

// The worker is plain JavaScript in the source tree; from the build this path leads back to it.
const WORKER = sourceUrl('core/chem/match-worker.mjs');

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

/** Matching threads replaced in this process (past a deadline, or after a fault), for `/health`. */
export const matcherState: ThreadState = { replacements: 0, renewals: 0 };

/** Tasks a matching thread runs before it is replaced by a fresh one (its RDKit heap with it). */
export const threadBudget = { tasks: Number(process.env.BIOMIRROR_MATCHER_BUDGET ?? 5_000) };

/** A pool's thread counts, as `/health` reports them. */
export interface ThreadState {
  replacements: number;
  renewals: number;
  /** When a thread was last replaced after a fault or past a deadline (ISO time). */
  lastFault?: string;
}

const timeout = () => new SearchTimeout('the search ran past its time limit');

export class MatchPool {
  private readonly pool: WorkerPool;
  /** Threads ended for running past a deadline (reported in tests and logs). */
  restarts = 0;

  /** `worker` and `state`: the same pool runs other engines' threads (the conformer worker). */
  constructor(size: number, worker: URL = WORKER, state: ThreadState = matcherState) {
    const count = (e: PoolEvent) => {
      if (e === 'renewed') state.renewals++;
      if (e !== 'deadline' && e !== 'fault' && e !== 'retired') return;
      if (e === 'deadline') this.restarts++;
      state.replacements++;
      state.lastFault = new Date().toISOString();
    };
    this.pool = new WorkerPool({
      script: worker,
      size,
      tasksPerThread: () => threadBudget.tasks,
      errors: {
        closed: () => new Error('the search pool is closed'),
        timeout,
        lost: (cause, how) => (how === 'exit' ? new Error('the matching thread stopped') : cause),
      },
      onEvent: count,
    });
  }

  /** Threads the pool runs at most. */
  get size(): number {
    return this.pool.size;
  }

  /**
   * `deadline`: epoch ms, start-up of the thread not counted; `budgetMs`: longest once a thread
   * takes it. `R`: the worker's own reply fields beside the common ones.
   */
  async run<R extends WorkerReply = WorkerReply>(msg: object, deadline: number, transfer: ArrayBuffer[] = [], budgetMs?: number): Promise<R> {
    let waited = 0;
    const r = await this.pool.run<R>(msg, { deadline, budgetMs, transfer, started: (ms) => (waited = ms) });
    if (r.error) throw new Error(r.error);
    return { ...r, waited };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
