/**
 * Summary-statistics tables of one generation.
 *
 * `assoc` holds every row under its stream number `pos` (the primary key, so SQLite stores rows in
 * that order). A study's rows are one range of `pos` ordered by `k` (chromosome * 2^32 + position),
 * so a genomic range of a study is one range of `pos`, found from `marks`, a sparse copy of `k`
 * (every 64th row and each study's first): a seek in the small table, then at most 64 rows. A page
 * of the range is then a primary-key range at any depth; nothing is skipped row by row.
 *
 * P-value order has its own index (`sid, plog, pos`) and `pmarks`, every 1024th row of each study
 * in that order with its rank, so the n-th row of a p-value range is a seek plus at most 1024 index
 * entries.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Updates } from '../../../core/ingest/updates.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import type { StudyInfo, SumstatsRecord } from './ingest.js';

export const SUMSTATS_PREFIX = 'gss';
export const SUMSTATS_TABLES = ['assoc', 'studies', 'study_traits', 'marks', 'pmarks'];
export const MARK_EVERY = 64;
export const PMARK_EVERY = 1024;

export const ROW_COLUMNS = ['pos', 'sid', 'k', 'vid', 'ea', 'oa', 'eaf', 'beta', 'se', 'odds', 'ci_l', 'ci_u', 'pm', 'pe', 'plog'];

export interface SumstatsTables {
  assoc: string;
  studies: string;
  study_traits: string;
  marks: string;
  pmarks: string;
}

export function ssTables(t: TableSet): SumstatsTables {
  return Object.fromEntries(SUMSTATS_TABLES.map((n) => [n, ident(t.name(n))])) as unknown as SumstatsTables;
}

export async function createSumstats(db: Db, t: TableSet): Promise<void> {
  const n = ssTables(t);
  const real = db.dialect === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  const big = db.dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  await db.exec(`
    CREATE TABLE ${n.assoc} (
      pos INTEGER PRIMARY KEY, sid INTEGER NOT NULL, k ${big} NOT NULL, vid TEXT NOT NULL,
      ea TEXT, oa TEXT, eaf ${real}, beta ${real}, se ${real}, odds ${real}, ci_l ${real}, ci_u ${real},
      pm ${real} NOT NULL, pe INTEGER NOT NULL, plog ${real} NOT NULL
    );
    CREATE TABLE ${n.studies} (
      sid INTEGER PRIMARY KEY, acc TEXT NOT NULL UNIQUE, first_pos INTEGER NOT NULL, last_pos INTEGER NOT NULL,
      n INTEGER NOT NULL, sorted INTEGER NOT NULL, traits TEXT NOT NULL, chromosomes TEXT NOT NULL, file TEXT NOT NULL, meta TEXT
    );
    CREATE TABLE ${n.study_traits} (efo TEXT NOT NULL, sid INTEGER NOT NULL, PRIMARY KEY (efo, sid));
    CREATE TABLE ${n.marks} (sid INTEGER NOT NULL, k ${big} NOT NULL, pos INTEGER NOT NULL, PRIMARY KEY (sid, k, pos));
    CREATE TABLE ${n.pmarks} (sid INTEGER NOT NULL, rnk INTEGER NOT NULL, plog ${real} NOT NULL, pos INTEGER NOT NULL, PRIMARY KEY (sid, rnk));
  `);
}

/** Rows into `assoc`: the store's batch insert (COPY on PostgreSQL, 16 rows a statement on SQLite). */
async function insertRows(tx: Db, t: TableSet, rows: SqlValue[][]): Promise<void> {
  await tx.insertMany(t.name('assoc'), ROW_COLUMNS, rows);
}

/**
 * Where an update's rows and studies are numbered from: the reader counts from 1, and the copy of the
 * served generation already holds those numbers.
 */
const offsets = new Map<number, { pos: number; sid: number }>();

export async function continueNumbering(db: Db, t: TableSet): Promise<void> {
  const n = ssTables(t);
  const r = await db.one<{ p: number | null; s: number | null }>(`SELECT (SELECT MAX(pos) FROM ${n.assoc}) AS p, (SELECT MAX(sid) FROM ${n.studies}) AS s`);
  offsets.set(t.gen, { pos: Number(r?.p ?? 0), sid: Number(r?.s ?? 0) });
}

/** An update's study replaces the served one of its accession: its rows (one range of `pos`) and traits go. */
export async function removeStudies(tx: Db, t: TableSet, accs: readonly string[]): Promise<void> {
  const n = ssTables(t);
  const old = await tx.query<{ sid: number; first_pos: number; last_pos: number }>(`SELECT sid, first_pos, last_pos FROM ${n.studies} WHERE acc IN (${accs.map(() => '?').join(', ')})`, accs);
  for (const s of old) {
    await tx.run(`DELETE FROM ${n.assoc} WHERE pos BETWEEN ? AND ?`, [Number(s.first_pos), Number(s.last_pos)]);
    await tx.run(`DELETE FROM ${n.study_traits} WHERE sid = ?`, [Number(s.sid)]);
  }
}

export async function writeSumstats(tx: Db, t: TableSet, batch: readonly Sourced<SumstatsRecord>[]): Promise<number[]> {
  const off = offsets.get(t.gen) ?? { pos: 0, sid: 0 };
  const rows: SqlValue[][] = [];
  const studies: StudyInfo[] = [];
  for (const b of batch) {
    if (b.value.kind === 'row') {
      const row = b.value.row;
      rows.push(off.pos || off.sid ? [(row[0] as number) + off.pos, (row[1] as number) + off.sid, ...row.slice(2)] : row);
    } else {
      const st = b.value.study;
      studies.push(off.pos || off.sid ? { ...st, sid: st.sid + off.sid, first: st.first + off.pos, last: st.last + off.pos } : st);
    }
  }
  await insertRows(tx, t, rows);
  for (const s of studies) {
    await tx.insertMany(
      t.name('studies'),
      ['sid', 'acc', 'first_pos', 'last_pos', 'n', 'sorted', 'traits', 'chromosomes', 'file', 'meta'],
      [[s.sid, s.acc, s.first, s.last, s.rows, s.sorted ? 1 : 0, JSON.stringify(s.traits), JSON.stringify(s.chromosomes), s.file, s.meta ? JSON.stringify(s.meta) : null]],
    );
    await tx.insertMany(
      t.name('study_traits'),
      ['efo', 'sid'],
      [...new Set(s.traits)].map((e) => [e, s.sid]),
    );
  }
  return [];
}

/**
 * A study whose file was not sorted (the metadata's `is_sorted: false` exists) gets its range
 * renumbered in chromosome and position order, keeping the same numbers.
 */
async function sortStudy(db: Db, n: SumstatsTables, s: { sid: number; first_pos: number }): Promise<void> {
  const cols = ROW_COLUMNS.filter((c) => c !== 'pos').join(', ');
  await db.transaction(async (tx) => {
    await tx.exec(`CREATE TEMPORARY TABLE gss_resort AS SELECT * FROM ${n.assoc} WHERE 1 = 0`);
    await tx.run(`INSERT INTO gss_resort (pos, ${cols}) SELECT ? - 1 + ROW_NUMBER() OVER (ORDER BY k, pos), ${cols} FROM ${n.assoc} WHERE sid = ?`, [s.first_pos, s.sid]);
    await tx.run(`DELETE FROM ${n.assoc} WHERE sid = ?`, [s.sid]);
    await tx.exec(`INSERT INTO ${n.assoc} (pos, ${cols}) SELECT pos, ${cols} FROM gss_resort; DROP TABLE gss_resort`);
  });
}

export async function finishSumstats(db: Db, t: TableSet): Promise<void> {
  offsets.delete(t.gen);
  const n = ssTables(t);
  const studies = await db.query<{ sid: number; first_pos: number; n: number; sorted: number }>(`SELECT sid, first_pos, n, sorted FROM ${n.studies} ORDER BY sid`);
  for (const s of studies) if (!Number(s.sorted) && Number(s.n) > 0) await sortStudy(db, n, { sid: Number(s.sid), first_pos: Number(s.first_pos) });
  const idx = (name: string, on: string) => `CREATE INDEX ${ident(t.name(name))} ON ${n.assoc} (${on});`;
  await db.exec(idx('assoc_vid', 'vid') + idx('assoc_p', 'sid, plog, pos'));
  await db.run(
    `INSERT INTO ${n.marks} (sid, k, pos) SELECT a.sid, a.k, a.pos FROM ${n.assoc} a WHERE a.pos % ${MARK_EVERY} = 0
     UNION SELECT a.sid, a.k, a.pos FROM ${n.assoc} a JOIN ${n.studies} s ON a.pos = s.first_pos`,
  );
  for (const s of studies) {
    if (Number(s.n) === 0) continue;
    await db.run(
      `INSERT INTO ${n.pmarks} (sid, rnk, plog, pos)
       SELECT sid, rn, plog, pos FROM (SELECT sid, plog, pos, ROW_NUMBER() OVER (ORDER BY plog, pos) - 1 AS rn FROM ${n.assoc} WHERE sid = ?) x
       WHERE rn % ${PMARK_EVERY} = 0`,
      [Number(s.sid)],
    );
  }
  // SQLite's statistics from a sample, as PostgreSQL's are: a full ANALYZE reads every index entry.
  if (db.dialect === 'sqlite') await db.exec('PRAGMA analysis_limit = 1000');
  await db.exec(
    Object.values(n)
      .map((x) => `ANALYZE ${x};`)
      .join('\n'),
  );
}

/**
 * The summary statistics are files, one per study, added to the FTP site as studies are published:
 * an update is the new (or re-released) studies' files, each replacing the study of its accession.
 * Nothing is listed as withdrawn. Marks and p-value marks are made again for every study.
 */
export const sumstatsUpdates: Updates<Sourced<SumstatsRecord>> = {
  noun: 'studies',
  parts: { study: { studies: 'acc' } },
  // A study's rows come before its record; they belong to a new study number, so they replace nothing.
  key: ({ value }) => (value.kind === 'study' ? { part: 'study', id: value.study.acc } : null),
  derived: ['marks', 'pmarks'],
  remove: (tx, t, _part, ids) => removeStudies(tx, t, ids as string[]),
  afterCopy: (db, _from, to) => continueNumbering(db, to),
};

/** Records of a load: rows and studies. */
export async function countSumstats(db: Db, t: TableSet): Promise<number> {
  const n = ssTables(t);
  const r = await db.one<{ a: number; b: number }>(`SELECT (SELECT COUNT(*) FROM ${n.assoc}) AS a, (SELECT COUNT(*) FROM ${n.studies}) AS b`);
  return Number(r?.a ?? 0) + Number(r?.b ?? 0);
}
