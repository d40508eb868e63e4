import type { LimitRule } from '../../core/limits/policy.js';
import { clinvarDataset, geneDataset, NCBI_SERVICE } from '../ncbi/datasets.js';
import type { ServiceModule } from '../types.js';
import { apiKeyOf, eutilsCatalogue } from './errors.js';
import { HISTORY_MIGRATIONS } from './history.js';
import { EUTILS_REFERENCE } from './reference.js';
import { registerRoutes } from './routes.js';
import { eutilsPullThrough } from './pull.js';

// The spec: 3 requests per second without a key, 10 with one; counted per key, or per IP without.
// The key may come in the query string or in a POST form body.
const LIMITS: LimitRule[] = [
  { name: 'with-key', limit: 10, windowMs: 1000, key: (s) => (apiKeyOf(s) ? `key:${apiKeyOf(s)}` : null) },
  { name: 'without-key', limit: 3, windowMs: 1000, key: (s) => (apiKeyOf(s) ? null : `ip:${s.ip}`) },
];

export const eutils: ServiceModule = {
  id: NCBI_SERVICE,
  title: 'NCBI E-utilities (db=gene, db=clinvar)',
  mount: '/eutils',
  baseUrls: { eutils_url: '' },
  publicUrls: { eutils_url: 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils' },
  defaultPort: 8082,
  reference: EUTILS_REFERENCE,
  limits: LIMITS,
  migrations: HISTORY_MIGRATIONS,
  datasets: [geneDataset, clinvarDataset],
  errors: eutilsCatalogue,
  pullThrough: eutilsPullThrough,
  // The real service reports the budget on every answer.
  limitHeaders(usage): Record<string, string> {
    const u = usage[0];
    if (!u) return {};
    const remaining = Math.max(0, Math.floor(u.rule.limit * (1 - u.fraction) + 1e-9));
    return { 'X-RateLimit-Limit': String(u.rule.limit), 'X-RateLimit-Remaining': String(remaining) };
  },
  routes: registerRoutes,
};
