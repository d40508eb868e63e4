/**
 * PubChem PUG REST and PUG View, served from PubChem's bulk files (compounds, substances,
 * bioassays) with RDKit as the chemistry engine.
 */
import { availableParallelism } from 'node:os';
import type { ServiceModule } from '../types.js';
import { conformerState } from './chem/compute3d.js';
import { engineState } from './chem/rdkit.js';
import { structureState } from './chem/structures.js';
import { matcherState } from '../../core/chem/match-pool.js';
import { pubchemCommands } from './commands.js';
import { DATASETS, SERVICE } from './data.js';
import { pcCatalogue } from './errors.js';
import { readAssays } from './ingest/assays.js';
import { assayUpdates, compoundUpdates, conformerUpdates, substanceUpdates } from './ingest/updates.js';
import { readCompounds } from './ingest/compounds.js';
import { readConformers } from './ingest/conformers.js';
import { readSubstances } from './ingest/substances.js';
import { limitHeaders, pubchemLimits, RUNNING_TIME_MS } from './limits.js';
import { PUBCHEM_REFERENCE } from './reference.js';
import { pubchemRoutes, type PubchemOptions } from './routes.js';
import { LISTKEY_MIGRATIONS } from './search/listkeys.js';
import { ASSAY_PREFIX, ASSAY_TABLES, countAssayItems, createAssayTables, finishAssays, writeAssays } from './store/assays.js';
import { CONFORMER_PREFIX, CONFORMER_TABLES, countConformers, createConformerTables, finishConformers, writeConformers } from './store/conformers.js';
import { COMPOUND_PREFIX, COMPOUND_TABLES, countCompoundItems, createCompoundTables, finishCompounds, writeCompounds } from './store/compounds.js';
import { SUBSTANCE_PREFIX, SUBSTANCE_TABLES, countSubstances, createSubstanceTables, finishSubstances, writeSubstances } from './store/substances.js';
import { sourcePath } from '../../core/files/project.js';

// Demo files ship as source files next to this module (the build leaves them in src).
const demo = (name: string) => sourcePath(`services/pubchem/demo/${name}/`);

const envMs = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export function createPubchemService(options: Partial<PubchemOptions> = {}): ServiceModule {
  const opts: PubchemOptions = {
    syncBudgetMs: options.syncBudgetMs ?? envMs('BIOMIRROR_PUBCHEM_SYNC_MS', 2000),
    maxSearchMs: options.maxSearchMs ?? envMs('BIOMIRROR_PUBCHEM_SEARCH_MS', 300_000),
    listkeyTtlMs: options.listkeyTtlMs ?? envMs('BIOMIRROR_PUBCHEM_LISTKEY_MS', 3_600_000),
    // One matching thread per core (at most two): a substructure search spreads its candidates over them.
    matchThreads: options.matchThreads ?? envMs('BIOMIRROR_PUBCHEM_THREADS', Math.min(2, availableParallelism())),
    runningTimeMs: options.runningTimeMs ?? RUNNING_TIME_MS,
    queue: options.queue ?? process.env.BIOMIRROR_PUBCHEM_QUEUE !== 'off',
    queuePrefix: options.queuePrefix ?? process.env.BIOMIRROR_QUEUE_PREFIX ?? 'biomirror',
    queueLockMs: options.queueLockMs ?? envMs('BIOMIRROR_PUBCHEM_QUEUE_LOCK_MS', 30_000),
    ...(options.queueWorkers !== undefined ? { queueWorkers: options.queueWorkers } : {}),
    // On by default: clients ask for the 3D properties of compounds no loaded 3D file covers;
    // computed values are marked in records, SD files and an answer header (docs/compatibility.md).
    compute3d: options.compute3d ?? process.env.BIOMIRROR_PUBCHEM_COMPUTE_3D !== 'off',
    conformerMs: options.conformerMs ?? envMs('BIOMIRROR_PUBCHEM_3D_MS', 10_000),
    // PubChem ends a request after 30 s; computing stops short of that.
    conformerRequestMs: options.conformerRequestMs ?? envMs('BIOMIRROR_PUBCHEM_3D_REQUEST_MS', 25_000),
    structureThreads: options.structureThreads ?? envMs('BIOMIRROR_PUBCHEM_STRUCTURE_THREADS', 1),
    // Reading one request's structure takes milliseconds; the budget stops only pathological ones.
    structureMs: options.structureMs ?? envMs('BIOMIRROR_PUBCHEM_STRUCTURE_MS', 10_000),
  };
  return {
    id: SERVICE,
    title: 'PubChem PUG REST and PUG View',
    mount: '/pubchem',
    baseUrls: { chem_base_url: '' },
    publicUrls: { chem_base_url: 'https://pubchem.ncbi.nlm.nih.gov' },
    defaultPort: 8084,
    reference: PUBCHEM_REFERENCE,
    limits: pubchemLimits(opts.runningTimeMs),
    limitHeaders,
    // A faulted engine is replaced, never kept: the state is always usable; the counts tell how often.
    // `rdkit` is the main thread's engine, used only by loads; requests use the threads' engines.
    engines: () => ({
      rdkit: { state: 'ok', replacements: engineState.replacements, renewals: engineState.renewals, lastFault: engineState.lastFault },
      structures: { state: 'ok', threads: opts.structureThreads, callMs: opts.structureMs, ...structureState },
      matchers: { state: 'ok', threads: opts.matchThreads, ...matcherState },
      conformers: { state: opts.compute3d ? 'ok' : 'off', ...conformerState },
    }),
    migrations: LISTKEY_MIGRATIONS,
    datasets: [
      {
        service: SERVICE,
        name: DATASETS.compounds,
        tablePrefix: COMPOUND_PREFIX,
        tables: COMPOUND_TABLES,
        // Larger transactions: the load's cost is writing its records (docs/performance.md).
        batchSize: 5000,
        demo: demo('compounds'),
        read: readCompounds,
        create: createCompoundTables,
        write: writeCompounds,
        finish: finishCompounds,
        count: countCompoundItems,
        updates: compoundUpdates,
      },
      {
        service: SERVICE,
        name: DATASETS.substances,
        tablePrefix: SUBSTANCE_PREFIX,
        tables: SUBSTANCE_TABLES,
        batchSize: 500,
        demo: demo('substances'),
        read: readSubstances,
        create: createSubstanceTables,
        write: writeSubstances,
        finish: finishSubstances,
        count: countSubstances,
        updates: substanceUpdates,
      },
      {
        service: SERVICE,
        name: DATASETS.assays,
        tablePrefix: ASSAY_PREFIX,
        tables: ASSAY_TABLES,
        batchSize: 1000,
        demo: demo('assays'),
        read: readAssays,
        create: createAssayTables,
        write: writeAssays,
        finish: finishAssays,
        count: countAssayItems,
        updates: assayUpdates,
      },
      {
        service: SERVICE,
        name: DATASETS.conformers,
        tablePrefix: CONFORMER_PREFIX,
        tables: CONFORMER_TABLES,
        batchSize: 500,
        demo: demo('conformers'),
        read: readConformers,
        create: createConformerTables,
        write: writeConformers,
        finish: finishConformers,
        count: countConformers,
        updates: conformerUpdates,
      },
    ],
    errors: pcCatalogue,
    routes: pubchemRoutes(opts),
    commands: pubchemCommands,
  };
}

export const pubchem = createPubchemService();
