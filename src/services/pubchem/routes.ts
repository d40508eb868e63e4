/**
 * The HTTP surface: every path below /rest/pug/ and /rest/pug_view/ (GET or POST, identifiers
 * possibly in a form body) goes to the dispatcher; answers and faults are written as they come.
 * Faults of XML requests are turned into XML here, whoever raised them (including the platform's
 * rate limiter).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../types.js';
import { Conformers3d } from './chem/compute3d.js';
import { Structures } from './chem/structures.js';
import { handleConformers } from './conformers.js';
import { Data } from './data.js';
import { handlePug } from './dispatch.js';
import { pcErrors } from './errors.js';
import { throttlingControl } from './limits.js';
import type { Answer } from './output/render.js';
import { documentXml, PUG_REST_NS, PUG_VIEW_NS } from './output/xml.js';
import { Options, parsePugPath } from './request.js';
import type { Env } from './resolve.js';
import { Ledger } from './search/ledger.js';
import { ListKeys } from './search/listkeys.js';
import { MatchPool } from '../../core/chem/match-pool.js';
import { SearchQueue } from './search/queue.js';
import { Searcher } from './search/searcher.js';
import { handleSources } from './sources.js';
import { handleView } from './view.js';

export interface PubchemOptions {
  /** How long a non-fast search is waited for, so that the list key it answers with is ready at once. */
  syncBudgetMs: number;
  /** Longest a structure search may run. */
  maxSearchMs: number;
  /** How long a list key's result is kept. */
  listkeyTtlMs: number;
  /** Threads for exact structure matching. */
  matchThreads: number;
  /** Running time per client per minute (PubChem: 300 s), also spent by searches after their answer. */
  runningTimeMs: number;
  /** With Redis: run non-fast searches from a shared queue (on by default), its key prefix and lock. */
  queue: boolean;
  queuePrefix: string;
  queueLockMs: number;
  /** Queued searches this process runs at once (0: it only enqueues); the matching threads by default. */
  queueWorkers?: number;
  /** Compute 3D conformers and properties where no Compound_3D file covers a compound. */
  compute3d: boolean;
  /** Longest one computed conformer may take, milliseconds. */
  conformerMs: number;
  /** Longest one request may spend computing conformers, milliseconds. */
  conformerRequestMs: number;
  /** Threads for the RDKit work of requests (structures given in them, depictions). */
  structureThreads: number;
  /** Longest one such RDKit call may run, milliseconds. */
  structureMs: number;
}

const PUG = '/rest/pug/';
const VIEW = '/rest/pug_view/';

function pathOf(req: FastifyRequest): string {
  return (req.url.split('?')[0] ?? '').replace(/\/+$/, '');
}

function send(reply: FastifyReply, a: Answer): FastifyReply {
  if (a.headers) reply.headers(a.headers);
  return reply.code(a.status).type(a.type).send(a.body);
}

/** Whether a request asks for XML (in its path, or by Accept when the path names no output). */
function wantsXml(req: FastifyRequest): boolean {
  const last = pathOf(req).split('/').pop()?.toUpperCase() ?? '';
  if (last === 'XML') return true;
  if (['JSON', 'JSONP', 'CSV', 'TXT', 'SDF', 'PNG', 'ASNT', 'ASNB'].includes(last)) return false;
  return /xml/i.test(String(req.headers.accept ?? ''));
}

export function pubchemRoutes(opts: PubchemOptions) {
  return async function routes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
    const data = new Data(ctx);
    const pool = new MatchPool(opts.matchThreads);
    const listkeys = new ListKeys(ctx.db, opts.listkeyTtlMs);
    const conformers = new Conformers3d({ enabled: opts.compute3d, perCompoundMs: opts.conformerMs, perRequestMs: opts.conformerRequestMs, threads: 1 });
    const structures = new Structures({ threads: opts.structureThreads, callMs: opts.structureMs });
    const ledger = new Ledger();
    const queue =
      ctx.redisUrl && opts.queue
        ? new SearchQueue({ redisUrl: ctx.redisUrl, prefix: opts.queuePrefix, concurrency: opts.queueWorkers ?? opts.matchThreads, lockMs: opts.queueLockMs }, ctx.log)
        : undefined;
    const searcher = new Searcher(pool, structures, listkeys, ledger, opts, ctx.log, queue);
    if (opts.queueWorkers !== 0) queue?.consume(async (job) => searcher.runQueued(job, await data.compounds()));
    let warmed: number | undefined;

    app.addHook('onClose', async () => {
      await data.close();
      await queue?.close();
      await pool.close();
      await conformers.close();
      await structures.close();
    });

    // Background search time counts against the running-time budget too (the platform charges each
    // request's own). The platform's limiter has run by now and set the header when limits are on.
    app.addHook('preHandler', async (req, reply) => {
      if (!reply.hasHeader('x-throttling-control')) return;
      const used = ledger.used(req.ip);
      if (used >= opts.runningTimeMs) {
        reply.header('X-Throttling-Control', throttlingControl(0, 1, false, true));
        throw pcErrors.busy(60, `The running time of this client's searches exceeds ${opts.runningTimeMs / 1000} seconds per minute`);
      }
    });

    app.addHook('onSend', async (req, reply, payload) => {
      // Without limits every budget is untouched; the header is still on every answer, as PubChem's is.
      if (!reply.hasHeader('x-throttling-control')) reply.header('X-Throttling-Control', throttlingControl(0, 0, false, false));
      // PubChem's JSON (answers and faults alike) is `application/json`, without the charset Fastify adds.
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && /^application\/json;/i.test(type)) reply.header('content-type', 'application/json');
      if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.startsWith('{"Fault"') || !wantsXml(req)) return payload;
      reply.type('application/xml');
      return documentXml(JSON.parse(payload) as Record<string, unknown>, pathOf(req).includes(VIEW) ? PUG_VIEW_NS : PUG_REST_NS);
    });

    const env = (req: FastifyRequest): Env => ({ data, searcher, listkeys, conformers, structures, client: req.ip, log: ctx.log });

    // The key file of newly served data is opened (or written, when missing) as soon as a request notices it.
    const warm = async () => {
      const c = await data.compounds();
      if (c && c.gen !== warmed) {
        warmed = c.gen;
        c.keys().catch((err: unknown) => {
          if (!data.closed) ctx.log.error({ err }, 'opening the key file failed');
        });
      }
    };

    // And at start, so the first search after a restart does not wait for it.
    app.addHook('onReady', async () => {
      warm().catch((err: unknown) => {
        if (!data.closed) ctx.log.error({ err }, 'opening the key file failed');
      });
    });

    const pug = async (req: FastifyRequest, reply: FastifyReply) => {
      await warm();
      const path = req.url.split('?')[0] ?? '';
      const at = path.indexOf(PUG);
      const rest = at < 0 ? '' : path.slice(at + PUG.length);
      const body = req.body !== null && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : undefined;
      const options = new Options(req.query as Record<string, unknown>, body);
      if (/^sources(\/|$)/i.test(rest)) return send(reply, await handleSources(data, rest.slice('sources'.length), options, req.headers.accept));
      if (/^conformers(\/|$)/i.test(rest)) return send(reply, await handleConformers(data, rest.slice('conformers'.length), options, req.headers.accept));
      const parsed = parsePugPath(rest, options, req.headers.accept);
      return send(reply, await handlePug(env(req), parsed));
    };

    const view = async (req: FastifyRequest, reply: FastifyReply) => {
      const path = req.url.split('?')[0] ?? '';
      const rest = path.slice(path.indexOf(VIEW) + VIEW.length);
      const heading = new Options(req.query as Record<string, unknown>).get('heading');
      return send(reply, await handleView(data, structures, rest, heading));
    };

    app.route({ method: ['GET', 'POST'], url: '/rest/pug/*', handler: pug });
    app.route({ method: ['GET', 'POST'], url: '/rest/pug', handler: async () => Promise.reject(pcErrors.noIdentifier('domain')) });
    app.route({ method: ['GET', 'POST'], url: '/rest/pug_view/*', handler: view });
  };
}
