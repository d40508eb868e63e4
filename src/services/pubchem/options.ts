/** Operation options of PUG REST (URL arguments or form fields), checked. */
import { pcErrors } from './errors.js';
import type { Options } from './request.js';

export const DEFAULT_MAX_RECORDS = 2_000_000;

function int(o: Options, name: string, min: number, max: number, fallback: number): number {
  const v = o.get(name);
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) throw pcErrors.badOption(name, v, `an integer from ${min} to ${max}`);
  return n;
}

function oneOf<T extends string>(o: Options, name: string, allowed: readonly T[], fallback: T): T {
  const v = o.get(name);
  if (v === undefined || v === '') return fallback;
  const hit = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
  if (!hit) throw pcErrors.badOption(name, v, `one of ${allowed.join(', ')}`);
  return hit;
}

export const threshold = (o: Options) => int(o, 'Threshold', 0, 100, 90);
export const maxRecords = (o: Options) => int(o, 'MaxRecords', 1, DEFAULT_MAX_RECORDS, DEFAULT_MAX_RECORDS);
export const maxSeconds = (o: Options) => int(o, 'MaxSeconds', 1, 3600, 3600);
export const listReturn = (o: Options) => oneOf(o, 'list_return', ['grouped', 'flat', 'listkey'] as const, 'grouped');
export const recordType = (o: Options) => oneOf(o, 'record_type', ['2d', '3d'] as const, '2d');
export const identityType = (o: Options) =>
  oneOf(
    o,
    'identity_type',
    ['same_stereo_isotope', 'same_connectivity', 'same_tautomer', 'same_stereo', 'same_isotope', 'nonconflicting_stereo', 'same_isotope_nonconflicting_stereo'] as const,
    'same_stereo_isotope',
  );
export const nameType = (o: Options) => oneOf(o, 'name_type', ['complete', 'word'] as const, 'complete');

/** `listkey_start` (0-based) and `listkey_count`: the slice of a stored list to answer. */
export function listSlice(o: Options): { start: number; count: number } {
  return { start: int(o, 'listkey_start', 0, Number.MAX_SAFE_INTEGER, 0), count: int(o, 'listkey_count', 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) };
}

/** `image_size`: large (300x300, the default), small (100x100) or WxH. */
export function imageSize(o: Options): { width: number; height: number } {
  const v = o.get('image_size');
  if (v === undefined || v === '' || v.toLowerCase() === 'large') return { width: 300, height: 300 };
  if (v.toLowerCase() === 'small') return { width: 100, height: 100 };
  const m = /^(\d{1,4})x(\d{1,4})$/i.exec(v.trim());
  const w = Number(m?.[1]);
  const h = Number(m?.[2]);
  if (!m || w < 16 || h < 16 || w > 2000 || h > 2000) throw pcErrors.badOption('image_size', v, 'small, large or <width>x<height> with each side from 16 to 2000');
  return { width: w, height: h };
}

/** Relationship types of CID-SID links selected by `sids_type` / `cids_type` (1 standardized, 2 component). */
export function linkTypes(o: Options, name: 'sids_type' | 'cids_type'): number[] | undefined {
  const v = oneOf(o, name, ['standardized', 'component', 'all', 'original'] as const, 'standardized');
  return v === 'all' ? undefined : v === 'component' ? [2] : [1];
}

/** `aids_type` / `sids_type` / `cids_type` given for assay links: all, active or inactive. */
export function outcomeType(o: Options, name: string): string | undefined {
  const v = oneOf(o, name, ['all', 'active', 'inactive', 'doseresponse'] as const, 'all');
  if (v === 'doseresponse') throw pcErrors.unimplemented(`${name}=doseresponse`);
  return v === 'all' ? undefined : v === 'active' ? 'Active' : 'Inactive';
}
