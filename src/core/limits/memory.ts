import type { Draw, LimitDecision, LimitStore } from './policy.js';
import { gcra } from './policy.js';

/** Budgets of one process. */
export class MemoryLimitStore implements LimitStore {
  private readonly tats = new Map<string, number>();
  private readonly slots = new Map<string, Map<string, number>>();
  private seq = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: () => number = Date.now) {
    // Keys whose time has passed hold no information; drop them so memory follows active clients.
    this.sweeper = setInterval(() => {
      const now = this.clock();
      for (const [k, t] of this.tats) if (t < now) this.tats.delete(k);
    }, 30_000);
    this.sweeper.unref();
  }

  async take(draws: readonly Draw[]): Promise<LimitDecision> {
    const now = this.clock();
    const nexts: number[] = [];
    const usage: number[] = [];
    let wait = 0;
    let worst = -1;
    draws.forEach((d, i) => {
      const r = gcra(this.tats.get(d.key), now, d);
      nexts.push(r.next);
      usage.push(r.usage);
      if (r.wait > wait) {
        wait = r.wait;
        worst = i;
      }
    });
    if (wait > 0) return { allowed: false, retryAfterMs: wait, usage, rule: draws[worst]?.key as string, ruleIndex: worst };
    draws.forEach((d, i) => this.tats.set(d.key, nexts[i] as number));
    return { allowed: true, retryAfterMs: 0, usage };
  }

  async charge(draws: readonly Draw[]): Promise<void> {
    const now = this.clock();
    for (const d of draws) this.tats.set(d.key, gcra(this.tats.get(d.key), now, d).next);
  }

  async acquire(key: string, limit: number, leaseMs: number): Promise<string | undefined> {
    const now = this.clock();
    let held = this.slots.get(key);
    if (!held) this.slots.set(key, (held = new Map()));
    for (const [lease, until] of held) if (until <= now) held.delete(lease);
    if (held.size >= limit) return undefined;
    const lease = String(++this.seq);
    held.set(lease, now + leaseMs);
    return lease;
  }

  async release(key: string, lease: string): Promise<void> {
    const held = this.slots.get(key);
    held?.delete(lease);
    if (held?.size === 0) this.slots.delete(key);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
