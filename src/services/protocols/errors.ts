import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The protocol service's errors: JSON with `status_code` and `error_message`, as the upstream's
 * documentation shows. Codes 1 (missing or wrong parameter), 1219 (token is expired) and 1302
 * (wrong order field) are the upstream's; the others are this service's own (see
 * docs/compatibility.md). OAuth token errors add RFC 6749's `error` and `error_description`.
 */
export const CODES = {
  parameter: 1,
  noToken: 1201,
  badToken: 1202,
  forbidden: 1203,
  expired: 1219,
  orderField: 1302,
  notFound: 1404,
  rateLimited: 1429,
  internal: 1500,
} as const;

const JSON_TYPE = 'application/json; charset=utf-8';

function err(status: number, code: number, message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, { status_code: code, error_message: message }, JSON_TYPE, headers);
}

const bearer = (attrs: string) => ({ 'WWW-Authenticate': `Bearer realm="protocols"${attrs}` });

export const protoErrors = {
  missingParameter(name: string, allowed?: string): ServiceError {
    return err(400, CODES.parameter, `Missing or empty parameter "${name}"${allowed ? `: ${allowed}` : ''}`);
  },
  invalidParameter(name: string, value: string, allowed: string): ServiceError {
    return err(400, CODES.parameter, `Invalid value "${value.slice(0, 200)}" for parameter "${name}": ${allowed}`);
  },
  wrongOrderField(value: string): ServiceError {
    return err(400, CODES.orderField, `Wrong order field "${value.slice(0, 200)}": must be activity, date, name or id`);
  },
  invalidBody(detail: string): ServiceError {
    return err(400, CODES.parameter, `Invalid request body: ${detail}`);
  },
  noToken(): ServiceError {
    return err(401, CODES.noToken, 'access token is missing: send the header "Authorization: Bearer <access token>"', bearer(''));
  },
  badToken(): ServiceError {
    return err(401, CODES.badToken, 'access token is invalid or was revoked', bearer(', error="invalid_token"'));
  },
  expiredToken(): ServiceError {
    return err(401, CODES.expired, 'token is expired', bearer(', error="invalid_token", error_description="token is expired"'));
  },
  insufficientScope(): ServiceError {
    return err(403, CODES.forbidden, 'this token may only read: changes need a token of scope readwrite', bearer(', error="insufficient_scope", scope="readwrite"'));
  },
  notOwner(): ServiceError {
    return err(403, CODES.forbidden, "only the protocol's owner may change it, with a token of their own");
  },
  protocolNotFound(id: string): ServiceError {
    return err(404, CODES.notFound, `Protocol not found: ${id.slice(0, 300)}`);
  },
  clientNotFound(id: string): ServiceError {
    return err(404, CODES.notFound, `Client not found: ${id.slice(0, 300)}`);
  },
  alreadyPublished(id: number): ServiceError {
    return err(400, CODES.parameter, `Protocol ${id} is already published`);
  },
} as const;

/** RFC 6749 section 5.2 error codes of the token endpoint, each with a code of this service. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

const OAUTH_CODES: Record<OAuthErrorCode, number> = {
  invalid_request: CODES.parameter,
  invalid_client: 1211,
  invalid_grant: 1212,
  unauthorized_client: 1213,
  unsupported_grant_type: 1214,
  invalid_scope: 1215,
};

/** A token endpoint error: 401 with a Basic challenge for a client that failed to authenticate, else 400. */
export function oauthError(error: OAuthErrorCode, description: string): ServiceError {
  const status = error === 'invalid_client' ? 401 : 400;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (error === 'invalid_client') headers['WWW-Authenticate'] = 'Basic realm="protocols"';
  return new ServiceError(status, { error, error_description: description, status_code: OAUTH_CODES[error], error_message: description }, JSON_TYPE, headers);
}

export const protoCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) => err(404, CODES.notFound, `No such endpoint: ${method} ${path.slice(0, 300)}`),
  rateLimited: (seconds) => err(429, CODES.rateLimited, `Too many requests: the limit is 100 requests per minute per user (PDF: 5 per minute signed in, 3 without a token); retry after ${seconds} s`),
  badRequest: (message, status) => err(status, CODES.parameter, message),
  internal: (requestId) => err(500, CODES.internal, `Internal server error (request ${requestId})`),
};
