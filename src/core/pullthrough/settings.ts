/**
 * Settings of pull-through (docs/pull-through.md): whether a miss is asked of the upstream, where
 * the upstream is, and how patiently. Kept answers are served whatever `enabled` says: without it
 * the server is offline (kept answers and loaded data only).
 */
export interface PullThroughSettings {
  /** Ask the real service on a miss (`serve --pull-through`). */
  enabled: boolean;
  /**
   * Another biomirror's base URL (its shared port) standing for every real host (`--upstream URL`),
   * so that biomirrors chain: a request goes there with the same path it has here.
   */
  upstream?: string | undefined;
  /** Longest wait for one upstream answer (`--upstream-timeout`). */
  timeoutMs: number;
  /** Further tries after a 429 or 503. */
  retries: number;
  /** Longest wait for a turn in a host's queue; a request further back is answered 503 at once. */
  maxQueueWaitMs: number;
  /** A Retry-After longer than this is not waited for: the client gets the 503 at once. */
  maxRetryWaitMs: number;
  /** The user's NCBI API key: sent to the NCBI hosts (10 requests/s instead of 3), never part of a key. */
  ncbiApiKey?: string | undefined;
  /** Sent to E-utilities as `email`, as NCBI asks of programs. */
  ncbiEmail?: string | undefined;
  /** Answers larger than this are passed on as they arrive, neither held whole nor kept. */
  maxKeptBytes: number;
  /** Requests per second toward a real host (by host name), replacing the built-in rate. */
  rates?: Record<string, number> | undefined;
}

export const PULL_THROUGH_DEFAULTS: PullThroughSettings = {
  enabled: false,
  timeoutMs: 30_000,
  retries: 2,
  maxRetryWaitMs: 10_000,
  // 50 waiting requests at ClinicalTrials.gov's pace.
  maxQueueWaitMs: 60_000,
  // The store holds a kept body whole in one row.
  maxKeptBytes: 32 * 1024 * 1024,
};

/** A kept "not found" older than this is asked again when pull-through is on (offline serves it). */
export const NOT_FOUND_TTL_MS = 24 * 60 * 60 * 1000;
