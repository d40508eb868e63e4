import { cifPoolState } from '../../core/mmcif/index.js';
import type { LimitRule } from '../../core/limits/policy.js';
import type { ServiceModule } from '../types.js';
import { alphafoldCatalogue } from './errors.js';
import { readAlphafold } from './ingest.js';
import { ALPHAFOLD_OFFICIAL, ALPHAFOLD_REFERENCE } from './reference.js';
import { registerRoutes, type AlphafoldOptions } from './routes.js';
import { DATASET, MIGRATIONS, PREFIX, SERVICE, TABLES, afUpdates, countRecords, createTables, finishTables, writeRecords } from './store.js';
import { sourcePath } from '../../core/files/project.js';

// Demo files are kept next to this module; the build compiles TypeScript only, so they are read from src/ (core/files/project.ts).
const DEMO = sourcePath('services/alphafold/demo/');

/**
 * The database asks for at most 10 requests in flight per user (and 100-200 ms between sequential
 * ones, a recommendation): an eleventh concurrent request from one address is answered 429.
 */
export const ALPHAFOLD_LIMITS: readonly LimitRule[] = [{ name: 'concurrent', limit: 10, windowMs: 60_000, unit: 'concurrent', key: (s) => `ip:${s.ip}` }];

/**
 * The AlphaFold Protein Structure Database: its API (predictions by UniProt accession, the
 * 3D-Beacons summary) and its file host (models, confidence and PAE files, the PAE image, and the
 * MSA and AlphaMissense files a load carries).
 */
export function createAlphafoldService(opts: AlphafoldOptions = {}): ServiceModule {
  return {
    id: SERVICE,
    title: 'AlphaFold Protein Structure Database (API, files, 3D-Beacons)',
    mount: '/alphafold',
    baseUrls: { fold_base_url: '', beacons_url: '/api' },
    publicUrls: { fold_base_url: 'https://alphafold.ebi.ac.uk', beacons_url: 'https://alphafold.ebi.ac.uk/api' },
    defaultPort: 8093,
    officialApis: ALPHAFOLD_OFFICIAL,
    reference: ALPHAFOLD_REFERENCE,
    limits: ALPHAFOLD_LIMITS,
    migrations: MIGRATIONS,
    datasets: [
      {
        service: SERVICE,
        name: DATASET,
        tablePrefix: PREFIX,
        tables: TABLES,
        batchSize: 200,
        demo: DEMO,
        read: readAlphafold,
        create: createTables,
        write: writeRecords,
        finish: finishTables,
        count: countRecords,
        updates: afUpdates,
      },
    ],
    errors: alphafoldCatalogue,
    routes: (app, ctx) => registerRoutes(app, ctx, opts),
    engines: () => ({ 'mmcif-workers': { state: 'ok', ...cifPoolState } }),
  };
}

export const alphafold: ServiceModule = createAlphafoldService();
