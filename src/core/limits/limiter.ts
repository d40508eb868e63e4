import type { Draw, LimitDecision, LimitRule, LimitStore, LimitSubject } from './policy.js';

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
export function configureRules(
  defaults: readonly LimitRule[],
  config: 'on' | 'off' | Record<string, RuleOverride> | undefined,
  globallyOn: boolean,
): LimitSettings {
  if (!globallyOn || config === 'off') return { enabled: false, rules: defaults };
  if (!config || config === 'on') return { enabled: true, rules: defaults };
  const rules = defaults.map((r) => {
    const o = config[r.name];
    if (!o) return r;
    return { ...r, limit: o.limit ?? r.limit, windowMs: o.windowSeconds !== undefined ? o.windowSeconds * 1000 : r.windowMs };
  });
  return { enabled: true, rules };
}

/** Checks one request of one service against its rules. */
export class Limiter {
  constructor(
    private readonly service: string,
    private readonly settings: LimitSettings,
    private readonly store: LimitStore,
  ) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  draws(subject: LimitSubject, cost = 1): Draw[] {
    const out: Draw[] = [];
    for (const r of this.settings.rules) {
      const k = r.key(subject);
      if (k === null) continue;
      out.push({ key: `${this.service}:${r.name}:${k}`, limit: r.limit, windowMs: r.windowMs, cost });
    }
    return out;
  }

  async check(subject: LimitSubject): Promise<LimitDecision> {
    if (!this.settings.enabled) return { allowed: true, retryAfterMs: 0 };
    return this.store.take(this.draws(subject));
  }
}

export const perIp =
  (name: string, limit: number, windowMs: number): LimitRule => ({ name, limit, windowMs, key: (s) => `ip:${s.ip}` });
