/**
 * A validator for the JSON-Schema subset the Search API's published request schemas use (type,
 * enum, properties, required, additionalProperties: false, items, min/maxItems, minimum, maximum,
 * minProperties, pattern, format date / date-time, $ref between the files, anyOf, oneOf, allOf).
 * Written here rather than taken from a library because the subset is small and the messages
 * must name the offending key the way a user wrote it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sourcePath } from '../../../../core/files/project.js';

export type Schema = {
  $id?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  minProperties?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

export interface Violation {
  /** Where, as a dotted path from the request root (`query.nodes[1].parameters.foo`). */
  path: string;
  message: string;
}

const DIR = sourcePath('services/pdb/search/schemas/request/');

let schemas: Map<string, Schema> | undefined;

function load(): Map<string, Schema> {
  if (schemas) return schemas;
  schemas = new Map();
  for (const f of readdirSync(DIR)) if (f.endsWith('.json')) schemas.set(f, JSON.parse(readFileSync(DIR + f, 'utf8')) as Schema);
  return schemas;
}

export function requestSchema(file: string): Schema {
  const s = load().get(file);
  if (!s) throw new Error(`no vendored schema ${file}`);
  return s;
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
/**
 * The published pattern of file URLs wants a dotted host name; this server is often reached by a
 * single-label one (localhost, a container's name), so URLs with such a host are taken too.
 */
const SINGLE_LABEL_URL = /^https?:\/\/[A-Za-z0-9-]{1,63}(:\d{1,5})?(\/[^\s]*)?$/;
/** Each published pattern compiled once (there are a few dozen; every request tests some). */
const compiled = new Map<string, RegExp>();
function patternOf(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) compiled.set(pattern, (re = new RegExp(pattern)));
  return re;
}
const matches = (pattern: string, value: string) => patternOf(pattern).test(value) || (pattern.startsWith('https?:') && SINGLE_LABEL_URL.test(value));
/** The published base64 pattern, for file contents (deprecated `data`): checked in one pass at any length. */
const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
const isBase64 = (v: string) => v.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(v);

/** Patterns run on user strings; longer strings are refused before a pattern sees them. */
const MAX_PATTERN_INPUT = 4096;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(want: string, v: unknown): boolean {
  const got = typeOf(v);
  return want === got || (want === 'number' && got === 'integer');
}

const join = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);
const shown = (v: unknown) => (typeof v === 'string' ? `"${v.length > 80 ? v.slice(0, 80) + '…' : v}"` : JSON.stringify(v));

/**
 * Every violation of `value` against `schema`; empty when it conforms. With `first`, the first
 * violation found alone (enough to tell whether a branch of an anyOf conforms: most do not).
 */
export function validate(schema: Schema, value: unknown, path = '', first = false): Violation[] {
  if (schema.$ref) return validate(requestSchema(schema.$ref), value, path, first);
  const out: Violation[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeMatches(t, value))) return [{ path, message: `${path || 'request'} must be of type ${types.join(' or ')}, found ${typeOf(value)}` }];
  }
  if (schema.enum && !schema.enum.some((e) => e === value)) {
    out.push({ path, message: `${path || 'value'} has the value ${shown(value)}, which is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}` });
  }
  if (first && out.length) return out;
  if (typeof value === 'string') {
    if (schema.pattern !== undefined || schema.format !== undefined) {
      if (schema.pattern === BASE64) {
        if (!isBase64(value)) out.push({ path, message: `${path} is not base64` });
      } else if (value.length > MAX_PATTERN_INPUT && schema.pattern !== undefined) out.push({ path, message: `${path} is too long (${value.length} characters)` });
      else if (schema.pattern !== undefined && !matches(schema.pattern, value)) out.push({ path, message: `${path} ${shown(value)} does not match the expected pattern` });
      else if (schema.format === 'date' && !DATE.test(value)) out.push({ path, message: `${path} ${shown(value)} is not a date (yyyy-MM-dd)` });
      else if (schema.format === 'date-time' && !DATE_TIME.test(value)) out.push({ path, message: `${path} ${shown(value)} is not an ISO 8601 date-time` });
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push({ path, message: `${path} must be at least ${schema.minimum}, found ${value}` });
    if (schema.maximum !== undefined && value > schema.maximum) out.push({ path, message: `${path} must be at most ${schema.maximum}, found ${value}` });
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push({ path, message: `${path} must have at least ${schema.minItems} item(s)` });
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push({ path, message: `${path} must have at most ${schema.maxItems} item(s)` });
    if (first && out.length) return out;
    const items = schema.items;
    if (items) {
      for (let i = 0; i < value.length; i++) {
        out.push(...validate(items, value[i], join(path, i), first));
        if (first && out.length) return out;
      }
    }
  }
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) out.push({ path, message: `${path} must have at least ${schema.minProperties} member(s)` });
    for (const r of schema.required ?? []) if (!(r in obj)) out.push({ path: join(path, r), message: `${join(path, r)} is required` });
    if (first && out.length) return out;
    for (const k of keys) {
      const prop = schema.properties?.[k];
      if (prop) out.push(...validate(prop, obj[k], join(path, k), first));
      else if (schema.additionalProperties === false) out.push({ path: join(path, k), message: `unknown key "${k}"${path ? ` in ${path}` : ''}` });
      else if (typeof schema.additionalProperties === 'object') out.push(...validate(schema.additionalProperties, obj[k], join(path, k), first));
      if (first && out.length) return out;
    }
  }
  for (const s of schema.allOf ?? []) {
    out.push(...validate(s, value, path, first));
    if (first && out.length) return out;
  }
  // oneOf is read as anyOf: the published forms it separates (group or terminal) never overlap.
  for (const list of [schema.anyOf, schema.oneOf]) {
    if (!list?.length || list.some((s) => validate(s, value, path, true).length === 0)) continue;
    // No branch conforms: the whole of each, to show the closest.
    out.push(...(first ? validate(list[0] as Schema, value, path, true) : closest(list.map((s) => validate(s, value, path)))));
    if (first) return out;
  }
  return out;
}

/**
 * The branch a failed anyOf most likely meant: the one whose first problem lies deepest (it got
 * furthest), then the one with fewest problems.
 */
function closest(results: Violation[][]): Violation[] {
  let best = results[0] ?? [];
  const depth = (r: Violation[]) => Math.max(...r.map((v) => v.path.split(/[.[]/).length));
  for (const r of results.slice(1)) {
    const a = depth(r);
    const b = depth(best);
    if (a > b || (a === b && r.length < best.length)) best = r;
  }
  return best;
}
