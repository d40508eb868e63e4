/**
 * One function per operation of the protocols API. No HTTP here: inputs are checked values and
 * the caller's access, outputs are the upstream's objects, failures come from the catalogue.
 */
import { tableSet, type TableSet } from '../../core/ingest/dataset.js';
import type { ServiceContext } from '../types.js';
import { findClient, userById } from './accounts.js';
import type { Access } from './auth.js';
import { formatProtocol, formatSteps, type ContentFormat } from './content.js';
import { asBody, newProtocol, publishedProtocol, updatedProtocol, uriFor } from './documents.js';
import { protoErrors } from './errors.js';
import { URI, columnsOf, doiKey, type Doc } from './extract.js';
import { listProtocols, type ListQuery } from './list.js';
import { renderPdf } from './pdf.js';
import { TABLE_PREFIX, findProtocol, nextLocalId, saveLocal, uriTaken, type Found, type Ref } from './store.js';

export const SERVICE = 'protocols';
export const DATASET = 'protocols';

export async function generation(ctx: ServiceContext): Promise<TableSet | undefined> {
  const gen = await ctx.generations.active(SERVICE, DATASET);
  return gen === undefined ? undefined : tableSet(TABLE_PREFIX, gen);
}

/** A protocol named by its id, its uri or its DOI (with or without resolver). */
export function parseRef(raw: string): Ref {
  if (/^\d{1,15}$/.test(raw)) return { by: 'id', id: Number(raw) };
  const doi = doiKey(raw);
  if (doi) return { by: 'doi', key: doi };
  if (URI.test(raw)) return { by: 'uri', uri: raw };
  throw protoErrors.protocolNotFound(raw);
}

const envelope = (access: Access | undefined, body: Doc): Doc => ({ ...body, status_code: 0, ...(access?.warning ?? {}) });

async function visible(found: Found, access: Access | undefined): Promise<boolean> {
  if (found.public === 1) return true;
  if (!access || found.owner === null) return false;
  return (await access.owners()).has(found.owner);
}

/** The protocol if this caller may see it; a private one it may not see is "not found", like a missing one. */
async function visibleProtocol(ctx: ServiceContext, access: Access | undefined, ref: Ref, raw: string): Promise<Found> {
  const found = await findProtocol(ctx.db, await generation(ctx), ref);
  if (!found || !(await visible(found, access))) throw protoErrors.protocolNotFound(raw);
  return found;
}

export interface ListInput extends ListQuery {
  fields: string[] | undefined;
  format: ContentFormat;
}

function pick(doc: Doc, fields: string[] | undefined): Doc {
  if (!fields) return doc;
  return Object.fromEntries(fields.filter((f) => f in doc).map((f) => [f, doc[f]]));
}

export async function listHandler(ctx: ServiceContext, access: Access, input: ListInput): Promise<Doc> {
  const username = access.token.username;
  const owners = input.filter === 'shared_with_user' ? await access.owners() : new Set([username]);
  const { docs, total } = await listProtocols(ctx.db, await generation(ctx), input, { username, owners });
  const items = docs.map((d) => pick(formatProtocol(JSON.parse(d) as Doc, input.format), input.fields));
  return envelope(access, { items, total, total_pages: Math.ceil(total / input.pageSize) });
}

export async function getProtocol(ctx: ServiceContext, access: Access, raw: string, format: ContentFormat): Promise<Doc> {
  const found = await visibleProtocol(ctx, access, parseRef(raw), raw);
  return envelope(access, { protocol: formatProtocol(JSON.parse(found.doc) as Doc, format) });
}

export async function getSteps(ctx: ServiceContext, access: Access, raw: string, format: ContentFormat): Promise<Doc> {
  const found = await visibleProtocol(ctx, access, parseRef(raw), raw);
  const doc = JSON.parse(found.doc) as Doc;
  return envelope(access, { steps: formatSteps(Array.isArray(doc.steps) ? doc.steps : [], format) });
}

export async function getMaterials(ctx: ServiceContext, access: Access, raw: string): Promise<Doc> {
  const found = await visibleProtocol(ctx, access, parseRef(raw), raw);
  const doc = JSON.parse(found.doc) as Doc;
  return envelope(access, { materials: Array.isArray(doc.materials) ? doc.materials : [] });
}

function mayWrite(access: Access): void {
  if (access.token.scope !== 'readwrite') throw protoErrors.insufficientScope();
}

async function save(ctx: ServiceContext, doc: Doc, origin: 'api' | 'dataset', insertOnly: boolean): Promise<boolean> {
  const cols = columnsOf(doc);
  if (typeof cols === 'string') throw protoErrors.invalidBody(cols);
  return ctx.db.transaction((tx) => saveLocal(tx, { doc: JSON.stringify(doc), cols }, origin, insertOnly));
}

export async function createProtocol(ctx: ServiceContext, access: Access, rawBody: unknown): Promise<Doc> {
  mayWrite(access);
  const body = asBody(rawBody);
  const user = await userById(ctx.db, access.token.userId);
  if (!user) throw protoErrors.badToken();
  const gen = await generation(ctx);
  // Ids and uris are unique over both sources; a concurrent create taking the same id is retried.
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = await nextLocalId(ctx.db);
    const title = typeof body.title === 'string' ? body.title : '';
    let uri = uriFor(title);
    while (await uriTaken(ctx.db, gen, uri)) uri = uriFor(title);
    const doc = newProtocol(id, uri, user, body);
    if (await save(ctx, doc, 'api', true)) return envelope(access, { protocol: doc });
  }
  throw new Error('could not allocate a protocol id');
}

async function ownProtocol(ctx: ServiceContext, access: Access, raw: string): Promise<Found> {
  const found = await visibleProtocol(ctx, access, parseRef(raw), raw);
  mayWrite(access);
  if (found.owner !== access.token.username) throw protoErrors.notOwner();
  return found;
}

export async function updateProtocol(ctx: ServiceContext, access: Access, raw: string, rawBody: unknown): Promise<Doc> {
  const found = await ownProtocol(ctx, access, raw);
  const doc = updatedProtocol(JSON.parse(found.doc) as Doc, asBody(rawBody), found.id);
  await save(ctx, doc, found.origin === 'api' ? 'api' : 'dataset', false);
  return envelope(access, { protocol: doc });
}

export async function publishProtocol(ctx: ServiceContext, access: Access, raw: string): Promise<Doc> {
  const found = await ownProtocol(ctx, access, raw);
  if (found.public === 1) throw protoErrors.alreadyPublished(found.id);
  const doc = publishedProtocol(JSON.parse(found.doc) as Doc);
  await save(ctx, doc, found.origin === 'api' ? 'api' : 'dataset', false);
  return envelope(access, { protocol: doc });
}

/** The PDF of a protocol by uri; without a token only public protocols. */
export async function protocolPdf(ctx: ServiceContext, access: Access | undefined, uri: string): Promise<Buffer> {
  if (!URI.test(uri)) throw protoErrors.protocolNotFound(uri);
  const found = await visibleProtocol(ctx, access, { by: 'uri', uri }, uri);
  return renderPdf(JSON.parse(found.doc) as Doc);
}

/**
 * The upstream's Get client, for the client's owner or a token issued to the client. Secrets are
 * kept as digests and cannot be shown again: `client_secret` and `token` are null.
 */
export async function getClient(ctx: ServiceContext, access: Access, clientId: string): Promise<Doc> {
  const client = await findClient(ctx.db, clientId);
  const own = client && (client.ownerId === access.token.userId || client.id === access.token.clientPk);
  if (!client || !own) throw protoErrors.clientNotFound(clientId);
  return envelope(access, {
    client: {
      client_id: client.clientId,
      client_secret: null,
      grant_type: 'authorization_code',
      scope: 'readwrite',
      redirect_url: client.redirectUris[0] ?? null,
      token: null,
      name: client.name,
      redirect_urls: client.redirectUris,
    },
  });
}
