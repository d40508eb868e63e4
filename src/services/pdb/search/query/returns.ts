/**
 * Hits move between return types as the Search API moves them: up (a chain's match is its
 * entity's and its entry's), down (an entry's match is every entity, chain and assembly of it) and
 * across through the entry, with chemical components linked to the entities that hold them.
 * Each mapping is SQL over the object table, run on the hits' own query.
 */
import type { Dialect, SqlValue } from '../../../../core/store/db.js';
import { joinInOrder } from '../../../../core/store/sql.js';
import type { Sql } from '../../../../core/store/sql.js';
import type { ObjKind, SearchTables } from '../build/indexer.js';
import type { ReturnType } from './request.js';

/** The object kind a return type names in the index. */
export const RETURN_KIND: Record<ReturnType, ObjKind> = {
  entry: 'entry',
  polymer_entity: 'polymer_entity',
  non_polymer_entity: 'nonpolymer_entity',
  polymer_instance: 'polymer_instance',
  assembly: 'assembly',
  mol_definition: 'mol_definition',
};

const INSTANCE_OF: Partial<Record<ObjKind, ObjKind>> = {
  polymer_instance: 'polymer_entity',
  nonpolymer_instance: 'nonpolymer_entity',
  branched_instance: 'branched_entity',
};

/**
 * `(src, dst)` pairs: each hit object of kind `from` (rows of `hits`, with columns kind, obj and entry_id)
 * and the return-type identifiers it stands for. `n` is the archive's index (undefined when no
 * archive is loaded: only identity mappings then).
 * The hits are always read first and each one's objects looked up by index (see joinInOrder).
 */
export function mapSql(from: ObjKind, to: ReturnType, hits: Sql, n: SearchTables | undefined, dialect: Dialect, extra = ''): Sql | undefined {
  const target = RETURN_KIND[to];
  const h = `(${hits.sql}) h`;
  const join = joinInOrder(dialect);
  const k: SqlValue[] = [from];
  const p = hits.params;
  const sel = (dst: string) => `SELECT h.obj AS src, ${dst} AS dst${extra}`;
  if (from === target) return { sql: `${sel('h.obj')} FROM ${h} WHERE h.kind = ?`, params: [...p, from] };
  if (!n) return undefined;
  if (from === 'mol_definition') {
    if (target === 'nonpolymer_entity') return { sql: `${sel('r.id')} FROM ${h} ${join} ${n.sobj} r ON r.kind = 'nonpolymer_entity' AND r.comp = h.obj WHERE h.kind = ?`, params: [...p, ...k] };
    const viaComp = `FROM ${h} ${join} ${n.sobj} c ON c.kind = 'comp' AND c.id = h.obj`;
    if (target === 'entry') return { sql: `${sel('c.entry_id')} ${viaComp} WHERE h.kind = ?`, params: [...p, ...k] };
    return { sql: `${sel('r.id')} ${viaComp} ${join} ${n.sobj} r ON r.kind = ? AND r.entry_id = c.entry_id WHERE h.kind = ?`, params: [...p, target, ...k] };
  }
  const own = `FROM ${h} ${join} ${n.sobj} o ON o.kind = h.kind AND o.id = h.obj`;
  if (target === 'mol_definition') {
    if (from === 'nonpolymer_entity' || from === 'nonpolymer_instance') return { sql: `${sel('o.comp')} ${own} WHERE h.kind = ? AND o.comp IS NOT NULL`, params: [...p, ...k] };
    return { sql: `${sel('r.id')} FROM ${h} ${join} ${n.sobj} r ON r.kind = 'comp' AND r.entry_id = h.entry_id WHERE h.kind = ?`, params: [...p, ...k] };
  }
  // Hit rows carry their entry: objects of another kind in the same entry are joined on it (an
  // entry's own hits too, whose entry is their object: the value indexes hold the entry after the
  // value, so the database can seek the hits of each entry rather than read them all per entry).
  if (target === 'entry') return { sql: `${sel('h.entry_id')} FROM ${h} WHERE h.kind = ?`, params: [...p, ...k] };
  if (INSTANCE_OF[target] === from) return { sql: `${sel('r.id')} FROM ${h} ${join} ${n.sobj} r ON r.kind = ? AND r.entity = h.obj WHERE h.kind = ?`, params: [...p, target, ...k] };
  if (INSTANCE_OF[from] === target) return { sql: `${sel('o.entity')} ${own} WHERE h.kind = ? AND o.entity IS NOT NULL`, params: [...p, ...k] };
  return { sql: `${sel('r.id')} FROM ${h} ${join} ${n.sobj} r ON r.kind = ? AND r.entry_id = h.entry_id WHERE h.kind = ?`, params: [...p, target, ...k] };
}

/**
 * Whether `mapSql(from, to)` gives, for each hit, every object of the return type in the hit's
 * entry: the mapped hits then depend on the hits' entries alone.
 */
export function throughEntry(from: ObjKind, to: ReturnType): boolean {
  const target = RETURN_KIND[to];
  if (from === target || from === 'mol_definition' || target === 'mol_definition' || target === 'entry') return false;
  return INSTANCE_OF[target] !== from && INSTANCE_OF[from] !== target;
}

/**
 * The reverse of `mapSql`: the objects of kind `from` that the identifier `dst` (an SQL expression)
 * of the return type stands for: the same pairs, walked from the other end, to read a hit's own
 * values of an attribute (sort keys, facets). Steps of joins over the object table, the first
 * tied to `dst`, ending in the source object's id `src`. Kinds are written into the SQL: they
 * are names of this module's closed set, never request text.
 */
export interface Sources {
  steps: { table: string; alias: string; on: string }[];
  src: string;
}

export function sourcesSql(from: ObjKind, to: ReturnType, n: SearchTables, dst: string): Sources {
  const target = RETURN_KIND[to];
  const o = n.sobj;
  const step = (alias: string, on: string) => ({ table: o, alias, on });
  if (from === target) return { steps: [], src: dst };
  if (from === 'mol_definition') throw new Error(`no mapping from chemical definitions to ${to}`);
  if (target === 'mol_definition') {
    if (from === 'nonpolymer_entity' || from === 'nonpolymer_instance') return { steps: [step('r', `r.comp = ${dst} AND r.kind = '${from}'`)], src: 'r.id' };
    const comp = step('c', `c.kind = 'comp' AND c.id = ${dst}`);
    if (from === 'entry') return { steps: [comp], src: 'c.entry_id' };
    return { steps: [comp, step('r', `r.entry_id = c.entry_id AND r.kind = '${from}'`)], src: 'r.id' };
  }
  if (target === 'entry') return { steps: [step('r', `r.entry_id = ${dst} AND r.kind = '${from}'`)], src: 'r.id' };
  const self = step('t', `t.kind = '${target}' AND t.id = ${dst}`);
  if (from === 'entry') return { steps: [self], src: 't.entry_id' };
  if (INSTANCE_OF[target] === from) return { steps: [self], src: 't.entity' };
  if (INSTANCE_OF[from] === target) return { steps: [step('r', `r.entity = ${dst} AND r.kind = '${from}'`)], src: 'r.id' };
  return { steps: [self, step('r', `r.entry_id = t.entry_id AND r.kind = '${from}'`)], src: 'r.id' };
}

/** Every identifier of a return type (the universe a negated condition is taken from). */
export function allOfSql(to: ReturnType, n: SearchTables): Sql {
  const target = RETURN_KIND[to];
  if (target === 'mol_definition') return { sql: `SELECT DISTINCT id AS dst FROM ${n.sobj} WHERE kind = 'comp'`, params: [] };
  return { sql: `SELECT id AS dst FROM ${n.sobj} WHERE kind = ?`, params: [target] };
}

/** Computed structure models carry these prefixes (AlphaFold DB, ModelArchive). */
export const isComputed = (id: string): boolean => /^(AF|MA)_/.test(id);
