/** The preprint service's HTTP surface: read the path, call a handler, write the envelope or the file. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { RouteOnly, jsonGet } from '../../core/http/direct.js';
import type { ServiceContext } from '../types.js';
import { bxErrors } from './errors.js';
import { CONTENT_TYPES, contentAddress } from './fulltext.js';
import { details, fullText, pubs, type Answer } from './handlers.js';
import { checkServer, parseRequest, type Endpoint, type Request } from './paths.js';
import { JSON_TYPE, render } from './render.js';

type Params = { server: string; '*': string };

const HANDLERS: Record<Endpoint, (ctx: ServiceContext, req: Request) => Promise<Answer>> = { details, pubs };

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const endpoint of ['details', 'pubs'] as const) {
    jsonGet(app, `/${endpoint}/:server/*`, JSON_TYPE, async (r) => {
      const params = r.params as Params;
      const segments = params['*'].split('/');
      checkServer(params.server, segments);
      const request = parseRequest(endpoint, segments, r.query);
      const answer = await HANDLERS[endpoint](ctx, request);
      // Full-text links in records lead here: the origin the client used, plus the mount (none on
      // a port of its own).
      const { body, type } = render(request.format, answer.message, answer.docs, `${r.origin}${app.prefix}`);
      return type === JSON_TYPE ? body : new RouteOnly((reply) => reply.type(type).send(body));
    });
  }

  app.get<{ Params: { '*': string } }>('/content/*', async (req, reply: FastifyReply) => {
    const address = contentAddress(req.params['*']);
    if (!address) {
      throw bxErrors.fileNotFound(`/content/${req.params['*']} is not a full-text address ({doi}v{version}, {doi}v{version}.full, .full.pdf or .source.xml)`);
    }
    const content = await fullText(ctx, address.doi, address.version, address.kind);
    return reply.type(CONTENT_TYPES[address.kind]).send(content);
  });
}
