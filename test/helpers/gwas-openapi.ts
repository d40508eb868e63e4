/**
 * A validator for the part of OpenAPI 3.0 the GWAS Catalog's v2 document uses ($ref, object
 * properties, arrays with uniqueItems, string/integer/number/boolean), strict about members a
 * schema does not name, and aware of the HAL envelopes the real service sends instead of the
 * document's `links`/`content` lists (see docs/compatibility.md).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
  uniqueItems?: boolean;
}

interface Parameter {
  name: string;
  in: 'query' | 'path';
  schema: Schema & { enum?: string[]; default?: unknown };
}

export interface Operation {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export const V2_DOC = fileURLToPath(new URL('../../src/services/gwas/v2/reference/rest-api-doc.yaml', import.meta.url));

export function loadV2Doc(): OpenApi {
  return parse(readFileSync(V2_DOC, 'utf8')) as OpenApi;
}

type Json = Record<string, unknown>;

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

export class Validator {
  constructor(
    readonly doc: OpenApi,
    /** Members a schema does not name that the service sends anyway, by schema name. */
    readonly extras: Readonly<Record<string, readonly string[]>> = {},
  ) {}

  schema(name: string): Schema {
    const s = this.doc.components.schemas[name];
    if (!s) throw new Error(`no schema ${name}`);
    return s;
  }

  /** Problems of `value` against `schema` (named `name` when it came through a $ref). */
  check(value: unknown, schema: Schema, at = '$', name?: string): string[] {
    if (schema.$ref) return this.check(value, this.schema(refName(schema.$ref)), at, refName(schema.$ref));
    const type = schema.type ?? (schema.properties ? 'object' : undefined);
    const errs: string[] = [];
    switch (type) {
      case 'object': {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: expected an object`];
        for (const [k, v] of Object.entries(value as Json)) {
          const prop = schema.properties?.[k];
          if (k === '_links' && schema.properties?.links) errs.push(...halLinks(v, `${at}._links`));
          else if (prop) errs.push(...this.check(v, prop, `${at}.${k}`));
          else if (!(name && this.extras[name]?.includes(k))) errs.push(`${at}.${k}: not in schema ${name ?? '(inline)'}`);
        }
        return errs;
      }
      case 'array': {
        if (!Array.isArray(value)) return [`${at}: expected an array`];
        value.forEach((v, i) => errs.push(...(schema.items ? this.check(v, schema.items, `${at}[${i}]`) : [])));
        if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) errs.push(`${at}: items not unique`);
        return errs;
      }
      case 'string':
        return typeof value === 'string' ? [] : [`${at}: expected a string, got ${JSON.stringify(value)}`];
      case 'integer':
        return Number.isInteger(value) ? [] : [`${at}: expected an integer, got ${JSON.stringify(value)}`];
      case 'number':
        return typeof value === 'number' ? [] : [`${at}: expected a number, got ${JSON.stringify(value)}`];
      case 'boolean':
        return typeof value === 'boolean' ? [] : [`${at}: expected a boolean, got ${JSON.stringify(value)}`];
      default:
        return [];
    }
  }

  /**
   * A response body against the document's schema for it: a `page-*` schema as a HAL page, a
   * `collection-*` schema as a HAL collection (items checked against the item schema), any other as
   * one resource. Returns the problems and the `_embedded` relation found.
   */
  response(body: unknown, schema: Schema): { errors: string[]; relation?: string } {
    const name = schema.$ref ? refName(schema.$ref) : '';
    if (!name.startsWith('page-') && !name.startsWith('collection-')) return { errors: this.check(body, schema) };
    const item = (this.schema(name).properties?.content?.items ?? {}) as Schema;
    const errs: string[] = [];
    const b = body as Json;
    const allowed = name.startsWith('page-') ? ['_embedded', '_links', 'page'] : ['_embedded', '_links'];
    for (const k of Object.keys(b)) if (!allowed.includes(k)) errs.push(`$.${k}: not in a HAL ${name.startsWith('page-') ? 'page' : 'collection'}`);
    if (name.startsWith('page-')) {
      const page = b.page as Json | undefined;
      if (!page || Object.keys(page).join() !== 'size,totalElements,totalPages,number' || !Object.values(page).every(Number.isInteger)) {
        errs.push(`$.page: expected {size, totalElements, totalPages, number}, got ${JSON.stringify(page)}`);
      }
      errs.push(...halLinks(b._links, '$._links'));
    }
    let relation: string | undefined;
    if (b._embedded !== undefined) {
      const e = b._embedded as Json;
      const keys = Object.keys(e);
      if (keys.length !== 1 || !Array.isArray(e[keys[0] as string])) errs.push(`$._embedded: expected one list, got ${keys.join(', ')}`);
      relation = keys[0];
      const list = (e[relation as string] ?? []) as unknown[];
      if (list.length === 0) errs.push('$._embedded: an empty list (the service leaves _embedded out)');
      list.forEach((v, i) => errs.push(...this.check(v, item, `$._embedded.${relation}[${i}]`)));
    }
    return { errors: errs, relation };
  }
}

/** HAL links: each relation an `{href, templated?}` or a list of them. */
export function halLinks(v: unknown, at: string): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return [`${at}: expected an object of links`];
  const errs: string[] = [];
  const one = (l: unknown, where: string) => {
    const o = l as Json;
    if (typeof o !== 'object' || o === null || typeof o.href !== 'string') errs.push(`${where}: expected {href}`);
    else if (Object.keys(o).some((k) => k !== 'href' && k !== 'templated') || (o.templated !== undefined && o.templated !== true)) errs.push(`${where}: unexpected link members`);
  };
  for (const [rel, l] of Object.entries(v as Json)) {
    if (Array.isArray(l)) l.forEach((x, i) => one(x, `${at}.${rel}[${i}]`));
    else one(l, `${at}.${rel}`);
  }
  return errs;
}
