/**
 * The file host's and the FASTA pages' error catalogue, as the real hosts answer.
 *
 * - files.rcsb.org: a file it does not have (unknown id, a format the entry lacks such as the
 *   legacy .pdb of a large entry, an assembly it does not define) is HTTP 404 with an HTML page.
 *   Clients recognise it by text: Biotite checks for "404 Not Found" and for the page title
 *   "PDB Archive over AWS" (the host serves the archive from Amazon S3); gget and POPScomp by the
 *   404 status alone. The page's exact markup is not recorded: ours carries both texts.
 * - www.rcsb.org/fasta: "No fasta files were found." for an id without sequences and "No valid PDB
 *   IDs were submitted." for a malformed one (texts as Biotite checks them; the statuses are not
 *   recorded, and we answer 404 for both, so status-checking clients fail as they do upstream).
 * - Our own, where the real host has no equivalent: a conversion past its time budget is 503 with
 *   Retry-After (the request can be retried); a stored file that cannot be read is a 404 (the host
 *   has no usable file), logged for the operator.
 */
import { ServiceError, type ErrorCatalogue } from '../../../core/http/errors.js';

interface FileHostError {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

const html = (title: string, heading: string, text: string) => `<html><head><title>${title}</title></head><body><h1>${heading}</h1><p>${text}</p></body></html>\n`;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const pages = {
  /** The host has no such file. */
  notFound(path: string): FileHostError {
    return {
      status: 404,
      contentType: 'text/html',
      body: html('PDB Archive over AWS', '404 Not Found', `The requested file ${escape(path)} was not found on this server.`),
    };
  },
  /** A conversion past its time budget, or a store that failed to answer: worth a retry. */
  busy(): FileHostError {
    return {
      status: 503,
      contentType: 'text/html',
      body: html('PDB Archive over AWS', '503 Service Unavailable', 'The file is not available right now; please retry.'),
      headers: { 'retry-after': '5' },
    };
  },
  /** A byte range outside the file. */
  unsatisfiable(length: number): FileHostError {
    return {
      status: 416,
      contentType: 'text/html',
      body: html('PDB Archive over AWS', '416 Requested Range Not Satisfiable', 'The requested range is not satisfiable.'),
      headers: { 'content-range': `bytes */${length}` },
    };
  },
  fastaNotFound(): FileHostError {
    return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'No fasta files were found.' };
  },
  fastaBadId(): FileHostError {
    return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'No valid PDB IDs were submitted.' };
  },
} as const;

const asError = (e: FileHostError): ServiceError => new ServiceError(e.status, e.body, e.contentType, e.headers ?? {});

/** The pages above as errors a route throws (the platform sends them, as every service's). */
export const filesErrors = {
  notFound: (path: string): ServiceError => asError(pages.notFound(path)),
  busy: (): ServiceError => asError(pages.busy()),
  unsatisfiable: (length: number): ServiceError => asError(pages.unsatisfiable(length)),
  fastaNotFound: (): ServiceError => asError(pages.fastaNotFound()),
  fastaBadId: (): ServiceError => asError(pages.fastaBadId()),
} as const;

/** What the file hosts (files and site) answer for what the platform refuses: the host's own pages. */
export const filesCatalogue: ErrorCatalogue = {
  routeNotFound: (_method, path) => filesErrors.notFound(path),
  rateLimited: (seconds) => new ServiceError(429, 'Too Many Requests\n', 'text/plain; charset=utf-8', { 'retry-after': String(seconds) }),
  badRequest: (message, status) => new ServiceError(status, `${message}\n`, 'text/plain; charset=utf-8'),
  internal: (requestId) => new ServiceError(500, `Internal error (request ${requestId})\n`, 'text/plain; charset=utf-8'),
  unavailable: () => filesErrors.busy(),
};
