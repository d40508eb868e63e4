/**
 * The preprint tables of one generation.
 *
 * papers / pubs hold each record as served, written in whatever order the input has. Once every row
 * is in, paper_order and pub_order number them in the order pages list them (date, then DOI, then
 * version): a generation never changes, so "records 4500-4599 of 1 to 15 March" becomes two index
 * reads for the ends of the range and a primary-key range, whatever the cursor. Running counts of
 * first versions give `count_new_papers` the same way. Per category, a second numbering does the
 * same for the category filter.
 */
import type { TableSet } from '../../core/ingest/dataset.js';
import type { Sourced } from '../../core/ingest/load.js';
import type { Updates } from '../../core/ingest/updates.js';
import { ident, type Db, type SqlValue } from '../../core/store/db.js';
import type { FullTextFile } from './fulltext.js';
import type { Paper, Pub } from './records.js';

export const TABLE_PREFIX = 'bx';
export const TABLES = ['papers', 'paper_order', 'pubs', 'pub_order', 'files'];

export type Item = { kind: 'paper'; paper: Paper } | { kind: 'pub'; pub: Pub } | { kind: 'file'; file: FullTextFile };

export interface Tables {
  papers: string;
  paperOrder: string;
  pubs: string;
  pubOrder: string;
  files: string;
}

export function tablesOf(t: TableSet): Tables {
  return {
    papers: ident(t.name('papers')),
    paperOrder: ident(t.name('paper_order')),
    pubs: ident(t.name('pubs')),
    pubOrder: ident(t.name('pub_order')),
    files: ident(t.name('files')),
  };
}

/**
 * An update is the API's pages for the days since the last load (`details` and `pubs` by date
 * interval, saved as they come): each paper version replaces the same DOI and version, each
 * publication record the same preprint DOI. The servers list nothing as removed (a withdrawal is a
 * new version), so an update never deletes.
 */
export const preprintUpdates: Updates<Sourced<Item>> = {
  noun: 'paper versions',
  parts: {
    paper: { papers: ['doi', 'version'] },
    pub: { pubs: 'preprint_doi' },
    file: { files: ['doi', 'version', 'kind'] },
  },
  key: ({ value: v }) =>
    v.kind === 'paper'
      ? { part: 'paper', id: [v.paper.doiKey, v.paper.version] }
      : v.kind === 'pub'
        ? { part: 'pub', id: v.pub.preprintDoiKey }
        : { part: 'file', id: [v.file.doiKey, v.file.version, v.file.kind] },
  derived: ['paper_order', 'pub_order'],
};

/** Text compared or sorted sorts bytewise on both databases (PostgreSQL's default collation would not). */
function textType(db: Db): string {
  return db.dialect === 'postgres' ? 'TEXT COLLATE "C"' : 'TEXT';
}

export async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const txt = textType(db);
  const blob = db.dialect === 'postgres' ? 'BYTEA' : 'BLOB';
  await db.exec(`
    CREATE TABLE ${n.papers} (rid INTEGER PRIMARY KEY, doi ${txt} NOT NULL, version INTEGER NOT NULL, date ${txt} NOT NULL,
      category ${txt} NOT NULL, is_new INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE UNIQUE INDEX ${ident(t.name('papers') + '_doi')} ON ${n.papers} (doi, version);
    CREATE TABLE ${n.pubs} (rid INTEGER PRIMARY KEY, preprint_doi ${txt} NOT NULL, published_doi ${txt} NOT NULL,
      published_date ${txt} NOT NULL, doc TEXT NOT NULL);
    CREATE UNIQUE INDEX ${ident(t.name('pubs') + '_doi')} ON ${n.pubs} (preprint_doi);
    CREATE TABLE ${n.files} (doi ${txt} NOT NULL, version INTEGER NOT NULL, kind ${txt} NOT NULL, content ${blob} NOT NULL,
      PRIMARY KEY (doi, version, kind));
  `);
}

async function nextRid(tx: Db, table: string): Promise<number> {
  const r = await tx.one<{ m: number | null }>(`SELECT MAX(rid) AS m FROM ${table}`);
  return Number(r?.m ?? 0) + 1;
}

const placeholders = (k: number) => Array.from({ length: k }, () => '?').join(', ');

/** Writes one batch; returns the indexes of records already loaded from an earlier place. */
export async function writeBatch(tx: Db, t: TableSet, batch: readonly Sourced<Item>[]): Promise<number[]> {
  const n = tablesOf(t);
  const dupes: number[] = [];
  const papers: [number, Paper][] = [];
  const pubs: [number, Pub][] = [];
  const files: [number, FullTextFile][] = [];
  batch.forEach((b, i) => {
    const v = b.value;
    if (v.kind === 'paper') papers.push([i, v.paper]);
    else if (v.kind === 'pub') pubs.push([i, v.pub]);
    else files.push([i, v.file]);
  });

  if (papers.length) {
    const dois = [...new Set(papers.map(([, p]) => p.doiKey))];
    const seen = new Set(
      (await tx.query<{ doi: string; version: number }>(`SELECT doi, version FROM ${n.papers} WHERE doi IN (${placeholders(dois.length)})`, dois)).map((r) => `${r.doi} ${Number(r.version)}`),
    );
    let rid = await nextRid(tx, n.papers);
    const rows: SqlValue[][] = [];
    for (const [i, p] of papers) {
      const key = `${p.doiKey} ${p.version}`;
      if (seen.has(key)) {
        dupes.push(i);
        continue;
      }
      seen.add(key);
      rows.push([rid++, p.doiKey, p.version, p.date, p.category, p.version === 1 ? 1 : 0, p.doc]);
    }
    await tx.insertMany(t.name('papers'), ['rid', 'doi', 'version', 'date', 'category', 'is_new', 'doc'], rows);
  }

  if (pubs.length) {
    const dois = [...new Set(pubs.map(([, p]) => p.preprintDoiKey))];
    const seen = new Set((await tx.query<{ d: string }>(`SELECT preprint_doi AS d FROM ${n.pubs} WHERE preprint_doi IN (${placeholders(dois.length)})`, dois)).map((r) => r.d));
    let rid = await nextRid(tx, n.pubs);
    const rows: SqlValue[][] = [];
    for (const [i, p] of pubs) {
      if (seen.has(p.preprintDoiKey)) {
        dupes.push(i);
        continue;
      }
      seen.add(p.preprintDoiKey);
      rows.push([rid++, p.preprintDoiKey, p.publishedDoiKey, p.publishedDate, p.doc]);
    }
    await tx.insertMany(t.name('pubs'), ['rid', 'preprint_doi', 'published_doi', 'published_date', 'doc'], rows);
  }

  // Full-text files are read one at a time as they are written: memory holds one file, not a batch.
  for (const [i, f] of files) {
    const exists = await tx.one(`SELECT 1 AS x FROM ${n.files} WHERE doi = ? AND version = ? AND kind = ?`, [f.doiKey, f.version, f.kind]);
    if (exists) {
      dupes.push(i);
      continue;
    }
    await tx.insertMany(t.name('files'), ['doi', 'version', 'kind', 'content'], [[f.doiKey, f.version, f.kind, await f.read()]]);
  }
  return dupes.sort((a, b) => a - b);
}

/** Numbers the records in page order (see the top of this file), then builds the lookup indexes. */
export async function finishTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const idx = (logical: string, suffix: string) => ident(`${t.name(logical)}_${suffix}`);
  const order = 'ORDER BY date, doi, version';
  await db.exec(`
    CREATE TABLE ${n.paperOrder} (id INTEGER PRIMARY KEY, rid INTEGER NOT NULL, date ${textType(db)} NOT NULL,
      category ${textType(db)} NOT NULL, cseq INTEGER NOT NULL, is_new INTEGER NOT NULL, new_run INTEGER NOT NULL,
      cnew_run INTEGER NOT NULL);
    INSERT INTO ${n.paperOrder} (id, rid, date, category, cseq, is_new, new_run, cnew_run)
      SELECT ROW_NUMBER() OVER (${order}), rid, date, category,
        ROW_NUMBER() OVER (PARTITION BY category ${order}), is_new,
        SUM(is_new) OVER (${order} ROWS UNBOUNDED PRECEDING),
        SUM(is_new) OVER (PARTITION BY category ${order} ROWS UNBOUNDED PRECEDING)
      FROM ${n.papers};
    CREATE INDEX ${idx('paper_order', 'date')} ON ${n.paperOrder} (date, id);
    CREATE UNIQUE INDEX ${idx('paper_order', 'cseq')} ON ${n.paperOrder} (category, cseq);
    CREATE INDEX ${idx('paper_order', 'cdate')} ON ${n.paperOrder} (category, date, cseq);
    CREATE TABLE ${n.pubOrder} (id INTEGER PRIMARY KEY, rid INTEGER NOT NULL, published_date ${textType(db)} NOT NULL);
    INSERT INTO ${n.pubOrder} (id, rid, published_date)
      SELECT ROW_NUMBER() OVER (ORDER BY published_date, preprint_doi), rid, published_date FROM ${n.pubs};
    CREATE INDEX ${idx('pub_order', 'date')} ON ${n.pubOrder} (published_date, id);
    CREATE INDEX ${idx('pubs', 'published')} ON ${n.pubs} (published_doi);
  `);
  for (const table of [n.papers, n.paperOrder, n.pubs, n.pubOrder]) await db.exec(`ANALYZE ${table}`);
}

export async function countRecords(db: Db, t: TableSet): Promise<number> {
  const n = tablesOf(t);
  const r = await db.one<{ c: number }>(`SELECT (SELECT COUNT(*) FROM ${n.papers}) + (SELECT COUNT(*) FROM ${n.pubs}) + (SELECT COUNT(*) FROM ${n.files}) AS c`);
  return Number(r?.c ?? 0);
}
