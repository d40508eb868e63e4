/**
 * Core's worker pool with a stand-in engine thread (fixtures/workers/busy-worker.mjs): a task's
 * budget counts from when a thread takes it (not its wait in the queue, nor the thread's start),
 * a thread past its budget or one that dies is replaced and only its task fails, the queue is
 * bounded, and close fails what is left.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, type PoolEvent, type PoolOptions } from '../src/core/workers/pool.js';

const SCRIPT = new URL('./fixtures/workers/busy-worker.mjs', import.meta.url);

interface Answer {
  id: number;
  name: string;
  thread: number;
}

describe('core worker pool', () => {
  let pool: WorkerPool | undefined;
  let events: PoolEvent[] = [];
  const make = (o: Partial<PoolOptions> = {}) => {
    events = [];
    pool = new WorkerPool({ script: SCRIPT, size: 1, onEvent: (e) => events.push(e), ...o });
    return pool;
  };
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('counts a budget from when a thread takes the task, not its wait behind another', async () => {
    const p = make();
    // `behind` waits over a second for the thread (past its own budget) and then runs well within it.
    const slow = p.run<Answer>({ name: 'slow', busy: 5000 }, { budgetMs: 1000 });
    const behind = p.run<Answer>({ name: 'behind', busy: 50 }, { budgetMs: 700 });
    await expect(slow).rejects.toThrow(/ran past its time limit/);
    expect((await behind).name).toBe('behind');
    expect(events.filter((e) => e === 'deadline')).toHaveLength(1);
  });

  it('does not charge a thread’s start-up to the deadline, and refuses a task whose deadline passed in the queue', async () => {
    const p = make({ workerOptions: { workerData: { startMs: 400 } } });
    let waited = 0;
    const first = await p.run<Answer>({ name: 'first', busy: 0 }, { deadline: Date.now() + 200, started: (ms) => (waited = ms) });
    expect(first.name).toBe('first');
    expect(waited).toBeGreaterThanOrEqual(300);
    const busy = p.run<Answer>({ name: 'busy', busy: 500 });
    const late = p.run<Answer>({ name: 'late', busy: 0 }, { deadline: Date.now() + 100 });
    await expect(late).rejects.toThrow(/waited past its time limit/);
    expect((await busy).name).toBe('busy');
    expect(events).toContain('expired');
  });

  it('replaces a thread that dies or retires, failing only its task', async () => {
    const p = make({ errors: { lost: (cause, how) => new Error(`lost by ${how}: ${cause.message}`) } });
    const a = await p.run<Answer>({ name: 'a' });
    await expect(p.run({ name: 'dies', exit: true })).rejects.toThrow(/lost by exit/);
    const b = await p.run<Answer>({ name: 'b', retire: true });
    const c = await p.run<Answer>({ name: 'c' });
    expect(new Set([a.thread, b.thread, c.thread]).size).toBe(3);
    expect(events).toEqual(['completed', 'fault', 'completed', 'retired', 'completed']);
  });

  it('renews a thread after its number of tasks', async () => {
    const p = make({ tasksPerThread: () => 2 });
    const threads = [];
    for (let i = 0; i < 4; i++) threads.push((await p.run<Answer>({ name: String(i) })).thread);
    expect(threads[0]).toBe(threads[1]);
    expect(threads[2]).not.toBe(threads[1]);
    expect(events.filter((e) => e === 'renewed')).toHaveLength(1);
  });

  it('refuses tasks beyond its queue bound at once', async () => {
    const p = make({ maxQueued: 1 });
    const running = p.run<Answer>({ name: 'running', busy: 300 });
    const queued = p.run<Answer>({ name: 'queued' });
    await expect(p.run({ name: 'refused' })).rejects.toThrow(/too many tasks/);
    expect((await running).name).toBe('running');
    expect((await queued).name).toBe('queued');
    expect(events).toContain('refused');
  });

  it('runs tasks on every thread at once', async () => {
    const p = make({ size: 2 });
    // Order, not elapsed time: both tasks are taken by a thread before either is done. Each is busy
    // far longer than a thread takes to start, even on a loaded machine.
    const order: string[] = [];
    const task = (name: string) =>
      p.run<Answer>({ name, busy: 1500 }, { started: () => order.push(`took ${name}`) }).then((r) => {
        order.push(`done ${name}`);
        return r;
      });
    const [a, b] = await Promise.all([task('a'), task('b')]);
    expect(a.thread).not.toBe(b.thread);
    expect(order.slice(0, 2).sort()).toEqual(['took a', 'took b']);
  });

  it('fails running and waiting tasks on close, and refuses new ones', async () => {
    const p = make();
    const both = Promise.allSettled([p.run({ name: 'running', busy: 2000 }), p.run({ name: 'waiting' })]);
    await new Promise((ok) => setTimeout(ok, 100));
    await p.close();
    expect((await both).map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual(['Error: the worker pool is closed', 'Error: the worker pool is closed']);
    await expect(p.run({ name: 'after' })).rejects.toThrow(/closed/);
  });
});
