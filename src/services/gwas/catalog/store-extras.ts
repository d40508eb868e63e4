/**
 * The tables only API v2 reads: the trait mappings' parent links (for `show_child_trait`), the
 * unpublished studies with their ancestries, and the bodies of work those studies name. A release
 * without these files leaves them empty, and v2 answers empty lists.
 */
import type { Db, SqlValue } from '../../../core/store/db.js';
import type { CatalogRecord } from './records.js';
import type { CatalogTables, Counters } from './store.js';
import type { TraitMappingRecord, UnpublishedAncestryRecord, UnpublishedStudyRecord } from './unpublished.js';

export async function createExtras(db: Db, n: CatalogTables): Promise<void> {
  const big = db.dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  await db.exec(`
    CREATE TABLE ${n.trait_map} (id INTEGER PRIMARY KEY, rec INTEGER NOT NULL, short_form TEXT NOT NULL, parent TEXT NOT NULL, parent_lc TEXT NOT NULL);
    CREATE TABLE ${n.unpub_studies} (id INTEGER PRIMARY KEY, acc TEXT NOT NULL, is_first INTEGER NOT NULL, bow_id INTEGER, trait_lc TEXT NOT NULL,
      cohort_lc TEXT NOT NULL, variant_count ${big}, doc TEXT NOT NULL);
    CREATE TABLE ${n.unpub_ancestries} (id INTEGER PRIMARY KEY, acc TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.bows} (id INTEGER PRIMARY KEY, bkey TEXT NOT NULL UNIQUE, title_lc TEXT NOT NULL, author_lc TEXT NOT NULL, doc TEXT NOT NULL);
  `);
}

/** Indexes `finish` builds: [table, index name, columns]. */
export const EXTRA_INDEXES: [keyof CatalogTables, string, string][] = [
  ['trait_map', 'trait_map_parent', 'parent, short_form'],
  ['trait_map', 'trait_map_child', 'short_form'],
  ['trait_map', 'trait_map_label', 'parent_lc'],
  ['unpub_studies', 'unpub_acc', 'acc, id'],
  ['unpub_studies', 'unpub_first', 'is_first, id'],
  ['unpub_studies', 'unpub_bow', 'bow_id, id'],
  ['unpub_ancestries', 'unpub_anc_acc', 'acc, id'],
];

async function present(tx: Db, table: string, column: string, keys: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = await tx.query<{ k: string; id: number }>(`SELECT ${column} AS k, MIN(id) AS id FROM ${table} WHERE ${column} IN (${chunk.map(() => '?').join(', ')}) GROUP BY ${column}`, chunk);
    for (const r of rows) out.set(String(r.k), Number(r.id));
  }
  return out;
}

/**
 * Writes a batch's unpublished studies (one row per file row: a study in two bodies of work has
 * two rows, the first of which is the study), their ancestries, the bodies of work they name (the
 * first description of each wins) and the trait mappings' (term, parent) pairs.
 */
export async function writeExtras(tx: Db, n: CatalogTables, raw: (logical: string) => string, recs: readonly CatalogRecord[], c: Counters): Promise<void> {
  const unpub = recs.filter((r): r is UnpublishedStudyRecord => r.kind === 'unpublished');
  const ancestries = recs.filter((r): r is UnpublishedAncestryRecord => r.kind === 'unpublishedAncestry');
  const mappings = recs.filter((r): r is TraitMappingRecord => r.kind === 'traitMapping');
  if (unpub.length) {
    const studies = await present(
      tx,
      n.unpub_studies,
      'acc',
      unpub.map((u) => u.acc),
    );
    const bows = await present(
      tx,
      n.bows,
      'bkey',
      unpub.flatMap((u) => (u.bow ? [u.bow.key] : [])),
    );
    const studyRows: SqlValue[][] = [];
    const bowRows: SqlValue[][] = [];
    for (const u of unpub) {
      let bowId: number | null = null;
      if (u.bow) {
        bowId = bows.get(u.bow.key) ?? null;
        if (bowId === null) {
          bowId = ++c.bow;
          bows.set(u.bow.key, bowId);
          bowRows.push([bowId, u.bow.key, (u.bow.title ?? '').toLowerCase(), (u.bow.firstAuthor ?? '').toLowerCase(), JSON.stringify(u.bow.doc)]);
        }
      }
      const first = !studies.has(u.acc);
      const id = ++c.unpub;
      if (first) studies.set(u.acc, id);
      studyRows.push([id, u.acc, first ? 1 : 0, bowId, u.trait.toLowerCase(), u.cohort.toLowerCase(), u.variantCount, JSON.stringify(u.doc)]);
    }
    await tx.insertMany(raw('bows'), ['id', 'bkey', 'title_lc', 'author_lc', 'doc'], bowRows);
    await tx.insertMany(raw('unpub_studies'), ['id', 'acc', 'is_first', 'bow_id', 'trait_lc', 'cohort_lc', 'variant_count', 'doc'], studyRows);
  }
  if (ancestries.length) {
    await tx.insertMany(
      raw('unpub_ancestries'),
      ['id', 'acc', 'doc'],
      ancestries.map((a) => [++c.unpubAncestry, a.acc, JSON.stringify(a.doc)]),
    );
  }
  if (mappings.length) {
    const rows: SqlValue[][] = [];
    for (const m of mappings) {
      const rec = ++c.traitRec;
      const seen = new Set<string>();
      for (const p of m.parents) {
        if (seen.has(p.shortForm)) continue;
        seen.add(p.shortForm);
        rows.push([++c.traitRow, rec, m.shortForm, p.shortForm, p.label.toLowerCase()]);
      }
    }
    await tx.insertMany(raw('trait_map'), ['id', 'rec', 'short_form', 'parent', 'parent_lc'], rows);
  }
}
