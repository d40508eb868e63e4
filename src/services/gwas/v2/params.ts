/**
 * API v2's query parameters. Each list declares its filters by their documented snake_case names;
 * the service also binds the Java field names behind them (`pubmedId`, `diseaseTrait`,
 * `showChildTrait`, `shortForm` for `efo_id`...), which some clients send, so those are read too
 * (the snake_case name wins when both are given). Unknown parameters are ignored, as there.
 *
 * Where the service quietly falls back (an unreadable boolean, a page below 0, a size above 2000),
 * biomirror answers 400 naming the parameter, as the documented interface asks for invalid ones.
 */
import { first, type Query } from '../../../core/http/params.js';
import { v2Errors } from './errors.js';

export type ParamKind = 'string' | 'boolean' | 'integer';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** Other names the service binds to the same field. */
  aliases?: readonly string[];
}

export type Params = Partial<Record<string, string | boolean | number>>;

const TRUE = new Set(['true', 'on', 'yes', '1']);
const FALSE = new Set(['false', 'off', 'no', '0']);
const INT32 = 2_147_483_647;

function value(q: Query, spec: ParamSpec): { name: string; raw: string } | undefined {
  for (const name of [spec.name, ...(spec.aliases ?? [])]) {
    const raw = first(q, name)?.trim();
    if (raw !== undefined && raw !== '') return { name, raw };
  }
  return undefined;
}

/** The declared parameters present in the query, read as their declared kinds. */
export function readParams(q: Query, specs: readonly ParamSpec[]): Params {
  const out: Params = {};
  for (const spec of specs) {
    const v = value(q, spec);
    if (!v) continue;
    if (spec.kind === 'string') out[spec.name] = v.raw;
    else if (spec.kind === 'boolean') {
      const lc = v.raw.toLowerCase();
      if (TRUE.has(lc)) out[spec.name] = true;
      else if (FALSE.has(lc)) out[spec.name] = false;
      else throw v2Errors.badParameter(v.name, v.raw, 'true or false');
    } else {
      if (!/^-?\d{1,10}$/.test(v.raw) || Math.abs(Number(v.raw)) > INT32) throw v2Errors.badParameter(v.name, v.raw, 'a whole number');
      out[spec.name] = Number(v.raw);
    }
  }
  return out;
}

export const str = (p: Params, name: string): string | undefined => (typeof p[name] === 'string' ? (p[name] as string) : undefined);
export const bool = (p: Params, name: string): boolean | undefined => (typeof p[name] === 'boolean' ? (p[name] as boolean) : undefined);
export const int = (p: Params, name: string): number | undefined => (typeof p[name] === 'number' ? (p[name] as number) : undefined);

/** Shorthands for the declarations: `stringParam('pubmed_id', 'pubmedId')`. */
export const stringParam = (name: string, ...aliases: string[]): ParamSpec => ({ name, kind: 'string', aliases });
export const booleanParam = (name: string, ...aliases: string[]): ParamSpec => ({ name, kind: 'boolean', aliases });
export const integerParam = (name: string, ...aliases: string[]): ParamSpec => ({ name, kind: 'integer', aliases });

export interface V2Paging {
  page: number;
  size: number;
}

export const DEFAULT_SIZE = 20;
/** Spring Data's largest page (the service cuts larger sizes to it; biomirror refuses them). */
export const MAX_SIZE = 2000;
const MAX_PAGE = 1_000_000_000;

function whole(name: string, raw: string, min: number, max: number, expected: string): number {
  const v = raw.trim();
  if (!/^-?\d{1,12}$/.test(v) || Number(v) < min || Number(v) > max) throw v2Errors.badParameter(name, raw, expected);
  return Number(v);
}

export function parsePaging(q: Query): V2Paging {
  const p = first(q, 'page');
  const z = first(q, 'size');
  return {
    page: p === undefined || p === '' ? 0 : whole('page', p, 0, MAX_PAGE, `a whole number from 0 to ${MAX_PAGE} (pages count from 0)`),
    size: z === undefined || z === '' ? DEFAULT_SIZE : whole('size', z, 1, MAX_SIZE, `a whole number from 1 to ${MAX_SIZE}`),
  };
}

export type Direction = 'asc' | 'desc';

export interface SortChoice {
  key: string;
  dir: Direction;
}

function direction(q: Query): Direction | undefined {
  const d = first(q, 'direction')?.trim();
  if (d === undefined || d === '') return undefined;
  const lc = d.toLowerCase();
  if (lc !== 'asc' && lc !== 'desc') throw v2Errors.badParameter('direction', d, 'asc or desc');
  return lc;
}

/**
 * `sort` (one of the list's values) with `direction`. As on the service, a `sort` without a
 * `direction` leaves the default order. The service's own page links write `sort` back as Spring
 * does, `p_value,asc`: that form is read too (its direction counts when `direction` is absent).
 */
export function parseSort(q: Query, allowed: Readonly<Record<string, string>>): SortChoice | undefined {
  const dir = direction(q);
  const raw = first(q, 'sort')?.trim();
  if (raw === undefined || raw === '') return undefined;
  const folded = /^(.*?)\s*,\s*(asc|desc)$/i.exec(raw);
  const name = folded ? (folded[1] as string) : raw;
  const key = allowed[name];
  if (!key) throw v2Errors.badParameter('sort', raw, `one of ${Object.keys(allowed).join(', ')}`);
  const d = dir ?? (folded ? ((folded[2] as string).toLowerCase() as Direction) : undefined);
  return d ? { key, dir: d } : undefined;
}

/** Spring Data's `sort=property[,asc|desc]` (the lists the service pages with its `Pageable` only). */
export function parsePageableSort(q: Query, allowed: Readonly<Record<string, string>>): SortChoice | undefined {
  const raw = q.sort;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const v of values) {
    const parts = v.split(',').map((x) => x.trim());
    const [prop, d] = parts;
    if (!prop) continue;
    const key = allowed[prop];
    if (!key) throw v2Errors.badParameter('sort', v, `a property (${Object.keys(allowed).join(', ')}), then optionally ",asc" or ",desc"`);
    const dir = (d ?? 'asc').toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') throw v2Errors.badParameter('sort', v, 'a direction of asc or desc');
    return { key, dir };
  }
  return undefined;
}
