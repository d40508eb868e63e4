/**
 * Protocol documents written through the API: what a create or update body may hold, checked,
 * and turned into the upstream's Protocol object (steps of components, materials as reagents).
 */
import { randomBytes } from 'node:crypto';
import { userObject, type User } from './accounts.js';
import { protoErrors } from './errors.js';
import type { Doc } from './extract.js';

type Body = Record<string, unknown>;

const MAX_TEXT = 100_000;
const MAX_ITEMS = 500;

const guid = () => randomBytes(16).toString('hex').toUpperCase();
const nowSeconds = () => Math.floor(Date.now() / 1000);
const noImage = () => ({ source: null, placeholder: null });

function text(body: Body, name: string, max = MAX_TEXT): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  const s = Array.isArray(v) ? v[0] : v;
  if (typeof s !== 'string') throw protoErrors.invalidBody(`"${name}" must be a string`);
  if (s.length > max) throw protoErrors.invalidBody(`"${name}" is longer than ${max} characters`);
  return s;
}

/** A form sends one value per field; JSON may send arrays. Both become arrays here. */
function items(body: Body, name: string): unknown[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  const a = Array.isArray(v) ? v : typeof v === 'string' ? [v] : undefined;
  if (!a) throw protoErrors.invalidBody(`"${name}" must be an array`);
  if (a.length > MAX_ITEMS) throw protoErrors.invalidBody(`"${name}" has more than ${MAX_ITEMS} items`);
  return a;
}

function person(v: unknown, where: string): Doc {
  if (typeof v === 'string' && v.trim()) return { name: v.trim(), affiliation: null, username: null, link: null, image: noImage() };
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Doc).name === 'string' && ((v as Doc).name as string).trim()) {
    const o = v as Doc;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : null);
    return { name: (o.name as string).trim(), affiliation: str('affiliation'), username: str('username'), link: str('link'), image: noImage() };
  }
  throw protoErrors.invalidBody(`${where} must be a name or an object with a "name"`);
}

function component(typeId: number, title: string, source: Doc, id: number, prev: { id: number; guid: string | null }): Doc {
  return { id, guid: guid(), previous_id: prev.id, previous_guid: prev.guid, type_id: typeId, title, source };
}

/** A step from a string (its description, HTML or plain text), a step object as the API returns it, or {title, description}. */
function step(v: unknown, i: number, baseId: number, prev: { id: number; guid: string | null }): Doc {
  const where = `steps[${i}]`;
  const id = baseId + i + 1;
  const g = guid();
  const head = { id, guid: g, previous_id: prev.id, previous_guid: prev.guid, modified_on: nowSeconds() };
  if (typeof v === 'string') {
    if (!v.trim()) throw protoErrors.invalidBody(`${where} is empty`);
    return { ...head, components: [component(1, 'Description', { description: v }, id * 100 + 1, { id: 0, guid: null })] };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw protoErrors.invalidBody(`${where} must be a string or an object`);
  const o = v as Doc;
  if (Array.isArray(o.components)) {
    for (const [k, c] of o.components.entries()) {
      const ok = c && typeof c === 'object' && typeof (c as Doc).type_id === 'number' && (c as Doc).source && typeof (c as Doc).source === 'object';
      if (!ok) throw protoErrors.invalidBody(`${where}.components[${k}] needs a numeric "type_id" and a "source" object`);
    }
    return { ...head, ...o, id: typeof o.id === 'number' ? o.id : id, guid: typeof o.guid === 'string' ? o.guid : g };
  }
  const comps: Doc[] = [];
  let last = { id: 0, guid: null as string | null };
  const add = (typeId: number, title: string, source: Doc) => {
    const c = component(typeId, title, source, id * 100 + comps.length + 1, last);
    comps.push(c);
    last = { id: c.id as number, guid: c.guid as string };
  };
  if (typeof o.title === 'string' && o.title.trim()) add(6, 'Title', { title: o.title });
  if (typeof o.description === 'string' && o.description.trim()) add(1, 'Description', { description: o.description });
  if (comps.length === 0) throw protoErrors.invalidBody(`${where} needs a "description" (or "title", or "components")`);
  return { ...head, components: comps };
}

function material(v: unknown, i: number, baseId: number): Doc {
  const where = `materials[${i}]`;
  const o: Doc = typeof v === 'string' ? { name: v } : v && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {};
  if (typeof o.name !== 'string' || !o.name.trim()) throw protoErrors.invalidBody(`${where} must be a name or an object with a "name"`);
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  const vendor = o.vendor === undefined || o.vendor === null ? null : person(o.vendor, `${where}.vendor`);
  return {
    id: typeof o.id === 'number' ? o.id : baseId + i + 1,
    mol_weight: typeof o.mol_weight === 'number' ? o.mol_weight : 0,
    name: o.name.trim(),
    linfor: str('linfor'),
    url: str('url'),
    sku: str('sku'),
    vendor: vendor ?? { name: '', affiliation: null, username: null, link: null, image: noImage() },
  };
}

function steps(list: unknown[], protocolId: number): Doc[] {
  const out: Doc[] = [];
  let prev = { id: 0, guid: null as string | null };
  list.forEach((v, i) => {
    const s = step(v, i, protocolId * 1000, prev);
    out.push({ ...s, previous_id: prev.id, previous_guid: prev.guid });
    prev = { id: s.id as number, guid: s.guid as string };
  });
  return out;
}

/** Applies the fields a body gives to a document (all optional on update). */
function apply(doc: Doc, body: Body, id: number): Doc {
  const title = text(body, 'title', 1000);
  if (title !== undefined) {
    if (!title.trim()) throw protoErrors.invalidBody('"title" is empty');
    doc.title = title.trim();
  }
  const description = text(body, 'description');
  if (description !== undefined) doc.description = description;
  const link = text(body, 'link', 2000);
  if (link !== undefined) doc.link = link;
  const authors = items(body, 'authors');
  if (authors) doc.authors = authors.map((a, i) => person(a, `authors[${i}]`));
  const s = items(body, 'steps');
  if (s) {
    doc.steps = steps(s, id);
    doc.number_of_steps = (doc.steps as Doc[]).length;
  }
  const m = items(body, 'materials');
  if (m) doc.materials = m.map((x, i) => material(x, i, id * 100));
  doc.changed_on = nowSeconds();
  return doc;
}

const ALLOWED = new Set(['title', 'description', 'link', 'authors', 'steps', 'materials']);

function checkFields(body: Body): void {
  const extra = Object.keys(body).filter((k) => !ALLOWED.has(k));
  if (extra.length) throw protoErrors.invalidBody(`unknown field "${extra[0]}"; a protocol takes ${[...ALLOWED].join(', ')}`);
}

export function asBody(body: unknown): Body {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw protoErrors.invalidBody('send a JSON object or a form');
  return body as Body;
}

/** A new private protocol of `user`, in the upstream's field order. */
export function newProtocol(id: number, uri: string, user: User, body: Body): Doc {
  checkFields(body);
  if (!text(body, 'title', 1000)?.trim()) throw protoErrors.missingParameter('title');
  const now = nowSeconds();
  const creator = userObject(user);
  const doc: Doc = {
    id,
    title: '',
    image: noImage(),
    doi: null,
    uri,
    published_on: 0,
    created_on: now,
    changed_on: now,
    creator,
    public: 0,
    versions: [],
    version_id: 0,
    link: '',
    number_of_steps: 0,
    authors: [{ ...creator }],
    description: '',
    steps: [],
    materials: [],
  };
  return apply(doc, body, id);
}

export function updatedProtocol(doc: Doc, body: Body, id: number): Doc {
  checkFields(body);
  return apply(doc, body, id);
}

export function publishedProtocol(doc: Doc): Doc {
  return { ...doc, public: 1, published_on: nowSeconds(), changed_on: nowSeconds() };
}

/** A uri like the upstream's: the title's words and a short random code. */
export function uriFor(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  const code = randomBytes(5).toString('hex').slice(0, 7);
  return `${words || 'protocol'}-${code}`;
}
