import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../../../types.js';
import { scopeOf } from './engine.js';
import { badQuery } from '../../errors.js';
import { runQuery, type Pagers, type Runners } from './handlers.js';
import { chemicalTerminal } from './chemical.js';
import { metadataSchema } from './metadata.js';
import { seqmotifPage, seqmotifTerminal } from './seqmotif.js';
import { sequenceTerminal } from './sequence.js';
import { strucmotifTerminal } from './strucmotif.js';
import { structureTerminal } from './structure.js';

const JSON_TYPE = 'application/json';

/** The engines behind the query types that are not index lookups. */
export const RUNNERS: Runners = { seqmotif: seqmotifTerminal, sequence: sequenceTerminal, chemical: chemicalTerminal, structure: structureTerminal, strucmotif: strucmotifTerminal };
/** Engines that count and page a lone terminal's hits themselves. */
export const PAGERS: Pagers = { seqmotif: seqmotifPage };

/** The Search API host (search.rcsb.org): queries by POST body or `?json=`, and the attribute schemas. */
export function searchRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const answer = async (reply: FastifyReply, body: unknown) => {
    const res = await runQuery(ctx.db, ctx.generations, body, RUNNERS, PAGERS, reply.request.hostname);
    // No hits: 204 with an empty body, as the live service answers (clients test for it).
    if (res === undefined) return reply.code(204).send();
    return reply.type(JSON_TYPE).send(JSON.stringify(res));
  };

  app.post<{ Body: unknown }>('/rcsbsearch/v2/query', (req, reply) => answer(reply, req.body));
  app.get<{ Querystring: Record<string, unknown> }>('/rcsbsearch/v2/query', (req, reply) => {
    const json = req.query.json;
    if (typeof json !== 'string' || json.trim() === '') throw badQuery('The json parameter is required');
    let body: unknown;
    try {
      body = JSON.parse(json);
    } catch (err) {
      throw badQuery(`The json parameter is not valid JSON: ${(err as Error).message}`);
    }
    return answer(reply, body);
  });

  for (const [path, which] of [
    ['/rcsbsearch/v2/metadata/schema', 'structure'],
    ['/rcsbsearch/v2/metadata/chemical/schema', 'chemical'],
  ] as const) {
    app.get(path, async (_req, reply) => reply.type(JSON_TYPE).send(await metadataSchema(ctx.db, await scopeOf(ctx.db, ctx.generations), which)));
  }
}
