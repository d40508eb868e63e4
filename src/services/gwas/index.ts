import { parse as parseYaml } from 'yaml';
import type { ServiceModule } from '../types.js';
import { CATALOG, SERVICE } from './catalog/handlers.js';
import { readCatalog } from './catalog/ingest.js';
import { catalogUpdates } from './catalog/updates.js';
import { CATALOG_PREFIX, CATALOG_TABLES, countCatalog, createCatalog, finishCatalog, writeCatalog } from './catalog/store.js';
import { gwasCatalogue } from './errors.js';
import { gwasPullThrough } from './pull.js';
import { CATALOG_PATH, SUMSTATS_PATH, registerRoutes, type GwasOptions } from './routes.js';
import { SUMSTATS } from './sumstats/handlers.js';
import { v2Document } from './v2/routes.js';
import { readSumstats } from './sumstats/ingest.js';
import { SUMSTATS_PREFIX, SUMSTATS_TABLES, countSumstats, createSumstats, finishSumstats, sumstatsUpdates, writeSumstats } from './sumstats/store.js';
import { sourcePath } from '../../core/files/project.js';

// Demo files are kept next to this module; the build compiles TypeScript only, so they are read from src/ (core/files/project.ts).
const demo = (sub: string) => sourcePath(`services/gwas/demo/${sub}/`);

/** `BIOMIRROR_GWAS_V1=retired` answers v1 as the public service has since May 2026 (410). */
function v1FromEnv(env: NodeJS.ProcessEnv = process.env): GwasOptions['v1'] {
  const v = (env.BIOMIRROR_GWAS_V1 ?? '').trim().toLowerCase();
  if (v === '' || v === 'served' || v === 'on') return 'served';
  if (v === 'retired' || v === 'off') return 'retired';
  throw new Error(`BIOMIRROR_GWAS_V1=${env.BIOMIRROR_GWAS_V1}: expected served or retired`);
}

/**
 * The GWAS Catalog's REST API (v1 and v2, from the same data) and its summary-statistics API. Two
 * datasets: the catalog (its bulk TSV downloads) and the summary statistics (GWAS-SSF files; each
 * load replaces them all).
 */
export function createGwasService(options: Partial<GwasOptions> = {}): ServiceModule {
  const opts: GwasOptions = { v1: options.v1 ?? v1FromEnv() };
  return {
    id: SERVICE,
    title: 'GWAS Catalog REST API and summary-statistics API',
    mount: '/gwas',
    baseUrls: { gwas_url: CATALOG_PATH, sumstats_url: SUMSTATS_PATH },
    publicUrls: { gwas_url: 'https://www.ebi.ac.uk/gwas/rest/api', sumstats_url: 'https://www.ebi.ac.uk/gwas/summary-statistics/api' },
    defaultPort: 8086,
    // The catalog's own v2 document; its paths start at /v2 below the catalog's base.
    officialApis: [{ name: "GWAS Catalog REST API v2 (the catalog's own document)", load: async () => parseYaml(await v2Document()) as Record<string, unknown>, serverPath: CATALOG_PATH }],
    // The spec documents no limit, only a recommended delay between requests.
    limits: [],
    migrations: [],
    datasets: [
      {
        service: SERVICE,
        name: CATALOG,
        tablePrefix: CATALOG_PREFIX,
        tables: CATALOG_TABLES,
        batchSize: 500,
        demo: demo('catalog'),
        read: readCatalog,
        create: createCatalog,
        write: writeCatalog,
        finish: finishCatalog,
        count: countCatalog,
        updates: catalogUpdates,
      },
      {
        service: SERVICE,
        name: SUMSTATS,
        tablePrefix: SUMSTATS_PREFIX,
        tables: SUMSTATS_TABLES,
        batchSize: 5000,
        demo: demo('sumstats'),
        read: readSumstats,
        create: createSumstats,
        write: writeSumstats,
        finish: finishSumstats,
        count: countSumstats,
        updates: sumstatsUpdates,
      },
    ],
    errors: gwasCatalogue,
    pullThrough: gwasPullThrough,
    routes: (app, ctx) => registerRoutes(app, ctx, opts),
  };
}

export const gwas: ServiceModule = createGwasService();
