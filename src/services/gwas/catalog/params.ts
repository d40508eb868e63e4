/**
 * Paging and sorting parameters of the catalog API (Spring Data's `page`, `size`, `sort`), and the
 * finders' arguments. Spring quietly replaces unreadable values with defaults; the spec answers 400
 * for invalid parameters, so a value that cannot be read is refused, naming the parameter.
 */
import { first, type Query } from '../../../core/http/params.js';
import { gwasErrors } from '../errors.js';

export interface SortKey {
  field: string;
  dir: 'asc' | 'desc';
}

export interface Paging {
  page: number;
  size: number;
  sort: SortKey[];
}

export const DEFAULT_SIZE = 20;
/** Spring Data REST's largest page; larger sizes are cut to it, as there. */
export const MAX_SIZE = 1000;
const MAX_PAGE = 1_000_000_000;

function whole(name: string, v: string, min: number): number {
  if (!/^\d{1,10}$/.test(v.trim()) || Number(v) < min) {
    throw gwasErrors.badParameter(name, v, min === 0 ? 'a whole number from 0 (pages count from 0)' : `a whole number from ${min}`);
  }
  return Number(v);
}

/** `page`, `size` and `sort` of a list whose sortable fields are `sortable`. */
export function parsePaging(q: Query, sortable: readonly string[]): Paging {
  const p = first(q, 'page');
  const s = first(q, 'size');
  const page = p === undefined || p === '' ? 0 : whole('page', p, 0);
  if (page > MAX_PAGE) throw gwasErrors.badParameter('page', String(p), `at most ${MAX_PAGE}`);
  const size = s === undefined || s === '' ? DEFAULT_SIZE : Math.min(MAX_SIZE, whole('size', s, 1));
  return { page, size, sort: parseSort(q, sortable) };
}

/** `sort=field[,field...][,asc|desc]`, repeatable: the keys in the order given. */
export function parseSort(q: Query, sortable: readonly string[]): SortKey[] {
  const raw = q.sort;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const keys: SortKey[] = [];
  for (const v of values) {
    const parts = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    let dir: 'asc' | 'desc' = 'asc';
    const last = parts[parts.length - 1]?.toLowerCase();
    if (last === 'asc' || last === 'desc') {
      dir = last;
      parts.pop();
    }
    if (parts.length === 0) throw gwasErrors.badParameter('sort', v, `a property to sort by, then optionally ",asc" or ",desc"; properties: ${sortable.join(', ')}`);
    for (const field of parts) {
      if (!sortable.includes(field)) {
        throw gwasErrors.badParameter('sort', v, `no property '${field}' to sort by; properties: ${sortable.join(', ') || 'none'}`);
      }
      keys.push({ field, dir });
    }
  }
  return keys;
}

/** A finder's required argument, as given (trimmed). */
export function required(q: Query, name: string, expected: string): string {
  const v = first(q, name);
  if (v === undefined || v.trim() === '') throw gwasErrors.missingParameter(name, expected);
  return v.trim();
}

/** A whole-number finder argument (base-pair positions). */
export function requiredInt(q: Query, name: string, expected: string): number {
  const v = required(q, name, expected);
  if (!/^\d{1,12}$/.test(v)) throw gwasErrors.badParameter(name, v, expected);
  return Number(v);
}

/** The parameters a list's page links repeat: everything the client gave except paging. */
export function carried(q: Query): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(q)) {
    if (k === 'page' || k === 'size' || k === 'sort' || v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) out.push([k, x]);
  }
  return out;
}
