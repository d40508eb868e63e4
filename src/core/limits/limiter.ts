import type { Draw, LimitDecision, LimitRule, LimitStore, LimitSubject } from './policy.js';

export interface Lease {
  key: string;
  lease: string;
}

/** A service's rules as configured: the defaults from the spec, possibly overridden or switched off. */
export interface LimitSettings {
  enabled: boolean;
  rules: readonly LimitRule[];
}

export interface RuleOverride {
  limit?: number;
  windowSeconds?: number;
}

/** Applies a configuration to a service's default rules: `off`, or new numbers for named rules. */
export function configureRules(defaults: readonly LimitRule[], config: 'on' | 'off' | Record<string, RuleOverride> | undefined, globallyOn: boolean): LimitSettings {
  // The master switch is the default; a service's own setting ("on", "off" or its rules) wins.
  if (config === 'off' || (config === undefined && !globallyOn)) return { enabled: false, rules: defaults };
  if (!config || config === 'on') return { enabled: true, rules: defaults };
  const rules = defaults.map((r) => {
    const o = config[r.name];
    if (!o) return r;
    return { ...r, limit: o.limit ?? r.limit, windowMs: o.windowSeconds !== undefined ? o.windowSeconds * 1000 : r.windowMs };
  });
  return { enabled: true, rules };
}

/** Checks one request of one service against its rules, and charges running-time budgets after it. */
export class Limiter {
  constructor(
    private readonly service: string,
    private readonly settings: LimitSettings,
    private readonly store: LimitStore,
  ) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  get rules(): readonly LimitRule[] {
    return this.settings.rules;
  }

  /** The budgets a request draws on: requests cost 1, running-time budgets are only checked here. */
  async draws(subject: LimitSubject): Promise<{ draws: Draw[]; rules: LimitRule[] }> {
    const draws: Draw[] = [];
    const rules: LimitRule[] = [];
    for (const r of this.settings.rules) {
      if (r.unit === 'concurrent') continue;
      const k = await r.key(subject);
      if (k === null) continue;
      draws.push({ key: `${this.service}:${r.name}:${k}`, limit: r.limit, windowMs: r.windowMs, cost: r.unit === 'ms' ? 0 : 1 });
      rules.push(r);
    }
    return { draws, rules };
  }

  async check(subject: LimitSubject): Promise<LimitDecision & { draws: Draw[]; rules: LimitRule[]; leases: Lease[] }> {
    if (!this.settings.enabled) return { allowed: true, retryAfterMs: 0, draws: [], rules: [], leases: [] };
    const d = await this.draws(subject);
    const decision = await this.store.take(d.draws);
    if (!decision.allowed) return { ...decision, ...d, leases: [] };
    // In-flight budgets last: a request refused by a rate does not hold a slot.
    const leases: Lease[] = [];
    for (const r of this.settings.rules) {
      if (r.unit !== 'concurrent') continue;
      const k = await r.key(subject);
      if (k === null) continue;
      const key = `${this.service}:${r.name}:${k}`;
      const lease = await this.store.acquire(key, r.limit, r.windowMs);
      if (lease === undefined) {
        await this.release(leases);
        // A slot frees when a request in flight ends: a second is a fair time to come back.
        return { ...decision, allowed: false, retryAfterMs: 1000, rule: key, ...d, leases: [] };
      }
      leases.push({ key, lease });
    }
    return { ...decision, ...d, leases };
  }

  /** Gives back the in-flight slots of an answered (or abandoned) request. */
  async release(leases: readonly Lease[]): Promise<void> {
    for (const l of leases) await this.store.release(l.key, l.lease);
  }

  /** Charges the running time of an answered request to its running-time budgets. */
  async charge(draws: readonly Draw[], rules: readonly LimitRule[], elapsedMs: number): Promise<void> {
    const timed = draws.filter((_, i) => rules[i]?.unit === 'ms').map((d) => ({ ...d, cost: Math.max(1, Math.round(elapsedMs)) }));
    if (timed.length) await this.store.charge(timed);
  }
}

export const perIp = (name: string, limit: number, windowMs: number): LimitRule => ({ name, limit, windowMs, key: (s) => `ip:${s.ip}` });
