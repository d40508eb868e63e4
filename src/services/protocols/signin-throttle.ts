/**
 * Guessing protection for the sign-in form (OWASP Authentication Cheat Sheet). Always on, whatever
 * the rate-limit settings say; the counters live in Redis when biomirror has it, so that every
 * process enforces the same delays, and in memory otherwise.
 *
 * An attempt is counted before its password is checked, in one atomic step that also decides
 * whether it may go ahead (in memory: synchronous code; in Redis: one Lua script, so processes
 * sharing Redis cannot race either). It stays counted as a failure unless the password was right,
 * and then it gives its count back. Counting only after the slow check let any number of
 * concurrent guesses pass the check of the delay before the first failure was recorded.
 *
 * Two counters:
 * - per account, from any address: past 3 failures each attempt waits a delay that doubles from
 *   1 s up to 15 min. A successful sign-in clears it.
 * - per address, across accounts: past 10 failures the same growing delay, but only for accounts
 *   that have failures of their own. The server cannot tell a right password from a guess without
 *   checking it, so a per-address limit on every account would let one person behind a shared
 *   address (a lab's NAT) lock everyone there out. Instead, an account without failures is always
 *   checked. The cost: past its free failures an address still gets one guess for each account that
 *   has none. That account then waits for the address too, so spraying one password over many
 *   accounts gets one guess per account rather than the account rule's three, and repeated guesses
 *   go at the address's pace.
 * A counter is forgotten 15 minutes after the last attempt it counted.
 */
import { Redis } from 'ioredis';

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

export interface Counter {
  /** Attempts counted and not given back: failures, and checks under way. */
  count: number;
  /** When the last of them started (ms). */
  last: number;
}

/** Milliseconds an attempt must wait given its account's and its address's counters (0: none). */
export function owed(account: Counter | undefined, address: Counter | undefined, now: number): number {
  let until = account ? account.last + delayAfter(account.count, THROTTLE.freeAccount) : 0;
  // The address's delay holds only for accounts with failures of their own (see the header).
  if (account && account.count > 0 && address) until = Math.max(until, address.last + delayAfter(address.count, THROTTLE.freeAddress));
  return Math.max(0, until - now);
}

export interface AttemptStore {
  /** Atomically: the wait owed (nothing counted), or 0 once the attempt is counted on both keys. */
  reserve(account: string, address: string, now: number): Promise<number>;
  /** A successful attempt: its account's counter is cleared and its count taken off its address's. */
  refund(account: string, address: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryAttempts implements AttemptStore {
  private readonly m = new Map<string, Counter & { until: number }>();

  private live(key: string, now: number): Counter | undefined {
    const c = this.m.get(key);
    if (!c || c.until > now) return c;
    this.m.delete(key);
    return undefined;
  }

  // Nothing is awaited between reading and counting: this process's attempts take turns here.
  reserve(account: string, address: string, now: number): Promise<number> {
    const wait = owed(this.live(account, now), this.live(address, now), now);
    if (wait > 0) return Promise.resolve(wait);
    for (const key of [account, address]) {
      this.m.set(key, { count: (this.live(key, now)?.count ?? 0) + 1, last: now, until: now + THROTTLE.forgetMs });
    }
    if (this.m.size > 100_000) for (const [k, v] of this.m) if (v.until <= now) this.m.delete(k);
    return Promise.resolve(0);
  }

  refund(account: string, address: string): Promise<void> {
    this.m.delete(account);
    const c = this.m.get(address);
    if (c && --c.count <= 0) this.m.delete(address);
    return Promise.resolve();
  }

  async close(): Promise<void> {}
}

// KEYS: account, address. ARGV: now, forgetMs, freeAccount, freeAddress, firstDelayMs, maxDelayMs.
// The same rule as owed(); the tests run both stores through the same cases.
const RESERVE = `
local now = tonumber(ARGV[1])
local function counter(key)
  local v = redis.call('HMGET', key, 'count', 'last')
  return tonumber(v[1]) or 0, tonumber(v[2]) or 0
end
local function delay(count, free)
  if count < free then return 0 end
  return math.min(tonumber(ARGV[6]), tonumber(ARGV[5]) * 2 ^ math.min(30, count - free))
end
local ac, al = counter(KEYS[1])
local until_ = al + delay(ac, tonumber(ARGV[3]))
if ac > 0 then
  local ic, il = counter(KEYS[2])
  until_ = math.max(until_, il + delay(ic, tonumber(ARGV[4])))
end
if until_ > now then return math.ceil(until_ - now) end
for _, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'count', 1)
  redis.call('HSET', key, 'last', ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2])
end
return 0`;

const REFUND = `
redis.call('DEL', KEYS[1])
if redis.call('HINCRBY', KEYS[2], 'count', -1) <= 0 then redis.call('DEL', KEYS[2]) end
return 0`;

export class RedisAttempts implements AttemptStore {
  private readonly r: Redis;
  constructor(
    url: string,
    private readonly prefix = 'biomirror:signin:',
  ) {
    this.r = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.r.on('error', () => undefined);
  }

  async reserve(account: string, address: string, now: number): Promise<number> {
    const t = THROTTLE;
    const args = [now, t.forgetMs, t.freeAccount, t.freeAddress, t.firstDelayMs, t.maxDelayMs];
    return Number(await this.r.eval(RESERVE, 2, this.prefix + account, this.prefix + address, ...args));
  }

  async refund(account: string, address: string): Promise<void> {
    await this.r.eval(REFUND, 2, this.prefix + account, this.prefix + address);
  }

  async close(): Promise<void> {
    this.r.disconnect();
  }
}

/** An attempt that may not go ahead yet, or one counted as a failure until it `succeeded`. */
export type Attempt = { allowed: false; waitMs: number } | { allowed: true; succeeded(): Promise<void> };

export class SigninThrottle {
  constructor(
    private readonly store: AttemptStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts an attempt at `username` from `ip` before its password is checked, or says how long to wait. */
  async attempt(username: string, ip: string): Promise<Attempt> {
    const account = `account:${username.trim().toLowerCase()}`;
    const address = `ip:${ip}`;
    const waitMs = await this.store.reserve(account, address, this.clock());
    if (waitMs > 0) return { allowed: false, waitMs };
    return { allowed: true, succeeded: () => this.store.refund(account, address) };
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
