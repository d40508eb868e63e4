/**
 * E-utilities errors. The real service answers most mistakes with HTTP 200 and an `ERROR` element
 * (or a JSON `error`) in the envelope of the utility called; malformed queries and parameters get
 * 400, the rate limit 429 with its JSON body. Unknown paths and framework failures answer JSON.
 */
import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

export const XML_TYPE = 'text/xml; charset=UTF-8';
export const JSON_TYPE = 'application/json; charset=UTF-8';
export const TEXT_TYPE = 'text/plain; charset=UTF-8';

/** The api_key of a request, from its query string or its form body. */
export function apiKeyOf(subject: { query: Record<string, unknown>; body: Record<string, unknown> }): string | undefined {
  for (const source of [subject.query, subject.body]) {
    const k = source.api_key;
    const v = Array.isArray(k) ? k[0] : k;
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return undefined;
}

function json(status: number, body: object, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, JSON.stringify(body), JSON_TYPE, headers);
}

export const eutilsCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) =>
    json(404, { error: `No such E-utility: ${method} ${path}; the utilities are esearch.fcgi, esummary.fcgi, efetch.fcgi, elink.fcgi, einfo.fcgi, epost.fcgi, espell.fcgi and egquery.fcgi` }),
  methodNotAllowed: (method, path) => json(405, { error: `${method} is not supported on ${path}; use GET or POST` }),
  // The real body: {"error":"API rate limit exceeded","api-key":...,"count":...,"limit":...}; the
  // "api-key" member names what was counted, the key or, without one, the client's address.
  rateLimited: (_seconds, _path, { rule, subject }) => {
    const limit = rule?.limit ?? 3;
    const key = apiKeyOf(subject) ?? subject.ip;
    return json(429, { error: 'API rate limit exceeded', 'api-key': key, count: String(limit + 1), limit: String(limit) });
  },
  badRequest: (message, status) => json(status, { error: message }),
  internal: (requestId) => json(500, { error: `Internal server error (request ${requestId}); retry with backoff` }),
};

/** An error answer in the envelope of the utility and format asked for. */
export function envelopeError(status: number, body: string, contentType: string): ServiceError {
  return new ServiceError(status, body, contentType, { 'Access-Control-Allow-Origin': '*' });
}
