/**
 * `/v2/metadata`: the API's own description as the service configures it, with the data release
 * of the served catalog (the release a download names, else the day it was loaded). Build versions
 * the downloads do not state (dbSNP, gene build, EFO, Ensembl) and the service's commit are left out.
 */
import type { ServiceContext } from '../../types.js';
import { CATALOG, SERVICE } from '../catalog/handlers.js';
import type { V2Call } from './handlers.js';
import { compact } from './render.js';

type Json = Record<string, unknown>;

export async function metadata(ctx: ServiceContext, call: V2Call): Promise<Json> {
  const gen = await ctx.generations.active(SERVICE, CATALOG);
  const load = gen === undefined ? undefined : await ctx.generations.get(gen);
  return compact([
    ['title', 'GWAS Catalog Rest API 2.0'],
    ['version', '2.0'],
    ['data_release_date', load ? (load.release ?? load.finishedAt?.slice(0, 10)) : undefined],
    ['api_release_date', '2025-08-01'],
    ['terms_of_service', 'https://www.ebi.ac.uk/about/terms-of-use/'],
    ['license', { name: 'Apache License 2.0', url: 'https://github.com/EBISPOT/gwas-rest-api/blob/master/LICENSE' }],
    ['contact', { name: 'GWAS Helpdesk', email: 'gwas-info@ebi.ac.uk', url: 'mailto:gwas-info@ebi.ac.uk' }],
    // The OpenAPI document this server serves (the public service points at its Swagger page).
    ['api_reference', `${call.base}/rest-api-doc.yaml`],
    ['api_documentation', 'https://www.ebi.ac.uk/gwas/rest/api/v2/docs'],
  ]);
}
