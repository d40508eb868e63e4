/**
 * The HTTP surface of API v2 (`/rest/api/v2/...`), beside v1: one route per entry of the operation
 * table, the OpenAPI document at `/rest/api/v2/rest-api-doc.yaml`, and, when v1 is set to retired,
 * the public service's answer to every v1 address since May 2026 (410 with its text).
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonGet, type RouteInput } from '../../../core/http/direct.js';
import { ServiceError } from '../../../core/http/errors.js';
import type { ServiceContext } from '../../types.js';
import { springError } from '../errors.js';
import { V1_RETIRED_BODY, V2Problem, V2_JSON, v2Error } from './errors.js';
import type { V2Call } from './handlers.js';
import { V2_OPERATIONS } from './operations.js';
import { sourcePath } from '../../../core/files/project.js';

export const V2_PATH = '/rest/api/v2';

// The document ships as a source file (the build leaves it in src, as the demo data).
const DOC = sourcePath('services/gwas/v2/reference/rest-api-doc.yaml');
let doc: Promise<string> | undefined;

const HAL = 'application/hal+json';

/**
 * The service's content type: JSON where its controller declares it, and where it does not (genes,
 * unpublished ancestries) HAL unless the client asks for plain JSON.
 */
function typeOf(path: string, r: RouteInput): string {
  if (!path.startsWith('/genes') && !path.includes('unpublished-ancestries')) return V2_JSON;
  const accept = r.accept ?? '';
  return /application\/json/i.test(accept) && !/application\/hal\+json/i.test(accept) ? V2_JSON : HAL;
}

function split(url: string): { path: string; rawQuery: string } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, rawQuery: '' } : { path: url.slice(0, q), rawQuery: url.slice(q + 1) };
}

/** The document as the service publishes it (read once). */
export function v2Document(): Promise<string> {
  doc ??= readFile(DOC, 'utf8');
  return doc;
}

export function registerV2Routes(app: FastifyInstance, ctx: ServiceContext): void {
  const prefix = app.prefix;

  for (const [path, op] of Object.entries(V2_OPERATIONS)) {
    jsonGet(
      app,
      V2_PATH + path,
      (r) => typeOf(path, r),
      async (r) => {
        const o = r.origin;
        const { path: own, rawQuery } = split(r.url);
        const call: V2Call = { params: r.params, query: r.query, rawQuery, base: `${o}${prefix}${V2_PATH}`, path: o + own };
        try {
          const body = await op(ctx, call);
          return typeof body === 'object' && body !== null ? body : JSON.stringify(body);
        } catch (err) {
          if (err instanceof V2Problem) throw v2Error(err.status, err.message, call.path);
          if (err instanceof ServiceError) throw err;
          ctx.log.error({ err, reqId: r.id }, 'request failed');
          throw v2Error(500, `Internal error (request ${r.id})`, call.path);
        }
      },
    );
  }

  app.get(`${V2_PATH}/rest-api-doc.yaml`, async (_req, reply) => {
    return reply.type('application/yaml').send(await v2Document());
  });
}

/** v1 retired: every v1 address answers 410 with the public service's text; v2 is untouched. */
export function registerV1Retired(app: FastifyInstance, catalogPath: string): void {
  const gone = async (_req: FastifyRequest, reply: FastifyReply) => reply.code(410).type('text/plain; charset=utf-8').send(V1_RETIRED_BODY);
  app.get(catalogPath, gone);
  app.get(`${catalogPath}/`, gone);
  app.get(`${catalogPath}/*`, async (req, reply) => {
    // An unknown v2 address is still a v2 one: the platform's 404, not v1's 410.
    const path = split(req.url).path;
    if (path.startsWith(`${app.prefix}${V2_PATH}/`)) throw springError(404, 'No message available', path);
    return gone(req, reply);
  });
}
