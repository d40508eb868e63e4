import { biorxiv } from './biorxiv/index.js';
import { clinicaltrials } from './clinicaltrials/index.js';
import { datasets } from './datasets/index.js';
import { eutils } from './eutils/index.js';
import { gwas } from './gwas/index.js';
import { pgx } from './pgx/index.js';
import { rcsbData } from './pdb/index.js';
import { rcsbSearch } from './pdb/search/index.js';
import { protocols } from './protocols/index.js';
import { pubchem } from './pubchem/index.js';
import type { ServiceModule } from './types.js';

/** Every finished service, in the order they are listed and given ports. */
export const SERVICES: readonly ServiceModule[] = [clinicaltrials, eutils, datasets, pubchem, protocols, gwas, biorxiv, pgx, rcsbData, rcsbSearch];

export function findService(id: string): ServiceModule | undefined {
  return SERVICES.find((s) => s.id === id);
}
