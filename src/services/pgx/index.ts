import { perIp } from '../../core/limits/limiter.js';
import type { ServiceModule } from '../types.js';
import { pgxCatalogue } from './errors.js';
import { DATASET, SERVICE } from './handlers.js';
import { readPgx } from './ingest/read.js';
import { PGX_REFERENCE } from './reference.js';
import { registerRoutes } from './routes.js';
import { finishTables } from './store/derive/index.js';
import { TABLES, TABLE_PREFIX, countRecords, createTables, pgxUpdates } from './store/schema.js';
import { writeBatch } from './store/write.js';
import { sourcePath } from '../../core/files/project.js';

// Demo files ship as source files next to this module (read from src/ by the built code too).
const demo = sourcePath('services/pgx/demo/');

export const pgx: ServiceModule = {
  id: SERVICE,
  title: 'Pharmacogenomics (PharmGKB / ClinPGx API v1)',
  mount: '/pgx',
  baseUrls: { pgx_base_url: '' },
  publicUrls: { pgx_base_url: 'https://api.pharmgkb.org' },
  defaultPort: 8088,
  reference: PGX_REFERENCE,
  // The spec: "maximum 2 requests per second; excess gets 429; recommended spacing 500 ms".
  limits: [perIp('per-ip', 2, 1000)],
  migrations: [],
  datasets: [
    {
      service: SERVICE,
      name: DATASET,
      tablePrefix: TABLE_PREFIX,
      tables: TABLES,
      batchSize: 1000,
      demo,
      read: readPgx,
      create: createTables,
      write: writeBatch,
      finish: finishTables,
      count: countRecords,
      updates: pgxUpdates,
    },
  ],
  errors: pgxCatalogue,
  routes: registerRoutes,
};
