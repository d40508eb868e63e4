/** The catalog and the summary statistics are loaded apart: each base path reads its own. */
import type { PullHints } from '../../core/pullthrough/hints.js';
import { CATALOG } from './catalog/handlers.js';
import { CATALOG_PATH, SUMSTATS_PATH } from './routes.js';
import { SUMSTATS } from './sumstats/handlers.js';

const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

export const gwasPullThrough: PullHints = {
  needs: (req) => (under(req.path, SUMSTATS_PATH) ? [SUMSTATS] : under(req.path, CATALOG_PATH) ? [CATALOG] : undefined),
};
