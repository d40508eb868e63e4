/**
 * Guessing protection for the sign-in form (OWASP Authentication Cheat Sheet): failed sign-ins are
 * counted per account and per client address, and past a few free failures each further attempt
 * must wait a delay that doubles with every failure, up to 15 minutes. A counter is forgotten 15
 * minutes after its last failure; a successful sign-in clears its account's. The counters live in
 * Redis when biomirror has it, so every process enforces the same delays, and in memory otherwise.
 * This is always on, whatever the rate-limit settings say.
 */
import { Redis } from 'ioredis';

export interface Failures {
  count: number;
  /** When the last failure was (ms). */
  last: number;
}

export interface FailureStore {
  get(key: string): Promise<Failures | undefined>;
  add(key: string, now: number, ttlMs: number): Promise<Failures>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryFailures implements FailureStore {
  private readonly m = new Map<string, Failures & { until: number }>();
  constructor(private readonly clock: () => number = Date.now) {}
  async get(key: string): Promise<Failures | undefined> {
    const f = this.m.get(key);
    if (f && f.until <= this.clock()) {
      this.m.delete(key);
      return undefined;
    }
    return f ? { count: f.count, last: f.last } : undefined;
  }
  async add(key: string, now: number, ttlMs: number): Promise<Failures> {
    const prev = await this.get(key);
    const f = { count: (prev?.count ?? 0) + 1, last: now, until: now + ttlMs };
    this.m.set(key, f);
    if (this.m.size > 100_000) for (const [k, v] of this.m) if (v.until <= now) this.m.delete(k);
    return { count: f.count, last: f.last };
  }
  async clear(key: string): Promise<void> {
    this.m.delete(key);
  }
  async close(): Promise<void> {}
}

export class RedisFailures implements FailureStore {
  private readonly r: Redis;
  constructor(
    url: string,
    private readonly prefix = 'biomirror:signin:',
  ) {
    this.r = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.r.on('error', () => undefined);
  }
  async get(key: string): Promise<Failures | undefined> {
    const h = await this.r.hgetall(this.prefix + key);
    return h.count ? { count: Number(h.count), last: Number(h.last) } : undefined;
  }
  async add(key: string, now: number, ttlMs: number): Promise<Failures> {
    const k = this.prefix + key;
    const out = await this.r.multi().hincrby(k, 'count', 1).hset(k, 'last', String(now)).pexpire(k, ttlMs).exec();
    return { count: Number(out?.[0]?.[1] ?? 1), last: now };
  }
  async clear(key: string): Promise<void> {
    await this.r.del(this.prefix + key);
  }
  async close(): Promise<void> {
    this.r.disconnect();
  }
}

export const THROTTLE = {
  /** Failures of one account before delays start, and of one address (many users may share one). */
  freeAccount: 3,
  freeAddress: 10,
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  forgetMs: 15 * 60_000,
};

/** The delay owed after `count` failures with `free` of them allowed without one. */
export function delayAfter(count: number, free: number): number {
  if (count < free) return 0;
  return Math.min(THROTTLE.maxDelayMs, THROTTLE.firstDelayMs * 2 ** Math.min(30, count - free));
}

export class SigninThrottle {
  constructor(
    private readonly store: FailureStore,
    private readonly clock: () => number = Date.now,
  ) {}

  private static keys(username: string, ip: string) {
    return { account: `account:${username.trim().toLowerCase()}`, address: `ip:${ip}` };
  }

  /** Milliseconds before this account may be tried again from this address (0: now). */
  async wait(username: string, ip: string): Promise<number> {
    const k = SigninThrottle.keys(username, ip);
    const now = this.clock();
    const [a, b] = await Promise.all([this.store.get(k.account), this.store.get(k.address)]);
    const until = Math.max(a ? a.last + delayAfter(a.count, THROTTLE.freeAccount) : 0, b ? b.last + delayAfter(b.count, THROTTLE.freeAddress) : 0);
    return Math.max(0, until - now);
  }

  async failed(username: string, ip: string): Promise<void> {
    const k = SigninThrottle.keys(username, ip);
    const now = this.clock();
    await Promise.all([this.store.add(k.account, now, THROTTLE.forgetMs), this.store.add(k.address, now, THROTTLE.forgetMs)]);
  }

  async succeeded(username: string): Promise<void> {
    await this.store.clear(SigninThrottle.keys(username, '').account);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
