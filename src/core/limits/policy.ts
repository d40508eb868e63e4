/** What a limit rule may look at to pick the budget a request draws from. */
export interface LimitSubject {
  ip: string;
  /** Path inside the service (without the mount prefix). */
  path: string;
  method: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One budget: `limit` requests per `windowMs`, per key. A rule whose `key` returns null does not apply
 * to the request (e.g. the with-API-key budget for a request without one).
 */
export interface LimitRule {
  name: string;
  limit: number;
  windowMs: number;
  key(subject: LimitSubject): string | null;
}

export interface LimitDecision {
  allowed: boolean;
  /** When refused: how long until the request would be allowed. */
  retryAfterMs: number;
  /** The rule that refused it. */
  rule?: string;
}

/** One draw against one budget; cost is 1 for a request. */
export interface Draw {
  key: string;
  limit: number;
  windowMs: number;
  cost: number;
}

/**
 * Budgets are kept with GCRA (the generic cell rate algorithm): per key one timestamp, the
 * "theoretical arrival time". It allows a burst of `limit` and then one request every
 * `windowMs / limit`, and gives an exact Retry-After. All draws of a request are checked together
 * and taken only if every one is allowed.
 */
export interface LimitStore {
  take(draws: readonly Draw[]): Promise<LimitDecision>;
  close(): Promise<void>;
}

export function gcra(tat: number | undefined, now: number, d: Draw): { next: number; wait: number } {
  const interval = d.windowMs / d.limit;
  const base = tat === undefined || tat < now ? now : tat;
  const next = base + interval * d.cost;
  const allowAt = next - d.windowMs;
  return { next, wait: allowAt > now ? allowAt - now : 0 };
}
