/**
 * The HTTP surface of both interfaces: one route per entry of each operation table (the catalog's
 * API v2 in v2/routes.ts). Links are built from what the client used (protocol, Host, the mount
 * prefix), so a client can follow them back here whatever address it reached the server by.
 */
import type { FastifyInstance } from 'fastify';
import { jsonGet, type RouteInput } from '../../core/http/direct.js';
import { ServiceError } from '../../core/http/errors.js';
import type { ServiceContext } from '../types.js';
import { CATALOG_OPERATIONS } from './catalog/operations.js';
import { GwasProblem, springError } from './errors.js';
import { SUMSTATS_OPERATIONS } from './sumstats/operations.js';
import { registerV1Retired, registerV2Routes } from './v2/routes.js';

export const CATALOG_PATH = '/rest/api';
export const SUMSTATS_PATH = '/summary-statistics/api';

export interface GwasOptions {
  /**
   * `served` (the default): v1 answers beside v2. `retired`: v1's addresses answer 410 with the
   * public service's text, as it has since May 2026 (`BIOMIRROR_GWAS_V1=retired`).
   */
  v1: 'served' | 'retired';
}

const HAL = 'application/hal+json;charset=UTF-8';
const JSON_TYPE = 'application/json;charset=UTF-8';

/** Spring Data REST answers HAL unless the client asks for plain JSON. */
function catalogType(r: RouteInput): string {
  const accept = r.accept ?? '';
  return /application\/json/i.test(accept) && !/application\/hal\+json/i.test(accept) ? JSON_TYPE : HAL;
}

function pathOf(r: RouteInput): string {
  return r.url.split('?')[0] ?? r.url;
}

/** An operation's answer, its failures in the service's own error body. */
async function answer(r: RouteInput, run: () => Promise<unknown> | unknown, ctx: ServiceContext): Promise<string | object> {
  try {
    const body = await run();
    return typeof body === 'object' && body !== null ? body : JSON.stringify(body);
  } catch (err) {
    if (err instanceof GwasProblem) throw springError(err.status, err.message, pathOf(r));
    if (err instanceof ServiceError) throw err;
    ctx.log.error({ err, reqId: r.id }, 'request failed');
    throw springError(500, `Internal error (request ${r.id})`, pathOf(r));
  }
}

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext, opts: GwasOptions = { v1: 'served' }): void {
  // The mount prefix of this service's scope ('' on a port of its own).
  const prefix = app.prefix;
  // The roots answer with and without a trailing slash.
  const urls = (base: string, path: string) => (path === '' ? [base, `${base}/`] : [base + path]);

  registerV2Routes(app, ctx);
  if (opts.v1 === 'retired') {
    registerV1Retired(app, CATALOG_PATH);
  } else {
    for (const [path, op] of Object.entries(CATALOG_OPERATIONS)) {
      for (const url of urls(CATALOG_PATH, path)) {
        jsonGet(app, url, catalogType, (r) => {
          const o = r.origin;
          const call = { params: r.params, query: r.query, base: `${o}${prefix}${CATALOG_PATH}`, path: o + pathOf(r), url: o + r.url };
          return answer(r, () => op(ctx, call), ctx);
        });
      }
    }
  }

  for (const [path, op] of Object.entries(SUMSTATS_OPERATIONS)) {
    for (const url of urls(SUMSTATS_PATH, path)) {
      jsonGet(app, url, JSON_TYPE, (r) => {
        const o = r.origin;
        const call = {
          params: r.params,
          query: r.query,
          base: `${o}${prefix}${SUMSTATS_PATH}`,
          catalogBase: `${o}${prefix}${CATALOG_PATH}`,
          path: o + pathOf(r),
        };
        return answer(r, () => op(ctx, call), ctx);
      });
    }
  }
}
