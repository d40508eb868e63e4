/**
 * PubChem's error catalogue. Every error is a `Fault` with PubChem's code, status and message
 * (`{"Fault": {"Code", "Message", "Details"}}`); requests for XML get it as XML (routes convert
 * it), PUG View answers with PUGVIEW codes. Clients (pubchempy) branch on the status and read
 * `Details[0]`.
 */
import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

export type FaultCode =
  | 'PUGREST.BadRequest'
  | 'PUGREST.NotFound'
  | 'PUGREST.NotAllowed'
  | 'PUGREST.ServerError'
  | 'PUGREST.Unimplemented'
  | 'PUGREST.ServerBusy'
  | 'PUGREST.Timeout'
  | 'PUGVIEW.BadRequest'
  | 'PUGVIEW.NotFound'
  | 'PUGVIEW.ServerError';

export interface FaultBody {
  Fault: { Code: FaultCode; Message: string; Details?: string[] };
}

export function fault(status: number, code: FaultCode, message: string, details?: string[], headers: Record<string, string> = {}): ServiceError {
  const body: FaultBody = { Fault: { Code: code, Message: message, ...(details?.length ? { Details: details } : {}) } };
  return new ServiceError(status, body, 'application/json', headers);
}

const bad = (message: string, detail?: string) => fault(400, 'PUGREST.BadRequest', message, detail ? [detail] : undefined);

export const pcErrors = {
  badRequest: bad,
  noIdentifier: (namespace: string) => bad('No input', `No ${namespace} was given in the URL path, the query string or a POST body`),
  badCid: (value: string, what = 'CID') => bad(`Invalid ${what} list`, `"${value}" is not a positive integer ${what}`),
  badStructure: (kind: string, value: string) =>
    bad(
      'Unable to standardize the given structure - perhaps some special characters need to be escaped or data packed in a MIME form?',
      `${kind} "${value.length > 200 ? value.slice(0, 200) + '...' : value}" could not be read`,
    ),
  /** A similarity query whose substructure keys cannot be had (computed, or loaded for its CID). */
  noKeys: (detail: string) => bad('Invalid search', detail),
  badProperty: (name: string) => bad('Invalid property', `"${name}" is not a compound property; see the PUG REST property table`),
  badOperation: (op: string, domain: string, allowed: readonly string[]) => bad('Invalid operation', `"${op}" is not an operation of the ${domain} domain; allowed: ${allowed.join(', ')}`),
  badNamespace: (ns: string, domain: string, allowed: readonly string[]) => bad('Invalid namespace', `"${ns}" is not an input namespace of the ${domain} domain; allowed: ${allowed.join(', ')}`),
  badDomain: (d: string) => bad('Invalid domain', `"${d}" is not a domain; allowed: compound, substance, assay`),
  badOutput: (output: string, op: string, allowed: readonly string[]) => bad('Invalid output format', `${output} is not available for ${op}; allowed: ${allowed.join(', ')}`),
  badOption: (name: string, value: string, allowed: string) => bad(`Invalid value for option ${name}`, `"${value}" is not valid for ${name}: ${allowed}`),
  notAllowed: (detail: string) => fault(405, 'PUGREST.NotAllowed', 'Request not allowed', [detail]),
  notFound: (message: string, detail?: string) => fault(404, 'PUGREST.NotFound', message, detail ? [detail] : undefined),
  noCid: (detail: string) => fault(404, 'PUGREST.NotFound', 'No CID found', [detail]),
  noRecords: (what = 'CID') => fault(404, 'PUGREST.NotFound', `No records found for the given ${what}(s)`),
  unimplemented: (what: string) => fault(501, 'PUGREST.Unimplemented', 'Operation not implemented', [`${what} is not served by this mirror`]),
  timeout: (detail: string) => fault(504, 'PUGREST.Timeout', 'Request timed out', [detail]),
  busy: (seconds: number, detail?: string) => fault(503, 'PUGREST.ServerBusy', 'Too many requests or server too busy', detail ? [detail] : undefined, { 'Retry-After': String(seconds) }),
  viewNotFound: (detail: string) => fault(404, 'PUGVIEW.NotFound', 'No data found', [detail]),
  viewBadRequest: (message: string, detail: string) => fault(400, 'PUGVIEW.BadRequest', message, [detail]),
} as const;

const VIEW = /\/rest\/pug_view\//;

const LIMIT_NAMES: Record<string, string> = {
  'per-second': 'The limit of requests per second',
  'per-minute': 'The limit of requests per minute',
  'running-time': 'The limit of running time per minute',
};

export const pcCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) =>
    ['GET', 'POST', 'HEAD'].includes(method)
      ? fault(404, VIEW.test(path) ? 'PUGVIEW.NotFound' : 'PUGREST.NotFound', 'No such resource', [`${method} ${path} is not a PUG REST or PUG View address`])
      : fault(405, 'PUGREST.NotAllowed', 'Request not allowed', [`${method} is not allowed; use GET or POST`]),
  methodNotAllowed: (method) => fault(405, 'PUGREST.NotAllowed', 'Request not allowed', [`${method} is not allowed; use GET or POST`]),
  rateLimited: (seconds, _path, refusal) =>
    fault(503, 'PUGREST.ServerBusy', 'Too many requests or server too busy', [
      `${LIMIT_NAMES[refusal?.rule?.name ?? ''] ?? 'A limit'} is reached (PubChem allows 5 requests per second, 400 per minute and 300 seconds of running time per minute per client); retry after ${seconds} s`,
    ]),
  // The platform asks for other statuses too (a service with nothing loaded, one still loading, an
  // upstream's failure under pull-through): each gets the PUG REST code PubChem uses for it.
  badRequest: (message, status) => {
    if (status === 405) return fault(405, 'PUGREST.NotAllowed', 'Request not allowed', [message]);
    if (status === 404) return fault(404, 'PUGREST.NotFound', 'No data found', [message]);
    if (status === 503) return fault(503, 'PUGREST.ServerBusy', 'Too many requests or server too busy', [message]);
    if (status === 504) return fault(504, 'PUGREST.Timeout', 'Request timed out', [message]);
    if (status >= 500) return fault(status, 'PUGREST.ServerError', 'Server error', [message]);
    return fault(400, 'PUGREST.BadRequest', 'Request is improperly formed', [message]);
  },
  internal: (requestId) => fault(500, 'PUGREST.ServerError', 'Server error', [`Request ${requestId} failed; the error is logged under this id`]),
};
