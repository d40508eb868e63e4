/** The registry's HTTP surface: read the request, call a handler, write JSON or CSV. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { RouteOnly, jsonGet } from '../../core/http/direct.js';
import type { ServiceContext } from '../types.js';
import { csvColumns, csvHeader, csvStudy } from './csv.js';
import { buildTrie, prune } from './fields.js';
import { getStudy, searchStudies, version } from './handlers.js';
import { registryDocument } from './oas.js';
import { parseFields, parseFormat, parseMarkup, parseNctId, parseSearch } from './params.js';

const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';

/** Studies as stored are sent as stored; `fields` re-reads them to keep only the asked branches. */
function studyJson(doc: string, fields: string[] | undefined): string {
  if (!fields) return doc;
  const kept = prune(JSON.parse(doc), buildTrie(fields));
  return JSON.stringify(kept ?? {});
}

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  jsonGet(app, '/api/v2/studies', JSON_TYPE, async (r) => {
    const input = parseSearch(r.query);
    const page = await searchStudies(ctx, input);
    if (input.format === 'csv') {
      const cols = csvColumns(input.fields);
      let body = page.firstPage ? csvHeader(cols) : '';
      for (const d of page.docs) body += csvStudy(JSON.parse(d), cols);
      return new RouteOnly((reply) => {
        if (page.nextPageToken) reply.header('x-next-page-token', page.nextPageToken);
        reply.header('x-total-count', String(page.totalCount));
        return reply.type(CSV_TYPE).send(body);
      });
    }
    const studies = page.docs.map((d) => studyJson(d, input.fields)).join(',');
    // The next page's token under the registry's name and under the spec's.
    const token = page.nextPageToken ? `,"nextPageToken":${JSON.stringify(page.nextPageToken)},"pageToken":${JSON.stringify(page.nextPageToken)}` : '';
    return `{"studies":[${studies}],"totalCount":${page.totalCount}${token}}`;
  });

  jsonGet(app, '/api/v2/studies/:nctId', JSON_TYPE, async (r) => {
    const q = r.query;
    const given = r.params.nctId as string;
    const nctId = parseNctId(given);
    const format = parseFormat(q);
    parseMarkup(q);
    const fields = parseFields(q, format);
    const found = await getStudy(ctx, nctId);
    if (found.kind === 'moved') return new RouteOnly((reply) => redirect(reply, r.url, given, found.nctId));
    if (format === 'csv') {
      const cols = csvColumns(fields);
      const body = csvHeader(cols) + csvStudy(JSON.parse(found.doc), cols);
      return new RouteOnly((reply) => reply.type(CSV_TYPE).send(body));
    }
    return studyJson(found.doc, fields);
  });

  app.get('/api/v2/version', async () => version(ctx));
  // Where the registry publishes its OpenAPI document.
  app.get('/api/oas/v2', async (_req, reply) => reply.type('application/yaml').send(await registryDocument()));
}

function redirect(reply: FastifyReply, url: string, given: string, target: string): FastifyReply {
  const [path = '', qs] = url.split('?');
  const to = path.slice(0, path.length - encodeURIComponent(given).length) + target + (qs ? `?${qs}` : '');
  return reply.code(301).header('location', to).send();
}
