/**
 * The two bodies of NCBI data and their loaders. Both belong to the E-utilities service (its id is
 * the one `biomirror ingest eutils --dataset gene|clinvar` names); the Datasets interface reads the
 * gene generation of that service.
 */
import { tableSet, type Dataset, type TableSet } from '../../core/ingest/dataset.js';
import type { Sourced } from '../../core/ingest/load.js';
import { readClinvar } from './clinvar/read.js';
import type { ClinvarRecord } from './clinvar/records.js';
import { CLINVAR_PREFIX, CLINVAR_TABLES, countClinvarRows, createClinvarTables, finishClinvarTables, writeClinvarBatch } from './clinvar/store.js';
import { readGenes } from './gene/read.js';
import type { GeneRecord } from './gene/records.js';
import { clinvarUpdates, geneUpdates } from './updates.js';
import { GENE_PREFIX, GENE_TABLES, countGeneRows, createGeneTables, finishGeneTables, writeGeneBatch } from './gene/store.js';
import { sourcePath } from '../../core/files/project.js';
import type { ServiceContext } from '../types.js';

export const NCBI_SERVICE = 'eutils';
export const GENE_DATASET = 'gene';
export const CLINVAR_DATASET = 'clinvar';

/** The tables of the gene dataset being served (E-utilities and Datasets both read them), if one is loaded. */
export async function geneTableSet(ctx: ServiceContext): Promise<TableSet | undefined> {
  const gen = await ctx.generations.active(NCBI_SERVICE, GENE_DATASET);
  return gen === undefined ? undefined : tableSet(GENE_PREFIX, gen);
}

// Demo files ship as source files next to this module (the build copies nothing).
const demo = (name: string) => sourcePath(`services/ncbi/demo/${name}/`);

export const geneDataset: Dataset<Sourced<GeneRecord>> = {
  service: NCBI_SERVICE,
  name: GENE_DATASET,
  tablePrefix: GENE_PREFIX,
  tables: GENE_TABLES,
  batchSize: 2000,
  demo: demo('gene'),
  read: readGenes,
  create: createGeneTables,
  write: writeGeneBatch,
  finish: finishGeneTables,
  count: countGeneRows,
  updates: geneUpdates,
};

export const clinvarDataset: Dataset<Sourced<ClinvarRecord>> = {
  service: NCBI_SERVICE,
  name: CLINVAR_DATASET,
  tablePrefix: CLINVAR_PREFIX,
  tables: CLINVAR_TABLES,
  batchSize: 1000,
  demo: demo('clinvar'),
  read: readClinvar,
  create: createClinvarTables,
  write: writeClinvarBatch,
  finish: finishClinvarTables,
  count: countClinvarRows,
  updates: clinvarUpdates,
};
