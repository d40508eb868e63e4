/**
 * Datasets errors in the shape the OpenAPI gives them (rpcStatus: `code`, `message`, `details`),
 * `code` being the gRPC status behind the HTTP one (3 invalid argument, 5 not found, 8 resource
 * exhausted, 13 internal).
 */
import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

const GRPC: Record<number, number> = { 400: 3, 404: 5, 405: 12, 413: 3, 415: 3, 429: 8, 500: 13 };

export function rpcError(status: number, message: string, headers: Record<string, string> = {}): ServiceError {
  return new ServiceError(status, { code: GRPC[status] ?? 2, message, details: [] }, 'application/json', headers);
}

export const datasetsErrors = {
  invalidGeneId: (value: string) => rpcError(400, `Invalid gene id "${value}": gene ids are positive whole numbers, comma-separated in the path`),
  invalidTaxon: (value: string) => rpcError(400, `Invalid taxon "${value}": give an NCBI Taxonomy id (9606) or a scientific or common name (Homo sapiens, human)`),
  invalidParameter: (name: string, value: string, allowed: string) => rpcError(400, `Invalid value "${value}" for ${name}: ${allowed}`),
  invalidBody: (detail: string) => rpcError(400, `Invalid request body: ${detail}`),
  notFound: (what: string) => rpcError(404, `No genes found for ${what}`),
  badPageToken: () => rpcError(400, 'Invalid page_token: use the next_page_token of the previous page with the same request'),
} as const;

export const datasetsCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) => rpcError(404, `No such endpoint: ${method} ${path}`),
  rateLimited: (seconds) => rpcError(429, `Too many requests: the limit is 5 requests per second, 10 with an api-key header; retry after ${seconds} s`),
  badRequest: (message, status) => rpcError(status, message),
  internal: (requestId) => rpcError(500, `Internal server error (request ${requestId}); retry with backoff`),
};
