import { ServiceError, type ErrorCatalogue } from '../../../core/http/errors.js';

/**
 * The Search API's errors: a JSON `{status, message}`, the envelope the RCSB's search host shares
 * with its data host (unknown paths answer `{"status":404,"message":"HTTP 404 Not Found"}`).
 * Handlers throw `SearchProblem`s; the routes answer them in this envelope.
 */
export function searchError(status: number, message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, { status, message }, 'application/json', headers);
}

export class SearchProblem extends Error {
  override readonly name = 'SearchProblem';
  constructor(
    readonly status: 400 | 404 | 413 | 503,
    message: string,
    /** Seconds a client should wait before it asks again (a 503's Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export const bad = (message: string): SearchProblem => new SearchProblem(400, message);
/**
 * An engine this host drives is not installed here, or did not finish within its budget: a 400
 * naming it, since retrying the same request would not help (a 503 invites retries).
 */
export const engineUnavailable = (message: string): SearchProblem => new SearchProblem(400, message);

/**
 * An engine's index for the data served is not built yet in this process's index folder (data
 * loaded by an older version, or on another host): its build runs, and the same request will
 * succeed once it is done, so a 503 with Retry-After.
 */
export const indexNotReady = (message: string): SearchProblem => new SearchProblem(503, message, 30);

export const searchCatalogue: ErrorCatalogue = {
  routeNotFound: () => searchError(404, 'HTTP 404 Not Found'),
  methodNotAllowed: (method) => searchError(405, `HTTP 405 Method ${method} Not Allowed`),
  rateLimited: (seconds) => searchError(429, `Too many requests: retry after ${seconds} s`),
  badRequest: (message, status) => searchError(status, message),
  internal: (requestId) => searchError(500, `Internal error (request ${requestId})`),
  unavailable: (seconds) => searchError(503, `Service unavailable: retry after ${seconds} s`),
};
