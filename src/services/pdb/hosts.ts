import { ServiceError, type ErrorCatalogue } from '../../core/http/errors.js';
import type { ServiceContext, ServiceModule } from '../types.js';
import { PdbData } from './data.js';
import { filesErrors, type FileHostError } from './files/errors.js';
import { fileHostRoutes, siteRoutes } from './files/routes.js';
import { MemoryDerivedCache, type EntryFileSource } from './files/source.js';

/** The file hosts read the entries the Data API host loaded, from the platform's file store. */
function source(ctx: ServiceContext): EntryFileSource {
  const data = new PdbData(ctx.db, ctx.generations);
  return {
    cif: async (id) => (await data.entryFiles(id))?.cif,
    structureFactors: async (id) => (await data.entryFiles(id))?.sf,
    cache: derived,
  };
}

// Derived files (BinaryCIF, legacy PDB, assemblies) of this process, shared by both hosts.
const derived = new MemoryDerivedCache(Number(process.env.BIOMIRROR_PDB_DERIVED_CACHE_MB ?? 256) * 1024 * 1024);

const asError = (e: FileHostError): ServiceError => new ServiceError(e.status, e.body, e.contentType, e.headers ?? {});

/** What the file hosts answer for what the platform refuses: the host's own pages. */
const filesCatalogue: ErrorCatalogue = {
  routeNotFound: (_method, path) => asError(filesErrors.notFound(path)),
  rateLimited: (seconds) => new ServiceError(429, 'Too Many Requests\n', 'text/plain; charset=utf-8', { 'retry-after': String(seconds) }),
  badRequest: (message, status) => new ServiceError(status, `${message}\n`, 'text/plain; charset=utf-8'),
  internal: (requestId) => new ServiceError(500, `Internal error (request ${requestId})\n`, 'text/plain; charset=utf-8'),
  unavailable: () => asError(filesErrors.busy()),
};

/** files.rcsb.org: the archive's files as loaded, and the formats and assemblies derived from them. */
export const rcsbFiles: ServiceModule = {
  id: 'rcsb-files',
  title: 'RCSB PDB file downloads (files.rcsb.org)',
  mount: '/rcsb/files',
  baseUrls: { files_url: '' },
  publicUrls: { files_url: 'https://files.rcsb.org' },
  defaultPort: 8090,
  limits: [],
  migrations: [],
  datasets: [],
  errors: filesCatalogue,
  routes: (app, ctx) => fileHostRoutes(app, source(ctx)),
};

/** www.rcsb.org: the site's FASTA downloads. */
export const rcsbSite: ServiceModule = {
  id: 'rcsb-www',
  title: 'RCSB PDB site downloads (FASTA; www.rcsb.org)',
  mount: '/rcsb/www',
  baseUrls: { fasta_url: '' },
  publicUrls: { fasta_url: 'https://www.rcsb.org' },
  defaultPort: 8092,
  limits: [],
  migrations: [],
  datasets: [],
  errors: filesCatalogue,
  routes: (app, ctx) => siteRoutes(app, source(ctx)),
};
