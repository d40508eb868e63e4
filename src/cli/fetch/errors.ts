/** The command line was wrong (unknown service or dataset, a bad option): exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The upstream could not give what was asked (unreachable, an error status, a cut or damaged
 * download): exit status 1. Nothing is loaded; what was downloaded so far is kept to resume from.
 */
export class FetchError extends Error {
  override readonly name: string = 'FetchError';
}

/** A download whose checksum differs from the one the upstream publishes: it is removed, not loaded. */
export class ChecksumError extends FetchError {
  override readonly name = 'ChecksumError';
}

/** Worth trying again after a pause: a dropped connection, a 5xx, a 429. */
export class RetryableError extends FetchError {
  override readonly name = 'RetryableError';
  constructor(
    message: string,
    /** What the upstream asked for (Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
