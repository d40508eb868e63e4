/**
 * The HTTP surface: the API (`/api/prediction/{qualifier}`, the 3D-Beacons summary under `/api`) and
 * the file host (`/files/{name}`, the MSA files below `/files/msa/`), all below the service's
 * mount. Files are sent with an ETag, gzip transfer when the client accepts it, and single byte
 * ranges.
 */
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonGet } from '../../core/http/direct.js';
import { ServiceError } from '../../core/http/errors.js';
import type { ServiceContext } from '../types.js';
import { beaconsSummary, noExperimentalStructures, type ExperimentalStructures } from './beacons.js';
import type { CategoryScheme } from './confidence.js';
import { afErrors, detail } from './errors.js';
import { EXTRA_TYPES, parseAmName, parseMsaName, type ExtraName } from './extra-files.js';
import { deliver, deliverKept, type Delivery } from './files.js';
import { extraFileOf, modelOfFile, parseFileName, predictionsJson } from './handlers.js';

const JSON_TYPE = 'application/json';

export interface AlphafoldOptions {
  /** Experimental structures for the 3D-Beacons summary (the structure database's, once wired). */
  experimental?: (ctx: ServiceContext) => ExperimentalStructures;
}

/** The confidence categories: the interface's names by default, the database's letters on request. */
function schemeOf(req: FastifyRequest): CategoryScheme {
  const q = (req.query as Record<string, unknown>).categories ?? process.env.BIOMIRROR_ALPHAFOLD_CATEGORIES;
  if (q === undefined || q === '' || q === 'names') return 'names';
  if (q === 'letters') return 'letters';
  throw new ServiceError(
    422,
    { detail: [{ type: 'literal_error', loc: ['query', 'categories'], msg: "Input should be 'names' or 'letters'", input: q, ctx: { expected: "'names' or 'letters'" } }] },
    JSON_TYPE,
  );
}

function acceptsGzip(req: FastifyRequest): boolean {
  const h = req.headers['accept-encoding'];
  if (typeof h !== 'string') return false;
  return h.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== 'gzip' && name?.trim() !== '*') return false;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
    return q === undefined || Number(q) > 0;
  });
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` over `size`; null when unsatisfiable, undefined when not one range. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return null;
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return null;
  return { start, end };
}

function send(req: FastifyRequest, reply: FastifyReply, d: Delivery): FastifyReply {
  reply.header('Accept-Ranges', 'bytes').header('Cache-Control', 'public, max-age=86400').header('Vary', 'Accept-Encoding').type(d.type);
  const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
  // Gzip transfer when asked for and no range is: a range counts bytes of the file itself.
  const gz = d.gzipped && !range && acceptsGzip(req);
  const tag = `"${d.tag}${gz ? '-gzip' : ''}"`;
  reply.header('ETag', tag);
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.split(',').some((t) => t.trim() === tag || t.trim() === `W/${tag}` || t.trim() === '*')) return reply.code(304).send();
  if (gz) return reply.header('Content-Encoding', 'gzip').send(d.bytes);
  const body = d.gzipped ? gunzipSync(d.bytes) : d.bytes;
  if (range) {
    const ifRange = req.headers['if-range'];
    const r = typeof ifRange === 'string' && ifRange !== tag ? undefined : parseRange(range, body.length);
    if (r === null)
      return reply
        .code(416)
        .header('Content-Range', `bytes */${body.length}`)
        .type(JSON_TYPE)
        .send(JSON.stringify({ detail: 'Requested Range Not Satisfiable' }));
    if (r)
      return reply
        .code(206)
        .header('Content-Range', `bytes ${r.start}-${r.end}/${body.length}`)
        .send(body.subarray(r.start, r.end + 1));
  }
  return reply.send(body);
}

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext, opts: AlphafoldOptions = {}): void {
  const prefix = app.prefix;
  const base = (req: FastifyRequest) => `${req.protocol}://${req.host}${prefix}`;
  const experimental = opts.experimental?.(ctx) ?? noExperimentalStructures;

  jsonGet(app, '/api/prediction/:qualifier', JSON_TYPE, async (r) => predictionsJson(ctx, r.params.qualifier as string, `${r.origin}${prefix}`));

  app.get<{ Params: { file: string }; Querystring: { provider?: string } }>('/api/uniprot/summary/:file', async (req, reply) => {
    const m = /^(.+)\.json$/.exec(req.params.file);
    if (!m) throw afErrors.notFound();
    const provider = typeof req.query.provider === 'string' && req.query.provider !== '' ? req.query.provider : undefined;
    const body = await beaconsSummary(ctx, experimental, m[1] as string, base(req), `${req.protocol}://${req.host}`, provider);
    return reply.type(JSON_TYPE).send(JSON.stringify(body));
  });

  const sendExtra = async (req: FastifyRequest, reply: FastifyReply, x: ExtraName) => send(req, reply, await deliverKept(ctx, await extraFileOf(ctx, x), EXTRA_TYPES[x.kind]));

  app.get<{ Params: { name: string } }>('/files/msa/:name', async (req, reply) => {
    const x = parseMsaName(req.params.name);
    if (!x) throw afErrors.notFound();
    return sendExtra(req, reply, x);
  });

  app.get<{ Params: { name: string } }>('/files/:name', async (req, reply) => {
    const f = parseFileName(req.params.name);
    if (!f) {
      const x = parseAmName(req.params.name);
      if (!x) throw afErrors.notFound();
      return sendExtra(req, reply, x);
    }
    const scheme = f.kind === 'confidence' ? schemeOf(req) : 'names';
    const row = await modelOfFile(ctx, f);
    return send(req, reply, await deliver(ctx, f, row, scheme));
  });

  // A request for the file host's root or an unknown API path gets the service's 404 body.
  app.get('/files/', async () => {
    throw detail(404, 'Not Found');
  });
}
