import type { LimitRule } from '../../core/limits/policy.js';
import type { ServiceModule } from '../types.js';
import { datasetsCatalogue } from './errors.js';
import { datasetsDocument } from './oas.js';
import { registerRoutes } from './routes.js';
import { datasetsPullThrough } from './pull.js';

function apiKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const v = headers['api-key'];
  const k = Array.isArray(v) ? v[0] : v;
  return k && k.trim() ? k.trim() : undefined;
}

// The spec: 5 requests per second without a key, 10 with the `api-key` header.
const LIMITS: LimitRule[] = [
  { name: 'with-key', limit: 10, windowMs: 1000, key: (s) => (apiKey(s.headers) ? `key:${apiKey(s.headers)}` : null) },
  { name: 'without-key', limit: 5, windowMs: 1000, key: (s) => (apiKey(s.headers) ? null : `ip:${s.ip}`) },
];

/** NCBI Datasets' gene reports, read from the gene data loaded for E-utilities (it has no data of its own). */
export const datasets: ServiceModule = {
  id: 'datasets',
  title: 'NCBI Datasets gene reports (v2alpha)',
  mount: '/datasets',
  baseUrls: { datasets_url: '/v2alpha' },
  publicUrls: { datasets_url: 'https://api.ncbi.nlm.nih.gov/datasets/v2alpha' },
  // NCBI's own documents (today's v2, and v2alpha as the interface describes it).
  officialApis: [
    { name: "NCBI Datasets API v2 (NCBI's own document; gene paths served)", load: () => datasetsDocument('v2'), serverPath: '/v2' },
    { name: "NCBI Datasets API v2alpha (NCBI's own document; gene paths served)", load: () => datasetsDocument('v2alpha'), serverPath: '/v2alpha' },
  ],
  defaultPort: 8083,
  limits: LIMITS,
  migrations: [],
  datasets: [],
  dataOf: 'eutils',
  errors: datasetsCatalogue,
  pullThrough: datasetsPullThrough,
  routes: registerRoutes,
};
