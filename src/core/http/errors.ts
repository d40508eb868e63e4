import type { LimitRule, LimitSubject } from '../limits/policy.js';

/**
 * An answer in a service's own error format. Handlers throw these (through their service's
 * catalogue); the server writes them out unchanged, so clients see the upstream's status and body.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly body: string | Buffer | object,
    readonly contentType: string = 'application/json; charset=utf-8',
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof body === 'string' ? body : `HTTP ${status}`);
  }
}

/**
 * The errors the platform itself raises for a service, in that service's format. `path` is the
 * path the client asked for (without the query string), for formats that name it.
 */
export interface ErrorCatalogue {
  routeNotFound(method: string, path: string): ServiceError;
  methodNotAllowed?(method: string, path: string): ServiceError;
  /** `refusal`: the rule that refused the request and what it was keyed on (the upstream's body may name them). */
  rateLimited(retryAfterSeconds: number, path: string, refusal: { rule: LimitRule | undefined; subject: LimitSubject }): ServiceError;
  /** A request the framework could not read (malformed body, unsupported content type). */
  badRequest(message: string, status: number, path: string): ServiceError;
  /** An unexpected failure; the message never carries internals, only the request id. */
  internal(requestId: string, path: string): ServiceError;
  /** The upstream's own 503 (service busy or down), where it has one; faults on demand send it. */
  unavailable?(retryAfterSeconds: number, path: string): ServiceError;
}
