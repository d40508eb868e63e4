import type { FastifyInstance, FastifyReply } from 'fastify';
import { jsonGet } from '../../../core/http/direct.js';
import type { ServiceContext } from '../../types.js';
import { PART_ID, PdbData, type Doc } from '../store/pdb-data.js';
import { holdingsStatus, MAX_STATUS_IDS } from './holdings.js';
import type { ObjectKind } from '../documents/index.js';
import { dataErrors } from '../errors.js';
import { runGraphQL } from './graphql/execute.js';
import { isSchemaObject, schemaText } from '../documents/schema.js';
import { documentJson } from '../documents/float-json.js';

const JSON_TYPE = 'application/json';
// What Fastify makes of JSON_TYPE for a text body; bytes are sent with it as it is.
const JSON_UTF8 = 'application/json; charset=utf-8';

function send(reply: FastifyReply, body: string | Doc | Doc[]): FastifyReply {
  return reply.type(JSON_TYPE).send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** `polymer_entity/4HHB_1`: the form some documentation writes, beside the real slash form. */
function splitUnderscore(id: string): { entry: string; key: string } | undefined {
  const i = id.lastIndexOf('_');
  return i > 0 && i < id.length - 1 ? { entry: id.slice(0, i), key: id.slice(i + 1) } : undefined;
}

const ENTITY_KINDS: ObjectKind[] = ['polymer_entity', 'branched_entity', 'nonpolymer_entity'];
const INSTANCE_KINDS: ObjectKind[] = ['polymer_entity_instance', 'branched_entity_instance', 'nonpolymer_entity_instance'];

/** The Data API host: REST core objects, holdings, schemas and GraphQL. */
export function dataRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const data = new PdbData(ctx.db, ctx.generations);

  jsonGet(app, '/rest/v1/core/entry/:id', JSON_UTF8, async (r) => {
    const id = r.params.id as string;
    const body = await data.entryBody(id);
    if (body === undefined) throw dataErrors.notFound('entry', id);
    return body;
  });

  const part = async (kind: ObjectKind, entry: string, key: string) => {
    const doc = await data.part(kind, entry, key);
    if (!doc) throw dataErrors.notFound(kind, PART_ID[kind](entry.toUpperCase(), key));
    return documentJson(kind, doc);
  };
  for (const kind of [...ENTITY_KINDS, ...INSTANCE_KINDS, 'assembly' as const]) {
    jsonGet(app, `/rest/v1/core/${kind}/:entry/:key`, JSON_TYPE, (r) => part(kind, r.params.entry as string, r.params.key as string));
  }
  for (const kind of ENTITY_KINDS) {
    jsonGet(app, `/rest/v1/core/${kind}/:id`, JSON_TYPE, async (r) => {
      const s = splitUnderscore(r.params.id as string);
      if (!s) throw dataErrors.notFound(kind, r.params.id as string);
      return part(kind, s.entry, s.key);
    });
  }

  app.get<{ Params: { id: string } }>('/rest/v1/core/chemcomp/:id', async (req, reply) => {
    const doc = await data.chemComp(req.params.id);
    if (!doc) throw dataErrors.notFound('chem_comp', req.params.id);
    return send(reply, documentJson('chem_comp', doc));
  });

  app.get<{ Params: { entry: string; key: string } }>('/rest/v1/core/uniprot/:entry/:key', async (req, reply) => {
    const docs = await data.uniprotOfEntity(req.params.entry, req.params.key);
    if (!docs.length) throw dataErrors.notFound('uniprot', `${req.params.entry}_${req.params.key}`);
    return send(reply, documentJson('uniprot', docs));
  });

  app.get<{ Params: { entry: string } }>('/rest/v1/core/pubmed/:entry', async (req, reply) => {
    const doc = await data.pubmedOfEntry(req.params.entry);
    if (!doc) throw dataErrors.notFound('pubmed', req.params.entry);
    return send(reply, documentJson('pubmed', doc));
  });

  app.get('/rest/v1/holdings/current/entry_ids', async (_req, reply) => send(reply, JSON.stringify(await data.entryIds())));
  app.get('/rest/v1/holdings/current/ccd_ids', async (_req, reply) => send(reply, JSON.stringify(await data.ccdIds())));

  app.get<{ Params: { id: string } }>('/rest/v1/holdings/status/:id', async (req, reply) => {
    const [status] = await holdingsStatus(data, [req.params.id]);
    if (!status) throw dataErrors.notFound('entry', req.params.id);
    return send(reply, JSON.stringify(status));
  });
  app.get<{ Querystring: Record<string, unknown> }>('/rest/v1/holdings/status', async (req, reply) => {
    const raw = req.query.ids;
    const ids = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string').flatMap((v) => v.split(',')).filter((v) => v.trim());
    if (!ids.length) throw dataErrors.badRequest('Required parameter ids is missing');
    if (ids.length > MAX_STATUS_IDS) throw dataErrors.badRequest(`At most ${MAX_STATUS_IDS} ids per request`);
    const found = await holdingsStatus(data, ids);
    if (!found.length) throw dataErrors.notFound('entry', ids.join(','));
    return send(reply, JSON.stringify(found));
  });
  // Removed and unreleased entries are not kept by the archive load, nor DrugBank data or interfaces
  // computed: these answer the Data API's 404 for every id (see docs/compatibility.md).
  app.get<{ Params: { id: string } }>('/rest/v1/holdings/removed/:id', (req) => {
    throw dataErrors.notFound('removed entry', req.params.id);
  });
  app.get<{ Params: { id: string } }>('/rest/v1/holdings/unreleased/:id', (req) => {
    throw dataErrors.notFound('unreleased entry', req.params.id);
  });
  app.get<{ Params: { id: string } }>('/rest/v1/core/drugbank/:id', (req) => {
    throw dataErrors.notFound('drugbank', req.params.id);
  });
  app.get<{ Params: { entry: string; assembly: string; iface: string } }>('/rest/v1/core/interface/:entry/:assembly/:iface', (req) => {
    throw dataErrors.notFound('interface', `${req.params.entry}-${req.params.assembly}.${req.params.iface}`);
  });

  app.get<{ Params: { object: string } }>('/rest/v1/schema/:object', async (req, reply) => {
    const name = req.params.object;
    if (!isSchemaObject(name)) throw dataErrors.notFound('schema', name);
    return send(reply, schemaText(name));
  });

  // GraphQL answers 200 whatever went wrong, with the problems in `errors`.
  app.post<{ Body: unknown }>('/graphql', async (req, reply) => {
    const body = req.body;
    const request = body !== null && typeof body === 'object' && !Buffer.isBuffer(body) ? (body as Record<string, unknown>) : {};
    return send(reply, await runGraphQL(data, { query: request.query, variables: request.variables, operationName: request.operationName }));
  });
  app.get<{ Querystring: Record<string, unknown> }>('/graphql', async (req, reply) => {
    const q = req.query;
    return send(reply, await runGraphQL(data, { query: q.query, variables: q.variables, operationName: q.operationName }));
  });
}
