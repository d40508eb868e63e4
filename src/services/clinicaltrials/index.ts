import { parse as parseYaml } from 'yaml';
import { perIp } from '../../core/limits/limiter.js';
import type { ServiceModule } from '../types.js';
import { ctCatalogue } from './errors.js';
import { DATASET, SERVICE } from './handlers.js';
import { readStudies } from './ingest.js';
import { registryDocument } from './oas.js';
import { registerRoutes } from './routes.js';
import { TABLES, TABLE_PREFIX, countStudies, createTables, ctUpdates, finishTables, writeBatch } from './store.js';
import { sourcePath } from '../../core/files/project.js';

// Demo studies are kept next to this module; the build compiles TypeScript only, so they are read from src/ (core/files/project.ts).
const demo = sourcePath('services/clinicaltrials/demo/');

export const clinicaltrials: ServiceModule = {
  id: SERVICE,
  title: 'ClinicalTrials.gov API v2',
  mount: '/clinicaltrials',
  baseUrls: { trials_base_url: '/api/v2' },
  publicUrls: { trials_base_url: 'https://clinicaltrials.gov/api/v2' },
  officialApis: [{ name: "ClinicalTrials.gov REST API (the registry's own document)", load: async () => parseYaml(await registryDocument()) as Record<string, unknown>, serverPath: '/api/v2' }],
  defaultPort: 8081,
  // The spec: "about 50 requests per minute per IP address".
  limits: [perIp('per-ip', 50, 60_000)],
  migrations: [],
  datasets: [
    {
      service: SERVICE,
      name: DATASET,
      tablePrefix: TABLE_PREFIX,
      tables: TABLES,
      batchSize: 500,
      demo,
      read: readStudies,
      create: createTables,
      write: writeBatch,
      finish: finishTables,
      count: countStudies,
      updates: ctUpdates,
    },
  ],
  errors: ctCatalogue,
  routes: registerRoutes,
};
