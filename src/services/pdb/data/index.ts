import type { ServiceModule } from '../../types.js';
import { rcsbCatalogue } from '../errors.js';
import { archiveDataset } from '../ingest/archive.js';
import { componentsDataset } from '../ingest/components.js';
import { siftsDataset } from '../ingest/sifts.js';
import { dataRoutes } from './routes.js';
import { rcsbDataPullThrough } from './pull.js';
import { SERVICE } from '../store/tables.js';
import { sourcePath } from '../../../core/files/project.js';

// Demo files ship as source files next to this module.
const demo = (sub: string) => sourcePath(`services/pdb/demo/${sub}`);

/**
 * The RCSB PDB's Data API host (data.rcsb.org): REST core objects, holdings, schemas and GraphQL,
 * over the archive's mmCIF entries, the chemical component dictionary and the SIFTS mapping. The
 * file and site hosts are modules of their own (a client swaps only the host part of a URL), and
 * read what this one loads.
 */
export const rcsbData: ServiceModule = {
  id: SERVICE,
  title: 'RCSB PDB Data API (REST and GraphQL)',
  mount: '/rcsb/data',
  baseUrls: { data_url: '' },
  publicUrls: { data_url: 'https://data.rcsb.org' },
  defaultPort: 8089,
  // The RCSB documents a 429 past its limit without a number; none is applied by default.
  limits: [],
  migrations: [],
  datasets: [archiveDataset(demo('')), componentsDataset(demo('components.cif.gz')), siftsDataset(demo('pdb_chain_uniprot.tsv.gz'))],
  errors: rcsbCatalogue,
  pullThrough: rcsbDataPullThrough,
  routes: dataRoutes,
};
