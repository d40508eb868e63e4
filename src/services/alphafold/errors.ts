import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The AlphaFold DB's errors. Its API is FastAPI: errors are `{"detail": "..."}`, and a path
 * parameter that fails validation is a 422 with FastAPI's list of problems. The file host answers
 * the same body for a file that does not exist.
 */
const JSON_TYPE = 'application/json';

export function detail(status: number, message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, { detail: message }, JSON_TYPE, headers);
}

/** FastAPI's (pydantic 2) validation body for one bad path parameter. */
export function invalidParameter(name: string, input: string, pattern: string, message: string): ServiceError {
  return new ServiceError(422, { detail: [{ type: 'string_pattern_mismatch', loc: ['path', name], msg: message, input, ctx: { pattern } }] }, JSON_TYPE);
}

export const afErrors = {
  notFound: () => detail(404, 'Not Found'),
  unavailable: (seconds: number) => detail(503, 'Service Unavailable', { 'Retry-After': String(seconds) }),
} as const;

export const alphafoldCatalogue: ErrorCatalogue = {
  routeNotFound: () => detail(404, 'Not Found'),
  methodNotAllowed: () => detail(405, 'Method Not Allowed'),
  rateLimited: (seconds) => detail(429, 'Too Many Requests', { 'Retry-After': String(seconds) }),
  badRequest: (message, status) => detail(status, message),
  internal: (requestId) => detail(500, `Internal Server Error (request ${requestId})`),
  unavailable: (seconds) => afErrors.unavailable(seconds),
};
