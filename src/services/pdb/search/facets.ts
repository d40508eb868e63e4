/**
 * Facets over the whole hit set (not the page): terms, histogram, date_histogram, range,
 * date_range, cardinality, and filter (a sub-set narrowed by attribute conditions, whose own
 * facets are reported in its place). Facets nest: a bucket's `facets` are computed over the hits
 * in that bucket. Populations count return-type objects, each once per bucket.
 */
import { attributes } from './attributes.js';
import type { SearchScope } from './engine.js';
import { attributeValues, filterIds } from './engine.js';
import { bad } from './errors.js';
import type { FacetSpec, ReturnType } from './request.js';
import { dateValue } from './text.js';

type Value = { dst: string; num: number | null; str: string | null };
type Bucket = { label: string; population: number; facets?: Record<string, unknown>[]; members: Set<string> };

const YEAR_LABEL = (ms: number) => new Date(ms).toISOString();

/** ES-style range keys: `from-to`, `*` for an open end. */
const rangeLabel = (from: string | undefined, to: string | undefined) => `${from ?? '*'}-${to ?? '*'}`;
const numLabel = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

export async function facetResults(s: SearchScope, specs: FacetSpec[], ids: Set<string>, rt: ReturnType): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const cache = new Map<string, Value[]>();
  const valuesOf = async (attr: string) => {
    let v = cache.get(attr);
    if (!v) cache.set(attr, (v = await attributeValues(s, attr, rt)));
    return v;
  };
  for (const f of specs) out.push(...(await facet(s, f, ids, rt, valuesOf)));
  return out;
}

async function facet(s: SearchScope, f: FacetSpec, ids: Set<string>, rt: ReturnType, valuesOf: (attr: string) => Promise<Value[]>): Promise<Record<string, unknown>[]> {
  if (f.filter) {
    const keep = await filterIds(s, f.filter, rt);
    const sub = new Set([...ids].filter((id) => keep.has(id)));
    const out: Record<string, unknown>[] = [];
    for (const g of f.facets ?? []) out.push(...(await facet(s, g, sub, rt, valuesOf)));
    return out;
  }
  const attr = String(f.attribute);
  const a = attributes('structure').get(attr) ?? attributes('chemical').get(attr);
  if (!a) throw bad(`Facet ${f.name}: attribute ${attr} is not a searchable attribute`);
  const values = (await valuesOf(attr)).filter((v) => ids.has(v.dst));
  if (f.aggregation_type === 'cardinality') {
    const distinct = new Set(values.map((v) => v.str ?? String(v.num)));
    return [{ name: f.name, value: distinct.size }];
  }
  const buckets = new Map<string, Bucket>();
  const add = (label: string, dst: string) => {
    let b = buckets.get(label);
    if (!b) buckets.set(label, (b = { label, population: 0, members: new Set() }));
    if (!b.members.has(dst)) {
      b.members.add(dst);
      b.population++;
    }
  };
  const numeric = a.kind === 'integer' || a.kind === 'number' || a.kind === 'date';
  let ordered: 'population' | 'key' = 'key';
  switch (f.aggregation_type) {
    case 'terms':
      ordered = 'population';
      for (const v of values) {
        const label = numeric && a.kind !== 'date' && v.num !== null ? String(v.num) : (v.str ?? String(v.num));
        add(label, v.dst);
      }
      break;
    case 'histogram': {
      const step = Number(f.interval);
      if (!numeric || a.kind === 'date') throw bad(`Facet ${f.name}: histogram needs a numeric attribute`);
      if (!(step > 0)) throw bad(`Facet ${f.name}: interval must be positive`);
      for (const v of values) if (v.num !== null) add(numLabel(Math.floor(v.num / step) * step), v.dst);
      break;
    }
    case 'date_histogram':
      if (a.kind !== 'date') throw bad(`Facet ${f.name}: date_histogram needs a date attribute`);
      for (const v of values) if (v.num !== null) add(YEAR_LABEL(Date.UTC(new Date(v.num).getUTCFullYear(), 0, 1)), v.dst);
      break;
    case 'range':
    case 'date_range': {
      const isDate = f.aggregation_type === 'date_range';
      if (isDate ? a.kind !== 'date' : !numeric || a.kind === 'date') throw bad(`Facet ${f.name}: ${f.aggregation_type} does not apply to ${attr}`);
      const ranges = (f.ranges ?? []).map((r) => {
        const lo = r.from === undefined ? undefined : isDate ? dateValue(r.from, attr).ms : Number(r.from);
        const hi = r.to === undefined ? undefined : isDate ? dateValue(r.to, attr).ms : Number(r.to);
        const fmt = (x: number | undefined) => (x === undefined ? undefined : isDate ? YEAR_LABEL(x) : numLabel(x));
        return { lo, hi, label: rangeLabel(fmt(lo), fmt(hi)) };
      });
      for (const r of ranges) buckets.set(r.label, { label: r.label, population: 0, members: new Set() });
      // From inclusive, to exclusive.
      for (const v of values) {
        if (v.num === null) continue;
        for (const r of ranges) if ((r.lo === undefined || v.num >= r.lo) && (r.hi === undefined || v.num < r.hi)) add(r.label, v.dst);
      }
      break;
    }
    default:
      throw bad(`Facet ${f.name}: unknown aggregation_type ${f.aggregation_type}`);
  }
  const min = f.min_interval_population ?? 1;
  let list = [...buckets.values()].filter((b) => b.population >= min || f.aggregation_type === 'range' || f.aggregation_type === 'date_range');
  if (ordered === 'population') list.sort((x, y) => y.population - x.population || (x.label < y.label ? -1 : 1));
  else if (f.aggregation_type !== 'range' && f.aggregation_type !== 'date_range') list.sort((x, y) => keyOf(x.label) - keyOf(y.label));
  list = list.slice(0, f.max_num_intervals ?? 65_536);
  const out = [];
  for (const b of list) {
    const item: Record<string, unknown> = { label: b.label, population: b.population };
    if (f.facets?.length) {
      const sub: Record<string, unknown>[] = [];
      for (const g of f.facets) sub.push(...(await facet(s, g, b.members, rt, valuesOf)));
      item.facets = sub;
    }
    out.push(item);
  }
  return [{ name: f.name, buckets: out }];
}

function keyOf(label: string): number {
  const n = Number(label);
  return Number.isFinite(n) ? n : Date.parse(label);
}
