import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';
import { render, type Format } from './render.js';

/**
 * The preprint service's errors. The spec gives its statuses (200, 404, 500) and says clients read
 * `messages[0].status` on every response, without showing an error body; so every error is the
 * usual envelope, empty collection, with the reason in `status`. A request the service cannot
 * answer (a malformed date, an unknown category, a bad cursor) is a 404: the spec lists no 400.
 */
function envelope(status: number, reason: string, format: Format = 'json'): ServiceError {
  const { body, type } = render(format, { status: reason }, [], '');
  return new ServiceError(status, body, type);
}

export const bxErrors = {
  /** A path or parameter the service cannot answer; `reason` names the part and what is allowed. */
  invalid(reason: string, format: Format = 'json'): ServiceError {
    return envelope(404, reason, format);
  },
  /** A full-text file that was not loaded. The site answers plain text, not the API's envelope. */
  fileNotFound(what: string): ServiceError {
    return new ServiceError(404, `Not found: ${what}\n`, 'text/plain; charset=utf-8');
  },
} as const;

export const bxCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) => envelope(404, `no such endpoint: ${method} ${path}; the API serves /details/biorxiv/... and /pubs/biorxiv/..., full text is under /content/`),
  rateLimited: (seconds) => envelope(429, `too many requests; retry after ${seconds} s`),
  badRequest: (message) => envelope(404, `the request could not be read: ${message}`),
  internal: (requestId) => envelope(500, `internal error (request ${requestId})`),
};
