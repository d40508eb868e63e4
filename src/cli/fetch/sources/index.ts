/** Where each dataset's data comes from: every dataset of every service that loads data has one. */
import { preprints } from '../harvest/biorxiv.js';
import { protocols } from '../harvest/protocols.js';
import type { Source } from '../plan.js';
import { models } from './alphafold.js';
import { studies } from './clinicaltrials.js';
import { catalog, sumstats } from './gwas.js';
import { clinvar, gene } from './ncbi.js';
import { pharmgkb } from './pgx.js';
import { archive, components, sifts } from './pdb.js';
import { assays, compounds, conformers, substances } from './pubchem.js';

export const SOURCES: readonly Source[] = [studies, gene, clinvar, compounds, substances, assays, conformers, protocols, catalog, sumstats, preprints, pharmgkb, archive, components, sifts, models];

export function sourceOf(service: string, dataset: string): Source | undefined {
  return SOURCES.find((s) => s.service === service && s.dataset === dataset);
}
