import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The RCSB's error format, shared by its Data API and Search API hosts: a JSON `{status, message}`
 * (the body of their unknown routes is `{"status":404,"message":"HTTP 404 Not Found"}`, seen on the
 * live services). Handlers throw these; the server writes them out unchanged.
 */
export function rcsbError(status: number, message: string, headers: Record<string, string> = {}): ServiceError {
  const e = new ServiceError(status, { status, message }, 'application/json', headers);
  // The message as the body gives it (a ServiceError with a JSON body is otherwise "HTTP <status>").
  e.message = message;
  return e;
}

/** The Data API's objects with no loaded document, and requests it refuses. */
export const dataErrors = {
  /** An id with no loaded document (unknown, malformed, obsolete or superseded). */
  notFound: (object: string, id: string): ServiceError => rcsbError(404, `No data found for ${object} with id: ${id}`),
  badRequest: (message: string): ServiceError => rcsbError(400, message),
} as const;

/** A search request the Search API refuses: a 400 naming what is wrong. */
export const badQuery = (message: string): ServiceError => rcsbError(400, message);

/**
 * An engine the search host drives is not installed here, or did not finish within its budget: a
 * 400 naming it, since retrying the same request would not help (a 503 invites retries).
 */
export const engineUnavailable = (message: string): ServiceError => rcsbError(400, message);

/**
 * An engine's index for the data served is not built yet in this process's index folder (data
 * loaded by an older version, or on another host): its build runs, and the same request will
 * succeed once it is done, so a 503 with Retry-After.
 */
export const indexNotReady = (message: string): ServiceError => rcsbError(503, message, { 'retry-after': '30' });

/** What both hosts answer for what the platform refuses. */
export const rcsbCatalogue: ErrorCatalogue = {
  routeNotFound: () => rcsbError(404, 'HTTP 404 Not Found'),
  methodNotAllowed: (method) => rcsbError(405, `HTTP 405 Method ${method} Not Allowed`),
  rateLimited: (seconds) => rcsbError(429, `Too many requests: retry after ${seconds} s`),
  badRequest: (message, status) => rcsbError(status, message),
  internal: (requestId) => rcsbError(500, `Internal error (request ${requestId})`),
  unavailable: (seconds) => rcsbError(503, `Service unavailable: retry after ${seconds} s`),
};
