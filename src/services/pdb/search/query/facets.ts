/**
 * Facets over the whole hit set (not the page), aggregated in the database: terms, histogram,
 * date_histogram, range, date_range, cardinality, and filter (a sub-set narrowed by attribute
 * conditions, whose own facets are reported in its place). Facets nest: a bucket's `facets` are
 * computed over the hits in that bucket. Populations count return-type objects, each once per
 * bucket. The hits come as SQL rows `id`: a planned query, or identifiers found by an engine.
 */
import type { Db } from '../../../../core/store/db.js';
import { attributes, type Attribute } from '../attributes.js';
import type { SearchScope } from './engine.js';
import { badQuery } from '../../errors.js';
import { filterSql } from './plan.js';
import type { FacetSpec, ReturnType } from './request.js';
import { joinSql, sql, sqlNumber, sqlText, testedColumn, type Sql } from '../../../../core/store/sql.js';
import { dateValue } from './text.js';
import { isNumeric, valueSource, valuesSql } from './values.js';

type Bucket = { label: string; population: number; members: Sql };

const YEAR_LABEL = (ms: number) => new Date(ms).toISOString();

/** ES-style range keys: `from-to`, `*` for an open end. */
const rangeLabel = (from: string | undefined, to: string | undefined) => `${from ?? '*'}-${to ?? '*'}`;
const numLabel = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

/** The UTC year of a date value (milliseconds since the epoch). */
const yearSql = (db: Db, col: string) =>
  sqlText(db.dialect === 'postgres' ? `CAST(EXTRACT(YEAR FROM to_timestamp(${col} / 1000) AT TIME ZONE 'UTC') AS INTEGER)` : `CAST(strftime('%Y', ${col} / 1000, 'unixepoch') AS INTEGER)`);

export async function facetResults(s: SearchScope, specs: FacetSpec[], hits: Sql, rt: ReturnType): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const f of specs) out.push(...(await facet(s, f, hits, rt)));
  return out;
}

const nothing = (hits: Sql) => sql`SELECT h.id AS id FROM (${hits}) h WHERE 1 = 0`;

async function facet(s: SearchScope, f: FacetSpec, hits: Sql, rt: ReturnType): Promise<Record<string, unknown>[]> {
  if (f.filter) {
    const keep = await filterSql(s, f.filter, rt);
    // A test of each hit: read as a key of the hits' own look-ups, SQLite walked the whole filter
    // list for each hit (an organism filter of 20,000 entities took 84 s).
    const sub = keep ? sql`SELECT h.id AS id FROM (${hits}) h WHERE ${sqlText(testedColumn(s.db.dialect, 'h.id'))} IN (${keep})` : nothing(hits);
    const out: Record<string, unknown>[] = [];
    for (const g of f.facets ?? []) out.push(...(await facet(s, g, sub, rt)));
    return out;
  }
  const attr = String(f.attribute);
  const a = attributes('structure').get(attr) ?? attributes('chemical').get(attr);
  if (!a) throw badQuery(`Facet ${f.name}: attribute ${attr} is not a searchable attribute`);
  const source = await valueSource(s, attr, rt);
  // Rows (dst, num, str): each hit's values; none when the attribute has no values here.
  const values = (source && valuesSql(s, source, rt, hits)) ?? sql`SELECT h.id AS dst, CAST(NULL AS REAL) AS num, CAST(NULL AS TEXT) AS str FROM (${hits}) h WHERE 1 = 0`;
  if (f.aggregation_type === 'cardinality') {
    const r = await s.db.one<{ n: number | string }>(...args(sql`SELECT COUNT(DISTINCT COALESCE(v.str, CAST(v.num AS TEXT))) AS n FROM (${values}) v`));
    return [{ name: f.name, value: Number(r?.n ?? 0) }];
  }
  const buckets = await bucketsOf(s, f, a, values);
  const min = f.min_interval_population ?? 1;
  const ranges = f.aggregation_type === 'range' || f.aggregation_type === 'date_range';
  let list = buckets.filter((b) => b.population >= min || ranges);
  if (f.aggregation_type === 'terms') list.sort((x, y) => y.population - x.population || (x.label < y.label ? -1 : 1));
  else if (!ranges) list.sort((x, y) => keyOf(x.label) - keyOf(y.label));
  list = list.slice(0, f.max_num_intervals ?? 65_536);
  const out = [];
  for (const b of list) {
    const item: Record<string, unknown> = { label: b.label, population: b.population };
    if (f.facets?.length) {
      const sub: Record<string, unknown>[] = [];
      for (const g of f.facets) sub.push(...(await facet(s, g, b.members, rt)));
      item.facets = sub;
    }
    out.push(item);
  }
  return [{ name: f.name, buckets: out }];
}

const args = (x: Sql): [string, Sql['params']] => [x.sql, x.params];

/** Buckets by a key expression over the values `v`, each with the SQL of its hits. */
async function grouped(s: SearchScope, values: Sql, key: Sql, label: (k: number | string) => string): Promise<Bucket[]> {
  const rows = await s.db.query<{ k: number | string; n: number | string }>(...args(sql`SELECT ${key} AS k, COUNT(DISTINCT v.dst) AS n FROM (${values}) v WHERE ${key} IS NOT NULL GROUP BY ${key}`));
  return rows.map((r) => ({ label: label(r.k), population: Number(r.n), members: sql`SELECT DISTINCT v.dst AS id FROM (${values}) v WHERE ${key} = ${r.k}` }));
}

async function bucketsOf(s: SearchScope, f: FacetSpec, a: Attribute, values: Sql): Promise<Bucket[]> {
  const attr = a.path;
  const numeric = isNumeric(a);
  switch (f.aggregation_type) {
    case 'terms':
      if (numeric && a.kind !== 'date') return grouped(s, values, sqlText('v.num'), (k) => String(Number(k)));
      return grouped(s, values, sqlText('v.str'), String);
    case 'histogram': {
      const step = Number(f.interval);
      if (!numeric || a.kind === 'date') throw badQuery(`Facet ${f.name}: histogram needs a numeric attribute`);
      if (!(step > 0) || !Number.isFinite(step)) throw badQuery(`Facet ${f.name}: interval must be positive`);
      return grouped(s, values, sql`FLOOR(v.num / ${sqlNumber(step)})`, (k) => numLabel(Number(k) * step));
    }
    case 'date_histogram':
      if (a.kind !== 'date') throw badQuery(`Facet ${f.name}: date_histogram needs a date attribute`);
      return grouped(s, values, yearSql(s.db, 'v.num'), (k) => YEAR_LABEL(Date.UTC(Number(k), 0, 1)));
    case 'range':
    case 'date_range': {
      const isDate = f.aggregation_type === 'date_range';
      if (isDate ? a.kind !== 'date' : !numeric || a.kind === 'date') throw badQuery(`Facet ${f.name}: ${f.aggregation_type} does not apply to ${attr}`);
      const ranges = (f.ranges ?? []).map((r) => {
        const bound = (x: number | string | undefined) => {
          if (x === undefined) return undefined;
          const v = isDate ? dateValue(x, attr).ms : Number(x);
          if (!Number.isFinite(v)) throw badQuery(`Facet ${f.name}: ${String(x)} is not a number`);
          return v;
        };
        const lo = bound(r.from);
        const hi = bound(r.to);
        const fmt = (x: number | undefined) => (x === undefined ? undefined : isDate ? YEAR_LABEL(x) : numLabel(x));
        // From inclusive, to exclusive.
        const cond = joinSql([sqlText('v.num IS NOT NULL'), ...(lo === undefined ? [] : [sql`v.num >= ${sqlNumber(lo)}`]), ...(hi === undefined ? [] : [sql`v.num < ${sqlNumber(hi)}`])], ' AND ');
        return { label: rangeLabel(fmt(lo), fmt(hi)), cond };
      });
      if (ranges.length === 0) return [];
      const cols = joinSql(
        ranges.map((r, i) => sql`COUNT(DISTINCT CASE WHEN ${r.cond} THEN v.dst END) AS ${sqlText(`r${i}`)}`),
        ', ',
      );
      const row = (await s.db.one<Record<string, number | string>>(...args(sql`SELECT ${cols} FROM (${values}) v`))) ?? {};
      // Ranges of the same label are one bucket, as the live service keys them.
      const seen = new Map<string, Bucket>();
      ranges.forEach((r, i) => {
        if (!seen.has(r.label)) seen.set(r.label, { label: r.label, population: Number(row[`r${i}`] ?? 0), members: sql`SELECT DISTINCT v.dst AS id FROM (${values}) v WHERE ${r.cond}` });
      });
      return [...seen.values()];
    }
    default:
      throw badQuery(`Facet ${f.name}: unknown aggregation_type ${f.aggregation_type}`);
  }
}

function keyOf(label: string): number {
  const n = Number(label);
  return Number.isFinite(n) ? n : Date.parse(label);
}
