import type { ServiceModule } from '../types.js';
import { bxCatalogue } from './errors.js';
import { DATASET, SERVICE } from './handlers.js';
import { biorxivPullThrough } from './pull.js';
import { readPreprints } from './ingest.js';
import { BIORXIV_REFERENCE } from './reference.js';
import { registerRoutes } from './routes.js';
import { TABLES, TABLE_PREFIX, countRecords, createTables, finishTables, preprintUpdates, writeBatch } from './store.js';
import { sourcePath } from '../../core/files/project.js';

// Demo records ship as source files next to this module (found from dist as from src).
const demo = sourcePath('services/biorxiv/demo/');

export const biorxiv: ServiceModule = {
  id: SERVICE,
  title: 'bioRxiv API (details, pubs) and full text',
  mount: '/biorxiv',
  // The API and the site's full-text addresses share the mount: /details, /pubs and /content.
  baseUrls: { preprint_base_url: '', preprint_site_url: '' },
  publicUrls: { preprint_base_url: 'https://api.biorxiv.org', preprint_site_url: 'https://www.biorxiv.org' },
  defaultPort: 8087,
  reference: BIORXIV_REFERENCE,
  // The spec: "no numeric limit; recommended minimum delay 0.5 s" — a recommendation to clients, not a refusal.
  limits: [],
  migrations: [],
  datasets: [
    {
      service: SERVICE,
      name: DATASET,
      tablePrefix: TABLE_PREFIX,
      tables: TABLES,
      batchSize: 1000,
      demo,
      read: readPreprints,
      create: createTables,
      write: writeBatch,
      finish: finishTables,
      count: countRecords,
      updates: preprintUpdates,
    },
  ],
  errors: bxCatalogue,
  pullThrough: biorxivPullThrough,
  routes: registerRoutes,
};
