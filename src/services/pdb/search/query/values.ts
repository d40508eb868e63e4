/**
 * An attribute's values as hits have them: which index and object kinds hold the attribute, each
 * hit's values through the return-type mappings walked backwards (facets), and each hit's sort
 * key (its smallest or largest value). Reads the value table by object, so the cost follows the
 * hits, not the archive.
 */
import type { Db } from '../../../../core/store/db.js';
import { attributes, type Attribute, type Catalogue } from '../attributes.js';
import type { SearchScope } from './engine.js';
import { badQuery } from '../../errors.js';
import { perGeneration } from '../generation-cache.js';
import { attrKey, type ObjKind, type SearchTables } from '../build/indexer.js';
import type { ReturnType } from './request.js';
import { RETURN_KIND, sourcesSql } from './returns.js';
import { joinInOrder, joinSql, sql, sqlText, type Sql } from '../../../../core/store/sql.js';
import { isUniprotAttribute } from './uniprot.js';
import { checkServed } from './unserved.js';

/** The kinds of object holding an attribute, and those of them where an object holds several values. */
export interface AttributeKinds {
  kinds: ObjKind[];
  multi: Set<ObjKind>;
}

const NONE: AttributeKinds = { kinds: [], multi: new Set() };
const kindCache = perGeneration<Map<string, AttributeKinds>>();

/** Every indexed attribute of an index with its kinds (read once per generation). */
export function indexedAttributes(db: Db, n: SearchTables): Promise<Map<string, AttributeKinds>> {
  return kindCache(db, n.sattrs, async () => {
    const m = new Map<string, AttributeKinds>();
    for (const r of await db.query<{ attr: string; kind: ObjKind; multi: number | string }>(`SELECT attr, kind, multi FROM ${n.sattrs}`)) {
      let k = m.get(r.attr);
      if (!k) m.set(r.attr, (k = { kinds: [], multi: new Set() }));
      k.kinds.push(r.kind);
      if (Number(r.multi) === 1) k.multi.add(r.kind);
    }
    return m;
  });
}

export async function kindsOf(db: Db, n: SearchTables, attr: string): Promise<AttributeKinds> {
  return (await indexedAttributes(db, n)).get(attr) ?? NONE;
}

export interface ValueSource {
  attribute: Attribute;
  index: SearchTables;
  kinds: ObjKind[];
}

/**
 * Where an attribute's values are for a return type: chemical definitions read the dictionary's
 * attributes when the structure catalogue lacks the name; every other type reads the archive's.
 * Undefined when that index is not loaded.
 */
export async function valueSource(s: SearchScope, attr: string, rt: ReturnType): Promise<ValueSource | undefined> {
  const cat: Catalogue = rt === 'mol_definition' && attributes('chemical').has(attr) && !attributes('structure').has(attr) ? 'chemical' : 'structure';
  const attribute = attributes(cat).get(attr);
  if (!attribute) throw badQuery(`Attribute ${attr} is not a searchable attribute`);
  checkServed(attr);
  const index = cat === 'chemical' ? s.ccd : isUniprotAttribute(attr) ? s.uniprot : s.archive;
  if (!index) return undefined;
  return { attribute, index, kinds: (await kindsOf(s.db, index, attr)).kinds };
}

/** Kinds whose values reach the return type (mappings other than identity go through the archive). */
function reachable(s: SearchScope, v: ValueSource, rt: ReturnType): ObjKind[] {
  return v.kinds.filter((k) => k === RETURN_KIND[rt] || (s.archive !== undefined && k !== 'mol_definition'));
}

/**
 * Rows `(dst, num, str)`: the values of each hit (rows `id` of `hits`). The hits drive the join
 * (see joinInOrder).
 */
export function valuesSql(s: SearchScope, v: ValueSource, rt: ReturnType, hits: Sql): Sql | undefined {
  const join = joinInOrder(s.db.dialect);
  // On SQLite the number is read through a CAST (the same value): a facet's `num IS NOT NULL` or
  // `num = ?` on a bare column lets SQLite pick the partial index of numbers and read every value
  // of the attribute for each hit (a terms facet of 10,000 entries took 30 s).
  const number = s.db.dialect === 'sqlite' ? 'CAST(a.num AS REAL)' : 'a.num';
  const parts = reachable(s, v, rt).map((k) => {
    const m = sourcesSql(k, rt, s.archive as SearchTables, 'h.id');
    const steps = m.steps.map((x) => `${join} ${x.table} ${x.alias} ON ${x.on}`).join(' ');
    return sql`SELECT h.id AS dst, ${sqlText(number)} AS num, a.str AS str FROM (${hits}) h ${sqlText(steps)} ${sqlText(join)} ${sqlText(v.index.sattr)} a ON a.obj = ${sqlText(m.src)} AND a.attr = ${attrKey(v.index, v.attribute.path)} AND a.kind = ${k}`;
  });
  return parts.length ? joinSql(parts, ' UNION ALL ') : undefined;
}

export const isNumeric = (a: Attribute): boolean => a.kind === 'integer' || a.kind === 'number' || a.kind === 'date';

/**
 * One hit's sort key, a scalar subquery on the identifier expression `dst`: its smallest value
 * ascending, its largest descending; null when it has none. The hit's own objects come first
 * (see joinInOrder).
 */
export function keySql(s: SearchScope, v: ValueSource, rt: ReturnType, dir: 'asc' | 'desc', dst: string): Sql | undefined {
  const col = isNumeric(v.attribute) ? 'a.num' : 'a.str';
  const join = joinInOrder(s.db.dialect);
  const parts = reachable(s, v, rt).map((k) => {
    const m = sourcesSql(k, rt, s.archive as SearchTables, dst);
    const [first, ...rest] = m.steps;
    // No `IS NOT NULL`: MIN and MAX pass over nulls, and with it SQLite reads the attribute's
    // whole partial index of numbers for each hit instead of the hit's own values.
    const on = sql`a.obj = ${sqlText(m.src)} AND a.attr = ${attrKey(v.index, v.attribute.path)} AND a.kind = ${k}`;
    if (!first) return sql`SELECT ${sqlText(col)} AS v FROM ${sqlText(v.index.sattr)} a WHERE ${on}`;
    const joins = rest.map((x) => `${join} ${x.table} ${x.alias} ON ${x.on}`).join(' ');
    return sql`SELECT ${sqlText(col)} AS v FROM ${sqlText(first.table)} ${sqlText(first.alias)} ${sqlText(joins)} ${sqlText(join)} ${sqlText(v.index.sattr)} a ON ${on} WHERE ${sqlText(first.on)}`;
  });
  if (parts.length === 0) return undefined;
  return sql`(SELECT ${sqlText(dir === 'asc' ? 'MIN' : 'MAX')}(x.v) FROM (${joinSql(parts, ' UNION ALL ')}) x)`;
}
