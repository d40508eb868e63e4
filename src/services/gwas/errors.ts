import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The GWAS service's errors, for both interfaces. The spec gives one body for the service: Spring
 * Boot's `{timestamp, status, error, message, path}` (the catalog's real answers carry it; the
 * timestamp is a string here, as the spec says). Handlers throw `GwasProblem`s, which know no path;
 * the routes turn them into answers with the path the client asked for.
 */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export function springError(status: number, message: string, path: string, headers: Record<string, string> = {}): ServiceError {
  const body = { timestamp: new Date().toISOString(), status, error: REASONS[status] ?? 'Error', message, path };
  return new ServiceError(status, body, 'application/json;charset=UTF-8', headers);
}

/** A refusal raised below the routes (parameter checks, lookups), answered with the request's path. */
export class GwasProblem extends Error {
  override readonly name = 'GwasProblem';
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export const gwasErrors = {
  badParameter(name: string, value: string, expected: string): GwasProblem {
    return new GwasProblem(400, `Invalid value '${value}' for parameter '${name}': ${expected}`);
  },
  missingParameter(name: string, expected: string): GwasProblem {
    return new GwasProblem(400, `Required parameter '${name}' is not present: ${expected}`);
  },
  badRequest(message: string): GwasProblem {
    return new GwasProblem(400, message);
  },
  notFound(what: string): GwasProblem {
    return new GwasProblem(404, `${what} not found`);
  },
} as const;

export const gwasCatalogue: ErrorCatalogue = {
  routeNotFound: (_method, path) => springError(404, 'No message available', path),
  rateLimited: (seconds, path) => springError(429, `Too many requests; retry after ${seconds} s`, path),
  badRequest: (message, status, path) => springError(status, message, path),
  internal: (requestId, path) => springError(500, `Internal error (request ${requestId})`, path),
};
