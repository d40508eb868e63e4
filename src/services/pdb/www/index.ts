import type { ServiceModule } from '../../types.js';
import { filesCatalogue } from '../files/errors.js';
import { storedEntryFiles } from '../files/source.js';
import { SITE_REFERENCE } from './reference.js';
import { siteRoutes } from './routes.js';

/**
 * The RCSB PDB site (www.rcsb.org): its FASTA downloads, made from the entries the Data API host
 * loaded, answering errors as the file host does. It has no dataset of its own.
 */
export const rcsbSite: ServiceModule = {
  id: 'rcsb-www',
  title: 'RCSB PDB site downloads (FASTA; www.rcsb.org)',
  mount: '/rcsb/www',
  baseUrls: { fasta_url: '' },
  publicUrls: { fasta_url: 'https://www.rcsb.org' },
  defaultPort: 8092,
  reference: SITE_REFERENCE,
  limits: [],
  migrations: [],
  datasets: [],
  dataOf: 'rcsb-data',
  errors: filesCatalogue,
  routes: (app, ctx) => siteRoutes(app, storedEntryFiles(ctx)),
};
