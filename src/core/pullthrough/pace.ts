/**
 * The turns of the queues toward the upstreams. A host's published rate is the rate of all of
 * biomirror's requests to it, not of each process: `serve --workers N`, and servers sharing one
 * PostgreSQL database, take their turns from one row per queue in the database (SharedPace), each
 * turn reserved by one atomic statement. MemoryPace is the same rule within one process; the shared
 * one falls back to it when the database cannot be written, so a request is still paced.
 */
import type { Db } from '../store/db.js';

export interface Pace {
  /**
   * Reserves the next turn of `queue`, `intervalMs` after the one before, and waits for it; or, when
   * that turn is more than `maxWaitMs` away, reserves nothing and resolves to the wait (ms).
   */
  turn(queue: string, intervalMs: number, maxWaitMs: number): Promise<number | undefined>;
  /** No turn of `queue` before `ms` from now (an upstream's Retry-After). */
  holdBack(queue: string, ms: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class MemoryPace implements Pace {
  private readonly next = new Map<string, number>();

  async turn(queue: string, intervalMs: number, maxWaitMs: number): Promise<number | undefined> {
    const now = Date.now();
    const at = Math.max(now, this.next.get(queue) ?? 0);
    if (at - now > maxWaitMs) return at - now;
    this.next.set(queue, at + intervalMs);
    if (at > now) await sleep(at - now);
    return undefined;
  }

  async holdBack(queue: string, ms: number): Promise<void> {
    this.next.set(queue, Math.max(this.next.get(queue) ?? 0, Date.now() + ms));
  }
}

/** The table is made by the kept answers' migrations (store.ts), which run before any request. */
export const PACE_TABLE = 'bm_pullthrough_pace';

export class SharedPace implements Pace {
  private readonly fallback = new MemoryPace();

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  async turn(queue: string, interval: number, maxWaitMs: number): Promise<number | undefined> {
    const now = Date.now();
    // Whole milliseconds, rounded up (1000/3 for three a second): the column is an integer.
    const intervalMs = Math.ceil(interval);
    let reserved: number | undefined;
    try {
      // The row holds the time after which the next turn may start. One statement moves it on by an
      // interval (from now, when it lies in the past) unless the turn is too far away; inside a
      // transaction so that SQLite runs it on its writing connection.
      const rows = await this.db.transaction((tx) =>
        tx.query<{ next_at: number | string }>(
          `INSERT INTO ${PACE_TABLE} (queue, next_at) VALUES (?, ?)
           ON CONFLICT (queue) DO UPDATE
             SET next_at = (CASE WHEN ${PACE_TABLE}.next_at > ? THEN ${PACE_TABLE}.next_at ELSE ? END) + ?
             WHERE ${PACE_TABLE}.next_at - ? <= ?
           RETURNING next_at`,
          [queue, now + intervalMs, now, now, intervalMs, now, Math.ceil(maxWaitMs)],
        ),
      );
      const row = rows[0];
      if (!row) {
        const held = await this.db.one<{ next_at: number | string }>(`SELECT next_at FROM ${PACE_TABLE} WHERE queue = ?`, [queue]);
        return Math.max(1, Number(held?.next_at ?? now) - now);
      }
      reserved = Number(row.next_at) - intervalMs;
    } catch (err) {
      this.onError(err);
      return this.fallback.turn(queue, interval, maxWaitMs);
    }
    const wait = reserved - Date.now();
    if (wait > 0) await sleep(wait);
    return undefined;
  }

  async holdBack(queue: string, ms: number): Promise<void> {
    const until = Date.now() + Math.ceil(ms);
    await this.fallback.holdBack(queue, ms);
    try {
      await this.db.run(
        `INSERT INTO ${PACE_TABLE} (queue, next_at) VALUES (?, ?)
         ON CONFLICT (queue) DO UPDATE SET next_at = excluded.next_at WHERE ${PACE_TABLE}.next_at < excluded.next_at`,
        [queue, until],
      );
    } catch (err) {
      this.onError(err);
    }
  }
}
