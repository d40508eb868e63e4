/**
 * The thread pool behind PubChem's structure reading, matching and conformers, with a stand-in
 * worker that works for as long as each task says: tasks whose deadline passes in the queue are
 * refused without holding up those behind them, and a task's own budget counts from when a thread
 * takes it, not from when it was queued.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchPool, type ThreadState } from '../src/core/chem/match-pool.js';
import { SearchTimeout } from '../src/core/chem/deadline.js';
import { tempDir } from './helpers/stores.js';

/** Busy for `m.busy` ms, then answers with its name (a CPU-bound task, as RDKit's are). */
const WORKER = `
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => {
  const end = Date.now() + m.busy;
  while (Date.now() < end);
  parentPort.postMessage({ id: m.id, name: m.name });
});
parentPort.postMessage({ ready: true });
`;

function standIn(): URL {
  const file = join(tempDir(), 'busy-worker.mjs');
  writeFileSync(file, WORKER);
  return pathToFileURL(file);
}

/** The task's answer, or 'timeout', or 'pending' when it has not settled within `ms`. */
function outcome(p: Promise<object>, ms = 3000): Promise<unknown> {
  return Promise.race([
    p.then(
      (r) => (r as { name?: unknown }).name,
      (e: unknown) => (e instanceof SearchTimeout ? 'timeout' : String(e)),
    ),
    new Promise((ok) => setTimeout(() => ok('pending'), ms)),
  ]);
}

describe('PubChem thread pool', () => {
  let pool: MatchPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('refuses tasks whose deadline passed in the queue and still hands out those behind them', async () => {
    const state: ThreadState = { replacements: 0, renewals: 0 };
    pool = new MatchPool(1, standIn(), state);
    // Started and ready, so start-up does not count below.
    expect(await outcome(pool.run({ name: 'warm', busy: 0 }, Date.now() + 10_000))).toBe('warm');
    const now = Date.now();
    const slow = pool.run({ name: 'slow', busy: 2000 }, now + 200);
    const expired = pool.run({ name: 'expired', busy: 0 }, now + 50);
    const c = pool.run({ name: 'c', busy: 0 }, now + 10_000);
    const d = pool.run({ name: 'd', busy: 0 }, now + 10_000);
    expect(await outcome(slow)).toBe('timeout');
    expect(await outcome(expired)).toBe('timeout');
    expect(await outcome(c)).toBe('c');
    expect(await outcome(d)).toBe('d');
    expect(state.replacements).toBe(1);
  });

  it('counts a task’s budget from when a thread takes it, not while it waits behind another', async () => {
    pool = new MatchPool(1, standIn(), { replacements: 0, renewals: 0 });
    expect(await outcome(pool.run({ name: 'warm', busy: 0 }, Date.now() + 10_000))).toBe('warm');
    const slow = pool.run({ name: 'slow', busy: 2000 }, Date.now() + 10_000, [], 300);
    const behind = pool.run({ name: 'behind', busy: 100 }, Date.now() + 10_000, [], 300);
    expect(await outcome(slow)).toBe('timeout');
    expect(await outcome(behind)).toBe('behind');
  });
});
