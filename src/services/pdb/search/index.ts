import type { ServiceModule } from '../../types.js';
import { rcsbCatalogue } from '../errors.js';
import { searchRoutes } from './query/routes.js';
import { motifThread } from './query/seqmotif.js';
import { mmseqsState } from './mmseqs.js';
import { tmalignState } from './query/structure.js';

/**
 * The RCSB PDB's Search API host (search.rcsb.org): the seven query types over what the data host
 * loaded. It has no dataset of its own: its indexes are built with each load of the archive and
 * of the chemical component dictionary, in their generations.
 */
export const rcsbSearch: ServiceModule = {
  id: 'rcsb-search',
  title: 'RCSB PDB Search API',
  mount: '/rcsb/search',
  baseUrls: { search_url: '' },
  publicUrls: { search_url: 'https://search.rcsb.org' },
  defaultPort: 8091,
  // The RCSB documents a 429 past its limit without a number; none is applied by default.
  limits: [],
  migrations: [],
  datasets: [],
  dataOf: 'rcsb-data',
  errors: rcsbCatalogue,
  routes: searchRoutes,
  engines: () => ({
    mmseqs2: mmseqsState(),
    'tm-align': tmalignState(),
    'motif-matcher': { state: 'ok', restarts: motifThread.restarts },
  }),
};
