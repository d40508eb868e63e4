import { createAlphafoldService } from './alphafold/index.js';
import { biorxiv } from './biorxiv/index.js';
import { clinicaltrials } from './clinicaltrials/index.js';
import { datasets } from './datasets/index.js';
import { eutils } from './eutils/index.js';
import { exec } from './exec/index.js';
import { gwas } from './gwas/index.js';
import { pgx } from './pgx/index.js';
import { pdbBeacons } from './pdb/data/beacons.js';
import { rcsbData } from './pdb/data/index.js';
import { rcsbFiles } from './pdb/files/index.js';
import { rcsbSearch } from './pdb/search/index.js';
import { rcsbSite } from './pdb/www/index.js';
import { protocols } from './protocols/index.js';
import { pubchem } from './pubchem/index.js';
import type { ServiceModule } from './types.js';

// The AlphaFold DB's 3D-Beacons summary lists the structure database's entries of an accession too.
const alphafold = createAlphafoldService({ experimental: pdbBeacons });

/** Every finished service, in the order they are listed and given ports. */
export const SERVICES: readonly ServiceModule[] = [clinicaltrials, eutils, datasets, pubchem, protocols, gwas, biorxiv, pgx, rcsbData, rcsbFiles, rcsbSearch, rcsbSite, alphafold, exec];

export function findService(id: string): ServiceModule | undefined {
  return SERVICES.find((s) => s.id === id);
}
