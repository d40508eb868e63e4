import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The Data API's errors: a JSON `{status, message}` (the body of its unknown routes is
 * `{"status":404,"message":"HTTP 404 Not Found"}`, seen on the live service). Handlers throw
 * `PdbProblem`s; the routes answer them in this envelope.
 */
export function dataError(status: number, message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, { status, message }, 'application/json', headers);
}

export class PdbProblem extends Error {
  override readonly name = 'PdbProblem';
  constructor(
    readonly status: 400 | 404 | 413,
    message: string,
  ) {
    super(message);
  }
}

export const pdbErrors = {
  /** An id with no loaded document (unknown, malformed, obsolete or superseded). */
  notFound(object: string, id: string): PdbProblem {
    return new PdbProblem(404, `No data found for ${object} with id: ${id}`);
  },
  badRequest(message: string): PdbProblem {
    return new PdbProblem(400, message);
  },
} as const;

export const dataCatalogue: ErrorCatalogue = {
  routeNotFound: () => dataError(404, 'HTTP 404 Not Found'),
  methodNotAllowed: (method) => dataError(405, `HTTP 405 Method ${method} Not Allowed`),
  rateLimited: (seconds) => dataError(429, `Too many requests: retry after ${seconds} s`),
  badRequest: (message, status) => dataError(status, message),
  internal: (requestId) => dataError(500, `Internal error (request ${requestId})`),
  unavailable: (seconds) => dataError(503, `Service unavailable: retry after ${seconds} s`),
};
