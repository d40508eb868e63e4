/** HTTP of the protocols API and the PDF view: read the request, authenticate, call a handler, write JSON or PDF. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Query } from '../../core/http/params.js';
import type { ServiceContext } from '../types.js';
import { authenticate, authenticateOptional, type Access } from './auth.js';
import { protoCatalogue } from './errors.js';
import type { Doc } from './extract.js';
import { createProtocol, getClient, getMaterials, getProtocol, getSteps, listHandler, protocolPdf, publishProtocol, updateProtocol } from './handlers.js';
import { registerOAuthRoutes } from './oauth-routes.js';
import { parseFormat, parseList } from './params.js';

const JSON_TYPE = 'application/json; charset=utf-8';

type Op = (access: Access, ref: string, q: Query, body: unknown) => Promise<Doc>;

/** `{id|uri|doi}[/sub-resource]`; a DOI has slashes of its own, so the sub-resource is the last segment. */
const SUB = /^(.+?)(?:\/(steps|materials|publish))?\/?$/;

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  registerOAuthRoutes(app, ctx);
  // Every answer is typed exactly (no sniffing); an answer to a request that carries credentials
  // (a bearer token, a session cookie) holds someone's private content and is never stored.
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    if (req.headers.authorization !== undefined || req.headers.authentication !== undefined || req.headers.cookie !== undefined) {
      const cc = String(reply.getHeader('cache-control') ?? '');
      if (!/no-store/.test(cc)) reply.header('Cache-Control', cc ? `${cc}, no-store` : 'no-store');
    }
    return payload;
  });
  const json = (reply: FastifyReply, body: Doc) => reply.type(JSON_TYPE).send(JSON.stringify(body));

  // The operations on one protocol, by method and sub-resource.
  const OPS: Record<string, Record<string, Op>> = {
    GET: {
      '': (a, ref, q) => getProtocol(ctx, a, ref, parseFormat(q)),
      steps: (a, ref, q) => getSteps(ctx, a, ref, parseFormat(q)),
      materials: (a, ref) => getMaterials(ctx, a, ref),
    },
    POST: { publish: (a, ref) => publishProtocol(ctx, a, ref) },
    PUT: { '': (a, ref, _q, body) => updateProtocol(ctx, a, ref, body) },
    PATCH: { '': (a, ref, _q, body) => updateProtocol(ctx, a, ref, body) },
  };

  const onProtocol = async (req: FastifyRequest, reply: FastifyReply) => {
    const rest = (req.params as { '*'?: string })['*'] ?? '';
    const m = SUB.exec(rest);
    const byMethod = Object.hasOwn(OPS, req.method) ? OPS[req.method] : undefined;
    const sub = m?.[2] ?? '';
    const op = m?.[1] && byMethod && Object.hasOwn(byMethod, sub) ? byMethod[sub] : undefined;
    if (!m?.[1] || !op) throw protoCatalogue.routeNotFound(req.method, req.url.split('?')[0] ?? req.url);
    const access = await authenticate(ctx.db, req.headers);
    return json(reply, await op(access, m[1], req.query as Query, req.body));
  };

  app.get('/api/v3/protocols', async (req, reply) => {
    const access = await authenticate(ctx.db, req.headers);
    return json(reply, await listHandler(ctx, access, parseList(req.query as Query)));
  });
  app.post('/api/v3/protocols', async (req, reply) => {
    const access = await authenticate(ctx.db, req.headers);
    return json(reply, await createProtocol(ctx, access, req.body));
  });
  app.get('/api/v3/protocols/*', onProtocol);
  app.post('/api/v3/protocols/*', onProtocol);
  app.put('/api/v3/protocols/*', onProtocol);
  app.patch('/api/v3/protocols/*', onProtocol);

  app.get<{ Params: { clientId: string } }>('/api/v3/oauth/clients/:clientId', async (req, reply) => {
    const access = await authenticate(ctx.db, req.headers);
    return json(reply, await getClient(ctx, access, req.params.clientId));
  });

  app.get<{ Params: { file: string } }>('/view/:file', async (req, reply) => {
    const file = req.params.file;
    if (!file.endsWith('.pdf')) throw protoCatalogue.routeNotFound(req.method, req.url.split('?')[0] ?? req.url);
    const uri = file.slice(0, -4);
    const access = await authenticateOptional(ctx.db, req.headers);
    const pdf = await protocolPdf(ctx, access, uri);
    return reply.type('application/pdf').header('Content-Disposition', `inline; filename="${uri}.pdf"`).header('Cache-Control', 'private, no-store').send(pdf);
  });
}
