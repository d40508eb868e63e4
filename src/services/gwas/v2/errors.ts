/**
 * API v2's errors. Its OpenAPI document gives the body as `error_code`, `error`, `error_message`,
 * `service_path`, `timestamp`; the service's own exception handler writes the same members in
 * camelCase (`errorCode`, `errorMessage`, `servicePath`), since its error class carries no JSON
 * names. Both sets are sent, so a client written against either reads its own (see the
 * compatibility notes). Messages are the service's: `Studies with Accession Id: GCST0 not found`.
 */
import { ServiceError } from '../../../core/http/errors.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const V2_JSON = 'application/json';

/** The service's timestamp: local date and time to the second, no zone (here UTC). */
function timestamp(): string {
  return new Date().toISOString().slice(0, 19);
}

function v2Body(status: number, message: string, servicePath: string): Record<string, unknown> {
  const error = REASONS[status] ?? 'Error';
  return {
    error_code: status,
    error,
    error_message: message,
    service_path: servicePath,
    timestamp: timestamp(),
    errorCode: status,
    errorMessage: message,
    servicePath,
  };
}

export function v2Error(status: number, message: string, servicePath: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, v2Body(status, message, servicePath), V2_JSON, headers);
}

/** A refusal raised below the routes; the routes answer it with the URL the client asked for. */
export class V2Problem extends Error {
  override readonly name = 'V2Problem';
  constructor(
    readonly status: 400 | 404 | 503,
    message: string,
  ) {
    super(message);
  }
}

export const v2Errors = {
  /** The service's EntityNotFoundException text: `<entity> with <attribute>: <id> not found`. */
  notFound(entity: string, attribute: string, id: string): V2Problem {
    return new V2Problem(404, `${entity} with ${attribute}: ${id} not found`);
  },
  /** Its gene lookup names the gene alone. */
  geneNotFound(name: string): V2Problem {
    return new V2Problem(404, name);
  },
  badParameter(name: string, value: string, expected: string): V2Problem {
    return new V2Problem(400, `Invalid value '${value}' for parameter '${name}': ${expected}`);
  },
  /** Tables of a load made before API v2 was served lack what it reads. */
  notLoadedForV2(): V2Problem {
    return new V2Problem(503, 'The catalog was loaded by an earlier version of biomirror, which did not keep what API v2 serves; load the catalog again');
  },
} as const;

/** The entity names the service puts in its messages. */
export const ENTITY = {
  studies: 'Studies',
  publications: 'Publications',
  associations: 'Associations',
  bodyOfWorks: 'Body of Works',
  efoTrait: 'EFO Trait',
  genomicContext: 'Genomic Context',
  snp: 'snp',
  locus: 'Locus',
  ancestry: 'Ancestry',
  unpublishedAncestry: 'Unpublished Ancestry',
  unpublishedStudy: 'Unpublished Study',
} as const;

/**
 * What the retired v1 API answers since May 2026 (410, plain text), as recorded from the public
 * service.
 */
export const V1_RETIRED_BODY =
  'This legacy GWAS Catalog REST API is no longer available.\n' +
  'For general programmatic access, see: https://www.ebi.ac.uk/gwas/docs/programmatic-access/\n' +
  'For V2 migration, see: https://www.ebi.ac.uk/gwas/docs/news/rest-api-v2-migration-guide\n';
