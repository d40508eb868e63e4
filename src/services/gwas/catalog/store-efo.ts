/**
 * EFO's terms and their `is_a` links (child, parent), from `efo.obo` when a load brings it: what
 * `show_child_trait` walks down from a trait to all its descendants. Empty without the file.
 */
import type { Db, SqlValue } from '../../../core/store/db.js';
import type { EfoTermRecord } from './efo.js';
import type { CatalogRecord } from './records.js';
import type { CatalogTables, Counters } from './store.js';

export async function createEfo(db: Db, n: CatalogTables): Promise<void> {
  await db.exec(`
    CREATE TABLE ${n.efo_terms} (id INTEGER PRIMARY KEY, short_form TEXT NOT NULL UNIQUE, label_lc TEXT NOT NULL);
    CREATE TABLE ${n.efo_edges} (parent TEXT NOT NULL, child TEXT NOT NULL, PRIMARY KEY (parent, child));
  `);
}

/** Indexes `finish` builds: [table, index name, columns]. The edges' key already seeks by parent. */
export const EFO_INDEXES: [keyof CatalogTables, string, string][] = [
  ['efo_terms', 'efo_terms_label', 'label_lc'],
  ['efo_edges', 'efo_edges_child', 'child'],
];

/** Writes a batch's EFO terms and links; returns the indexes (in `recs`) of terms already written. */
export async function writeEfo(tx: Db, n: CatalogTables, raw: (logical: string) => string, recs: readonly CatalogRecord[], c: Counters): Promise<number[]> {
  const at: number[] = [];
  recs.forEach((r, i) => {
    if (r.kind === 'efoTerm') at.push(i);
  });
  if (at.length === 0) return [];
  const terms = at.map((i) => recs[i] as EfoTermRecord);
  const seen = new Set<string>();
  const keys = [...new Set(terms.map((t) => t.shortForm))];
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = await tx.query<{ k: string }>(`SELECT short_form AS k FROM ${n.efo_terms} WHERE short_form IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const r of rows) seen.add(r.k);
  }
  const dupes: number[] = [];
  const termRows: SqlValue[][] = [];
  const edgeRows: SqlValue[][] = [];
  terms.forEach((t, j) => {
    if (seen.has(t.shortForm)) return void dupes.push(at[j] as number);
    seen.add(t.shortForm);
    termRows.push([++c.efoTerm, t.shortForm, t.label.toLowerCase()]);
    for (const p of t.parents) edgeRows.push([p, t.shortForm]);
  });
  await tx.insertMany(raw('efo_terms'), ['id', 'short_form', 'label_lc'], termRows);
  await tx.insertMany(raw('efo_edges'), ['parent', 'child'], edgeRows);
  return dupes;
}
