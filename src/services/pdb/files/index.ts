import type { ServiceModule } from '../../types.js';
import { filesCatalogue } from './errors.js';
import { FILES_REFERENCE } from './reference.js';
import { fileHostRoutes } from './routes.js';
import { storedEntryFiles } from './source.js';

/**
 * The RCSB PDB's file host (files.rcsb.org): the archive's files as the Data API host loaded them,
 * and the formats and assemblies derived from them. It has no dataset of its own.
 */
export const rcsbFiles: ServiceModule = {
  id: 'rcsb-files',
  title: 'RCSB PDB file downloads (files.rcsb.org)',
  mount: '/rcsb/files',
  baseUrls: { files_url: '' },
  publicUrls: { files_url: 'https://files.rcsb.org' },
  defaultPort: 8090,
  reference: FILES_REFERENCE,
  limits: [],
  migrations: [],
  datasets: [],
  dataOf: 'rcsb-data',
  errors: filesCatalogue,
  routes: (app, ctx) => fileHostRoutes(app, storedEntryFiles(ctx)),
};
