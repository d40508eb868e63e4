import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';

/**
 * The pharmacogenomics service's errors: the spec's body `{"error", "message"}` for every status
 * (the spec names it for 404 and 429; 400 and 500 use the same shape). `error` is the status's
 * reason phrase; `message` says what was wrong and, for a 400, what is allowed.
 */
function err(status: number, error: string, message: string): ServiceError {
  return new ServiceError(status, { error, message });
}

const notFound = (message: string) => err(404, 'Not Found', message);
const badRequest = (message: string) => err(400, 'Bad Request', message);

export const pgxErrors = {
  missingParameter(name: string): ServiceError {
    return badRequest(`Missing required parameter "${name}"`);
  },
  invalidValue(name: string, value: string, allowed: string): ServiceError {
    return badRequest(`Invalid value "${value}" for parameter "${name}": ${allowed}`);
  },
  geneNotFound(symbol: string): ServiceError {
    return notFound(`Gene "${symbol}" not found`);
  },
  drugNotFound(drug: string): ServiceError {
    return notFound(`Drug "${drug}" not found`);
  },
  guidelineNotFound(id: string): ServiceError {
    return notFound(`Guideline "${id}" not found`);
  },
  alleleNotFound(name: string): ServiceError {
    return notFound(`Allele "${name}" not found`);
  },
  variantNotFound(id: string): ServiceError {
    return notFound(`Variant "${id}" not found`);
  },
  pathwayNotFound(id: string): ServiceError {
    return notFound(`Pathway "${id}" not found`);
  },
  annotationNotFound(id: string): ServiceError {
    return notFound(`Clinical annotation "${id}" not found`);
  },
  labelNotFound(id: string): ServiceError {
    return notFound(`Drug label "${id}" not found`);
  },
  noResults(what: string): ServiceError {
    return notFound(`No ${what} found for the given parameters`);
  },
} as const;

export const pgxCatalogue: ErrorCatalogue = {
  routeNotFound: (method, path) => notFound(`No such endpoint: ${method} ${path}`),
  rateLimited: (seconds) => err(429, 'Too Many Requests', `Rate limit exceeded: at most 2 requests per second (one every 500 ms); retry after ${seconds} s`),
  badRequest: (message, status) => err(status, status === 400 ? 'Bad Request' : 'Request Error', message),
  internal: (requestId) => err(500, 'Internal Server Error', `Internal server error (request ${requestId})`),
};
