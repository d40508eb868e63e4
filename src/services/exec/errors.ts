import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The service's one error shape, for every path: the execution response with success=false and
 * the explanation in stderr, so that a client reading execution responses reads its errors too.
 */
export function execError(status: number, message: string, command = '', headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, { success: false, returncode: -1, stdout: '', stderr: message, command }, 'application/json; charset=utf-8', headers);
}

export const execCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) => execError(404, `no such endpoint: ${method} ${path}`),
  methodNotAllowed: (method, path) => execError(405, `${method} is not allowed on ${path}`),
  rateLimited: (seconds) => execError(429, `too many requests; retry after ${seconds} s`, '', { 'Retry-After': String(seconds) }),
  badRequest: (message, status) => execError(status, `bad request: ${message}`),
  internal: (requestId) => execError(500, `internal error (request ${requestId})`),
  unavailable: (seconds) => execError(503, `the service is busy; retry after ${seconds} s`, '', { 'Retry-After': String(seconds) }),
};
