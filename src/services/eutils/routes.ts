/**
 * The HTTP surface of E-utilities: each utility answers GET and POST (form body) at `/<tool>.fcgi`
 * (the spec's {eutils_url}) and at the real service's `/entrez/eutils/<tool>.fcgi`, dispatched by a
 * table of tools. The docsum DTDs the XML declares are published under `/eutils/dtd/...`, as NCBI
 * publishes them, for clients that validate offline.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Query } from '../../core/http/params.js';
import type { ServiceContext } from '../types.js';
import { efetch } from './handlers/efetch.js';
import { egquery } from './handlers/egquery.js';
import { einfo } from './handlers/einfo.js';
import { elink } from './handlers/elink.js';
import { epost } from './handlers/epost.js';
import { esearch } from './handlers/esearch.js';
import { dtdAddresses, dtdFile, dtdNames, localDoctype } from './dtds.js';
import { espell } from './handlers/espell.js';
import { esummary } from './handlers/esummary.js';
import { Params } from './params.js';
import type { Reply } from './replies.js';

type Handler = (ctx: ServiceContext, p: Params) => Promise<Reply>;

const TOOLS: Record<string, Handler> = {
  'esearch.fcgi': esearch,
  'esummary.fcgi': esummary,
  'efetch.fcgi': efetch,
  'elink.fcgi': elink,
  'einfo.fcgi': einfo,
  'epost.fcgi': epost,
  'espell.fcgi': espell,
  'egquery.fcgi': egquery,
};

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'X-RateLimit-Limit,X-RateLimit-Remaining' };

function send(reply: FastifyReply, r: Reply): FastifyReply {
  return reply.code(r.status).headers(CORS).type(r.type).send(r.body);
}

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const prefix of ['', '/entrez/eutils']) {
    for (const [tool, handler] of Object.entries(TOOLS)) {
      app.route({
        method: ['GET', 'POST'],
        url: `${prefix}/${tool}`,
        handler: async (req: FastifyRequest, reply: FastifyReply) => {
          const body = req.body !== null && typeof req.body === 'object' ? (req.body as Query) : undefined;
          return send(reply, await handler(ctx, new Params(req.query as Query, body)));
        },
      });
    }
  }
  const dtd = async (req: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
    const text = dtdFile(req.params.file);
    if (text === undefined)
      return reply
        .code(404)
        .headers(CORS)
        .type('text/plain; charset=UTF-8')
        .send(`No DTD ${req.params.file} here; this mirror publishes ${dtdNames().join(', ')}`);
    return reply.headers(CORS).type('application/xml-dtd; charset=UTF-8').send(text);
  };
  // NCBI's paths: /eutils/dtd/<date>/<file> (and without the date), /data_specs/dtd/<file> for the
  // records' module DTDs, which name each other by relative addresses.
  for (const prefix of ['', '/eutils']) {
    app.get<{ Params: { date: string; file: string } }>(`${prefix}/dtd/:date/:file`, dtd);
    app.get<{ Params: { file: string } }>(`${prefix}/dtd/:file`, dtd);
  }
  app.get<{ Params: { file: string } }>('/data_specs/dtd/:file', dtd);
  app.get<{ Params: { file: string } }>('/entrez/query/DTD/:file', dtd);

  // Replies, errors included, name the DTDs at this server's own address.
  if (dtdAddresses() === 'local') {
    const mount = app.prefix;
    app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload !== 'string' || !/xml/.test(String(reply.getHeader('content-type') ?? ''))) return payload;
      return localDoctype(payload, `${req.protocol}://${req.host}${mount}`);
    });
  }
}
