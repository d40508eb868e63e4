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
import { SERVICE_IDS } from './ids.js';

// The AlphaFold DB's 3D-Beacons summary lists the structure database's entries of an accession too.
const alphafold = createAlphafoldService({ experimental: pdbBeacons });

/** Every finished service, in the order they are listed and given ports. */
export const SERVICES: readonly ServiceModule[] = [clinicaltrials, eutils, datasets, pubchem, protocols, gwas, biorxiv, pgx, rcsbData, rcsbFiles, rcsbSearch, rcsbSite, alphafold, exec];

// The command line's list of ids must name these services, in this order.
if (SERVICES.map((s) => s.id).join() !== SERVICE_IDS.join()) throw new Error(`services/ids.ts lists ${SERVICE_IDS.join(', ')}; the registry has ${SERVICES.map((s) => s.id).join(', ')}`);

export function findService(id: string): ServiceModule | undefined {
  return SERVICES.find((s) => s.id === id);
}
