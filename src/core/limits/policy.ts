/** What a limit rule may look at to pick the budget a request draws from. */
export interface LimitSubject {
  ip: string;
  /** Path inside the service (without the mount prefix). */
  path: string;
  method: string;
  query: Record<string, unknown>;
  /** The parsed request body (form or JSON), when there is one: some keys travel there (api_key). */
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One budget: `limit` requests per `windowMs`, per key. A rule whose `key` returns null does not apply
 * to the request (e.g. the with-API-key budget for a request without one); a key may be looked up
 * (a user behind a token), hence the promise.
 *
 * With `unit: 'ms'` the budget is running time instead: `limit` milliseconds of handling per window
 * (PubChem's "300 seconds of running time per minute"). A request is refused while the budget is
 * spent, and charged its handling time once answered.
 *
 * With `unit: 'concurrent'` it is requests in flight: at most `limit` at once per key (the AlphaFold
 * DB's "at most 10 concurrent requests"); `windowMs` is then the longest a slot is held, so a
 * process that dies holding slots cannot keep them.
 */
export interface LimitRule {
  name: string;
  limit: number;
  windowMs: number;
  unit?: 'requests' | 'ms' | 'concurrent';
  key(subject: LimitSubject): string | null | Promise<string | null>;
}

export interface LimitDecision {
  allowed: boolean;
  /** When refused: how long until the request would be allowed. */
  retryAfterMs: number;
  /** The budget that refused it (its draw key), and its place among the draws. */
  rule?: string;
  ruleIndex?: number;
  /** How much of each budget drawn on is in use after this request (0..1), by draw order. */
  usage?: number[];
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
  /** Takes a slot of an in-flight budget if fewer than `limit` are held; the lease is given back with `release`. */
  acquire(key: string, limit: number, leaseMs: number): Promise<string | undefined>;
  release(key: string, lease: string): Promise<void>;
  /** Adds cost to budgets whatever their state (time already spent cannot be refused). */
  charge(draws: readonly Draw[]): Promise<void>;
  close(): Promise<void>;
}

export function gcra(tat: number | undefined, now: number, d: Draw): { next: number; wait: number; usage: number } {
  const interval = d.windowMs / d.limit;
  const base = tat === undefined || tat < now ? now : tat;
  const next = base + interval * d.cost;
  const allowAt = next - d.windowMs;
  // A draw of cost 0 only asks whether the budget is already spent.
  const wait = d.cost === 0 ? (base - d.windowMs > now ? base - d.windowMs - now : 0) : allowAt > now ? allowAt - now : 0;
  return { next, wait, usage: Math.min(1, Math.max(0, (next - now) / d.windowMs)) };
}
