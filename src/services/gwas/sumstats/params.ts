/**
 * Parameters of the summary-statistics interface. The spec pages with `page` and `size`; the real
 * service with `start` (an offset) and `size`. Both are read, except on chromosome ranges, where the
 * spec's `start` and `end` are base-pair positions (the real service calls them bp_lower and
 * bp_upper, which are read too).
 */
import { first, type Query } from '../../../core/http/params.js';
import { gwasErrors } from '../errors.js';
import { chromosomeNumber, efoId } from './ingest.js';
import { parseP } from './pvalue.js';
import type { PRange } from './reader.js';

export const DEFAULT_SIZE = 20;
export const MAX_SIZE = 1000;

export interface Window {
  offset: number;
  size: number;
  /** How the client paged, so links page the same way. */
  by: 'page' | 'start';
}

function whole(name: string, v: string, min: number, hint: string): number {
  if (!/^\d{1,12}$/.test(v.trim()) || Number(v) < min) throw gwasErrors.badParameter(name, v, hint);
  return Number(v);
}

export function parseWindow(q: Query, startIsOffset: boolean): Window {
  const s = first(q, 'size');
  const size = s === undefined || s === '' ? DEFAULT_SIZE : Math.min(MAX_SIZE, whole('size', s, 1, 'a whole number from 1'));
  const p = first(q, 'page');
  const st = startIsOffset ? first(q, 'start') : undefined;
  if (p !== undefined && p !== '') return { offset: whole('page', p, 0, 'a whole number from 0 (pages count from 0)') * size, size, by: 'page' };
  if (st !== undefined && st !== '') return { offset: whole('start', st, 0, 'an offset, a whole number from 0'), size, by: 'start' };
  return { offset: 0, size, by: 'page' };
}

function bound(q: Query, name: string): number | undefined {
  const v = first(q, name);
  if (v === undefined || v === '') return undefined;
  const p = parseP(v);
  if (!p) throw gwasErrors.badParameter(name, v, 'a p-value from 0 to 1, as a decimal or in e-notation (0.001, 1e-3, 1E-3)');
  return p.plog;
}

/** `p_lower` and `p_upper` as log10 bounds. */
export function parsePRange(q: Query): PRange {
  const lo = bound(q, 'p_lower');
  const hi = bound(q, 'p_upper');
  if (lo !== undefined && hi !== undefined && lo > hi) {
    throw gwasErrors.badRequest(`Lower limit (${first(q, 'p_lower')}) is bigger than upper limit (${first(q, 'p_upper')}).`);
  }
  return { ...(lo !== undefined ? { lo } : {}), ...(hi !== undefined ? { hi } : {}) };
}

export function hasP(r: PRange): boolean {
  return r.lo !== undefined || r.hi !== undefined;
}

function position(q: Query, names: string[]): number | undefined {
  for (const name of names) {
    const v = first(q, name);
    if (v !== undefined && v !== '') return whole(name, v, 0, 'a base-pair position, a whole number');
  }
  return undefined;
}

/** A chromosome range: `start`/`end` (the spec) or `bp_lower`/`bp_upper` (the real service). */
export function parseBpRange(q: Query): { start: number; end: number } {
  const start = position(q, ['start', 'bp_lower']) ?? 0;
  const end = position(q, ['end', 'bp_upper']) ?? 2 ** 32 - 1;
  if (start > end) throw gwasErrors.badRequest(`Lower limit (${start}) is bigger than upper limit (${end}).`);
  return { start, end };
}

export function parseChromosome(v: string): number {
  const n = chromosomeNumber(v);
  if (n === undefined) throw gwasErrors.notFound(`Chromosome ${v}`);
  return n;
}

export function parseTrait(v: string): string {
  return efoId(v);
}
