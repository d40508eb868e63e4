/**
 * Hits move between return types as the Search API moves them: up (a chain's match is its
 * entity's and its entry's), down (an entry's match is every entity, chain and assembly of it) and
 * across through the entry, with chemical components linked to the entities that hold them.
 * Each mapping is SQL over the object table, run on the hits' own query.
 */
import type { SqlValue } from '../../../core/store/db.js';
import type { HitSql } from './text.js';
import type { ObjKind, SearchTables } from './indexer.js';
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
 * `(src, dst)` pairs: each hit object of kind `from` (rows of `hits`, with columns kind and obj)
 * and the return-type identifiers it stands for. `n` is the archive's index (undefined when no
 * archive is loaded: only identity mappings then).
 */
export function mapSql(from: ObjKind, to: ReturnType, hits: HitSql, n: SearchTables | undefined, extra = ''): HitSql | undefined {
  const target = RETURN_KIND[to];
  const h = `(${hits.sql}) h`;
  const k: SqlValue[] = [from];
  const p = hits.params;
  const sel = (dst: string) => `SELECT h.obj AS src, ${dst} AS dst${extra}`;
  if (from === target) return { sql: `${sel('h.obj')} FROM ${h} WHERE h.kind = ?`, params: [...p, from] };
  if (!n) return undefined;
  if (from === 'mol_definition') {
    if (target === 'nonpolymer_entity') return { sql: `${sel('r.id')} FROM ${h} JOIN ${n.sobj} r ON r.kind = 'nonpolymer_entity' AND r.comp = h.obj WHERE h.kind = ?`, params: [...p, ...k] };
    const viaComp = `FROM ${h} JOIN ${n.sobj} c ON c.kind = 'comp' AND c.id = h.obj`;
    if (target === 'entry') return { sql: `${sel('c.entry_id')} ${viaComp} WHERE h.kind = ?`, params: [...p, ...k] };
    return { sql: `${sel('r.id')} ${viaComp} JOIN ${n.sobj} r ON r.kind = ? AND r.entry_id = c.entry_id WHERE h.kind = ?`, params: [...p, target, ...k] };
  }
  const own = `FROM ${h} JOIN ${n.sobj} o ON o.kind = h.kind AND o.id = h.obj`;
  if (target === 'mol_definition') {
    if (from === 'nonpolymer_entity' || from === 'nonpolymer_instance') return { sql: `${sel('o.comp')} ${own} WHERE h.kind = ? AND o.comp IS NOT NULL`, params: [...p, ...k] };
    if (from === 'entry') return { sql: `${sel('r.id')} FROM ${h} JOIN ${n.sobj} r ON r.kind = 'comp' AND r.entry_id = h.obj WHERE h.kind = ?`, params: [...p, ...k] };
    return { sql: `${sel('r.id')} ${own} JOIN ${n.sobj} r ON r.kind = 'comp' AND r.entry_id = o.entry_id WHERE h.kind = ?`, params: [...p, ...k] };
  }
  if (target === 'entry') return { sql: `${sel('o.entry_id')} ${own} WHERE h.kind = ?`, params: [...p, ...k] };
  if (INSTANCE_OF[target] === from) return { sql: `${sel('r.id')} FROM ${h} JOIN ${n.sobj} r ON r.kind = ? AND r.entity = h.obj WHERE h.kind = ?`, params: [...p, target, ...k] };
  if (INSTANCE_OF[from] === target) return { sql: `${sel('o.entity')} ${own} WHERE h.kind = ? AND o.entity IS NOT NULL`, params: [...p, ...k] };
  if (from === 'entry') return { sql: `${sel('r.id')} FROM ${h} JOIN ${n.sobj} r ON r.kind = ? AND r.entry_id = h.obj WHERE h.kind = ?`, params: [...p, target, ...k] };
  return { sql: `${sel('r.id')} ${own} JOIN ${n.sobj} r ON r.kind = ? AND r.entry_id = o.entry_id WHERE h.kind = ?`, params: [...p, target, ...k] };
}

/** Every identifier of a return type (the universe a negated condition is taken from). */
export function allOfSql(to: ReturnType, n: SearchTables): HitSql {
  const target = RETURN_KIND[to];
  if (target === 'mol_definition') return { sql: `SELECT DISTINCT id AS dst FROM ${n.sobj} WHERE kind = 'comp'`, params: [] };
  return { sql: `SELECT id AS dst FROM ${n.sobj} WHERE kind = ?`, params: [target] };
}

/** Computed structure models carry these prefixes (AlphaFold DB, ModelArchive). */
export const isComputed = (id: string): boolean => /^(AF|MA)_/.test(id);
