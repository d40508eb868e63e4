/**
 * What `show_child_trait` finds, worked out once at load: every term a trait filter can widen
 * (`under_terms`), and for each the associations and studies under it (`assoc_under`,
 * `study_under`), keyed by the list's dense default-order number. A widened list in its default
 * order is then a range of one index and its size a stored count, as fast as one trait's list,
 * where walking EFO at request time would read, count and sort every association of every
 * descendant (tens of thousands for a category).
 *
 * "Under a term T" is what the walk at request time finds: T itself, the terms the trait mappings
 * file under T, and every EFO descendant (is_a, transitively) of either. Turned around, the terms a
 * trait t is under are its EFO ancestors and itself, plus the trait-mapping parents of any of
 * those. Those sets are computed here for the few thousand terms the catalog uses; the database
 * joins them to the associations. The tables are derived: an update leaves them empty and `finish`
 * builds them again.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import type { CatalogTables } from './store.js';

/** The tables this module fills: an update's copy leaves them empty. */
export const UNDER_TABLES = ['under_terms', 'trait_under', 'assoc_under', 'study_under'] as const;

export async function createUnder(db: Db, n: CatalogTables): Promise<void> {
  const big = db.dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  // A key of two integers and nothing else: SQLite keeps it as the table itself.
  const keyOnly = db.dialect === 'sqlite' ? ' WITHOUT ROWID' : '';
  await db.exec(`
    CREATE TABLE ${n.under_terms} (id INTEGER PRIMARY KEY, short_form TEXT NOT NULL UNIQUE, assocs ${big} NOT NULL, studies ${big} NOT NULL);
    CREATE TABLE ${n.trait_under} (short_form TEXT NOT NULL, anc INTEGER NOT NULL, PRIMARY KEY (short_form, anc));
    CREATE TABLE ${n.assoc_under} (anc INTEGER NOT NULL, ord ${big} NOT NULL, PRIMARY KEY (anc, ord))${keyOnly};
    CREATE TABLE ${n.study_under} (anc INTEGER NOT NULL, sid ${big} NOT NULL, PRIMARY KEY (anc, sid))${keyOnly};
  `);
}

/** Adds `to` to the list of `key`. */
function link(m: Map<string, string[]>, key: string, to: string): void {
  const list = m.get(key);
  if (list) list.push(to);
  else m.set(key, [to]);
}

/**
 * The terms each trait is under: itself and its EFO ancestors (each visited once, so a cycle in
 * the file ends the walk), then the trait-mapping parents of any of them.
 */
export function ancestors(traits: Iterable<string>, efoParents: Map<string, string[]>, mapParents: Map<string, string[]>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of traits) {
    const up = new Set<string>([t]);
    const todo = [t];
    while (todo.length) {
      for (const p of efoParents.get(todo.pop() as string) ?? []) {
        if (!up.has(p)) {
          up.add(p);
          todo.push(p);
        }
      }
    }
    const all = new Set(up);
    for (const x of up) for (const p of mapParents.get(x) ?? []) all.add(p);
    out.set(t, all);
  }
  return out;
}

/** Fills the tables from the generation's links, trait mappings and EFO edges (run by `finish`). */
export async function buildUnder(db: Db, t: TableSet, n: CatalogTables): Promise<void> {
  const efoParents = new Map<string, string[]>();
  for (const e of await db.query<{ parent: string; child: string }>(`SELECT parent, child FROM ${n.efo_edges}`)) link(efoParents, e.child, e.parent);
  const mapParents = new Map<string, string[]>();
  for (const m of await db.query<{ short_form: string; parent: string }>(`SELECT DISTINCT short_form, parent FROM ${n.trait_map}`)) link(mapParents, m.short_form, m.parent);
  const used = await db.query<{ sf: string }>(`SELECT DISTINCT short_form AS sf FROM ${n.assoc_traits} UNION SELECT DISTINCT short_form AS sf FROM ${n.study_traits}`);
  const up = ancestors(
    used.map((r) => r.sf),
    efoParents,
    mapParents,
  );
  const ids = new Map<string, number>();
  const pairs: SqlValue[][] = [];
  for (const [trait, above] of up) {
    for (const a of above) {
      let id = ids.get(a);
      if (id === undefined) ids.set(a, (id = ids.size + 1));
      pairs.push([trait, id]);
    }
  }
  await db.insertMany(
    t.name('under_terms'),
    ['id', 'short_form', 'assocs', 'studies'],
    [...ids].map(([sf, id]) => [id, sf, 0, 0]),
  );
  await db.insertMany(t.name('trait_under'), ['short_form', 'anc'], pairs);
  // In key order, each (term, association) once however many of its traits are under the term.
  await db.exec(`
    INSERT INTO ${n.assoc_under} (anc, ord) SELECT DISTINCT u.anc, a.ord FROM ${n.assoc_traits} k
      JOIN ${n.trait_under} u ON u.short_form = k.short_form JOIN ${n.assocs} a ON a.id = k.assoc_id ORDER BY u.anc, a.ord;
    INSERT INTO ${n.study_under} (anc, sid) SELECT DISTINCT u.anc, s.id FROM ${n.study_traits} j
      JOIN ${n.trait_under} u ON u.short_form = j.short_form JOIN ${n.studies} s ON s.acc = j.acc ORDER BY u.anc, s.id;
  `);
  // The counts in one pass over each table (a count per term would revisit its rows through the key).
  for (const [col, table] of [
    ['assocs', n.assoc_under],
    ['studies', n.study_under],
  ] as const) {
    await db.exec(`UPDATE ${n.under_terms} SET ${col} = c.k FROM (SELECT anc, COUNT(*) AS k FROM ${table} GROUP BY anc) c WHERE c.anc = ${n.under_terms}.id`);
  }
}
