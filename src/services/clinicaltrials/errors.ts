import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * ClinicalTrials.gov errors. The spec's body is `{"error": {"code", "message"}}` (the live service
 * answers text/plain; see docs/compatibility.md). Messages name the parameter and what it allows.
 */
function err(code: number, message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(code, { error: { code, message } }, 'application/json; charset=utf-8', headers);
}

export const ctErrors = {
  invalidParameter(name: string, value: string, allowed: string): ServiceError {
    return err(400, `Invalid value "${value}" for parameter "${name}": ${allowed}`);
  },
  invalidQuery(name: string, detail: string): ServiceError {
    return err(400, `Invalid value for parameter "${name}": ${detail}`);
  },
  unsupportedParameter(name: string, detail: string): ServiceError {
    return err(400, `Parameter "${name}" is not supported: ${detail}`);
  },
  badPageToken(detail: string): ServiceError {
    return err(400, `Invalid value for parameter "pageToken": ${detail}`);
  },
  invalidNctId(value: string): ServiceError {
    return err(400, `Invalid NCT number "${value}": expected NCT followed by up to 8 digits, e.g. NCT04852770`);
  },
  studyNotFound(nctId: string): ServiceError {
    return err(404, `Study ${nctId} not found`);
  },
} as const;

export const ctCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) => err(404, `No such endpoint: ${method} ${path}`),
  rateLimited: (seconds) => err(429, `Too many requests: the limit is about 50 requests per minute per IP address; retry after ${seconds} s`),
  badRequest: (message, status) => err(status, message),
  internal: (requestId) => err(500, `Internal server error (request ${requestId})`),
};
