import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Draw, LimitDecision, LimitStore } from './policy.js';

// The same GCRA as the memory store, atomic in Redis and on Redis's clock, so every process that
// shares the server shares the budgets. Returns 0 when allowed, else the wait in ms and the key index.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = #KEYS
local nexts = {}
local usage = {}
local wait = 0
local worst = 0
for i = 1, n do
  local window = tonumber(ARGV[(i - 1) * 3 + 1])
  local limit = tonumber(ARGV[(i - 1) * 3 + 2])
  local cost = tonumber(ARGV[(i - 1) * 3 + 3])
  local interval = window / limit
  local tat = tonumber(redis.call('GET', KEYS[i]))
  if tat == nil or tat < now then tat = now end
  local nxt = tat + interval * cost
  local allow_at = nxt - window
  if cost == 0 then allow_at = tat - window end
  if allow_at > now and allow_at - now > wait then
    wait = allow_at - now
    worst = i
  end
  nexts[i] = nxt
  usage[i] = math.floor(math.min(1, (nxt - now) / window) * 1000)
end
if wait > 0 then return {math.ceil(wait), worst, usage} end
for i = 1, n do
  if nexts[i] > now then
    redis.call('SET', KEYS[i], tostring(nexts[i]), 'PX', math.ceil(nexts[i] - now) + 1000)
  end
end
return {0, 0, usage}
`;

// Adds cost to budgets unconditionally (running time already spent).
const CHARGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  local window = tonumber(ARGV[(i - 1) * 3 + 1])
  local limit = tonumber(ARGV[(i - 1) * 3 + 2])
  local cost = tonumber(ARGV[(i - 1) * 3 + 3])
  local tat = tonumber(redis.call('GET', KEYS[i]))
  if tat == nil or tat < now then tat = now end
  local nxt = tat + (window / limit) * cost
  redis.call('SET', KEYS[i], tostring(nxt), 'PX', math.ceil(nxt - now) + 1000)
end
return 0
`;

// A slot of an in-flight budget: a sorted set of leases scored by when they lapse.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
return 1
`;

export class RedisLimitStore implements LimitStore {
  private readonly redis: Redis;
  private warnedAt = 0;

  constructor(
    url: string,
    private readonly prefix = 'biomirror:limit:',
    private readonly warn: (msg: string) => void = () => undefined,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    this.redis.on('error', (err: Error) => this.complain(`redis: ${err.message}`));
    this.redis.defineCommand('bmTake', { lua: SCRIPT });
    this.redis.defineCommand('bmCharge', { lua: CHARGE });
    this.redis.defineCommand('bmAcquire', { lua: ACQUIRE });
  }

  private complain(msg: string): void {
    if (Date.now() - this.warnedAt > 30_000) {
      this.warnedAt = Date.now();
      this.warn(msg);
    }
  }

  async ready(): Promise<void> {
    await this.redis.ping();
  }

  async take(draws: readonly Draw[]): Promise<LimitDecision> {
    if (draws.length === 0) return { allowed: true, retryAfterMs: 0 };
    const keys = draws.map((d) => this.prefix + d.key);
    const args = draws.flatMap((d) => [d.windowMs, d.limit, d.cost]);
    try {
      const cmd = (this.redis as unknown as { bmTake(n: number, ...a: (string | number)[]): Promise<[number, number, number[]]> }).bmTake;
      const [wait, worst, permille] = await cmd.call(this.redis, keys.length, ...keys, ...args);
      const usage = permille.map((u) => u / 1000);
      if (wait > 0) {
        return { allowed: false, retryAfterMs: wait, usage, rule: draws[worst - 1]?.key as string, ruleIndex: worst - 1 };
      }
      return { allowed: true, retryAfterMs: 0, usage };
    } catch (err) {
      // A rate limiter that is down must not take the mirror down with it: allow, and say so in the log.
      this.complain(`rate limits not enforced, redis unavailable: ${(err as Error).message}`);
      return { allowed: true, retryAfterMs: 0 };
    }
  }

  async charge(draws: readonly Draw[]): Promise<void> {
    if (draws.length === 0) return;
    try {
      const cmd = (this.redis as unknown as { bmCharge(n: number, ...a: (string | number)[]): Promise<number> }).bmCharge;
      await cmd.call(this.redis, draws.length, ...draws.map((d) => this.prefix + d.key), ...draws.flatMap((d) => [d.windowMs, d.limit, d.cost]));
    } catch (err) {
      this.complain(`rate limits not enforced, redis unavailable: ${(err as Error).message}`);
    }
  }

  async acquire(key: string, limit: number, leaseMs: number): Promise<string | undefined> {
    const lease = `${process.pid}:${randomUUID()}`;
    try {
      const cmd = (this.redis as unknown as { bmAcquire(n: number, ...a: (string | number)[]): Promise<number> }).bmAcquire;
      return (await cmd.call(this.redis, 1, this.prefix + key, limit, leaseMs, lease)) === 1 ? lease : undefined;
    } catch (err) {
      this.complain(`rate limits not enforced, redis unavailable: ${(err as Error).message}`);
      return lease;
    }
  }

  async release(key: string, lease: string): Promise<void> {
    await this.redis.zrem(this.prefix + key, lease).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
