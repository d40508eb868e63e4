/**
 * The registry's tables, one set per generation: studies (the document as loaded plus the columns
 * searched and sorted on), phases (many per study), aliases (old NCT numbers), and the text index
 * (an FTS5 table on SQLite, a table of tsvectors with a GIN index on PostgreSQL).
 */
import type { Db, SqlValue } from '../../core/store/db.js';
import { ident } from '../../core/store/db.js';
import type { TableSet } from '../../core/ingest/dataset.js';
import type { Sourced } from '../../core/ingest/load.js';
import { AREAS, areaTexts, type Study, type StudyColumns } from './extract.js';
import { normalizeText } from './text.js';

export const TABLE_PREFIX = 'ct';
export const TABLES = ['studies', 'phases', 'aliases', 'text'] as const;

export interface StudyRecord {
  study: Study;
  doc: string;
  cols: StudyColumns;
}

const STUDY_COLUMNS = [
  'id',
  'nct_id',
  'doc',
  'overall_status',
  'study_type',
  'sex',
  'has_results',
  'healthy_volunteers',
  'std_ages',
  'start_date',
  'primary_completion_date',
  'completion_date',
  'study_first_post_date',
  'last_update_post_date',
  'results_first_post_date',
  'enrollment_count',
  'min_age_days',
  'max_age_days',
  'version_holder',
] as const;

export const SORT_COLUMNS = ['last_update_post_date', 'enrollment_count', 'start_date', 'study_first_post_date'] as const;

export function tablesOf(t: TableSet) {
  return {
    studies: t.name('studies'),
    phases: t.name('phases'),
    aliases: t.name('aliases'),
    text: t.name('text'),
  };
}

export async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const real = db.dialect === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  await db.exec(`
    CREATE TABLE ${ident(n.studies)} (
      id INTEGER PRIMARY KEY,
      nct_id TEXT NOT NULL,
      doc TEXT NOT NULL,
      overall_status TEXT,
      study_type TEXT,
      sex TEXT,
      has_results INTEGER NOT NULL,
      healthy_volunteers INTEGER,
      std_ages TEXT,
      start_date TEXT,
      primary_completion_date TEXT,
      completion_date TEXT,
      study_first_post_date TEXT,
      last_update_post_date TEXT,
      results_first_post_date TEXT,
      enrollment_count INTEGER,
      min_age_days ${real},
      max_age_days ${real},
      version_holder TEXT
    );
    CREATE UNIQUE INDEX ${ident(n.studies + '_nct')} ON ${ident(n.studies)} (nct_id);
    CREATE TABLE ${ident(n.phases)} (phase TEXT NOT NULL, study_id INTEGER NOT NULL, PRIMARY KEY (phase, study_id));
    CREATE TABLE ${ident(n.aliases)} (alias TEXT PRIMARY KEY, nct_id TEXT NOT NULL);
  `);
  if (db.dialect === 'sqlite') {
    // Contentless: the text lives in the studies' documents; the index alone answers MATCH and bm25.
    await db.exec(
      `CREATE VIRTUAL TABLE ${ident(n.text)} USING fts5(${AREAS.join(', ')}, content='', tokenize='unicode61 remove_diacritics 2')`,
    );
  } else {
    await db.exec(
      `CREATE TABLE ${ident(n.text)} (id INTEGER PRIMARY KEY, all_tsv tsvector NOT NULL, ${AREAS.map((a) => `${a} tsvector NOT NULL`).join(', ')})`,
    );
  }
}

function studyRow(id: number, r: StudyRecord): SqlValue[] {
  const c = r.cols;
  return [
    id,
    c.nctId,
    r.doc,
    c.overallStatus,
    c.studyType,
    c.sex,
    c.hasResults,
    c.healthyVolunteers,
    c.stdAges,
    c.startDate,
    c.primaryCompletionDate,
    c.completionDate,
    c.studyFirstPostDate,
    c.lastUpdatePostDate,
    c.resultsFirstPostDate,
    c.enrollmentCount,
    c.minAgeDays,
    c.maxAgeDays,
    c.versionHolder,
  ];
}

// Weights of the areas in PostgreSQL's single ranked tsvector (A highest).
const PG_WEIGHT: Record<(typeof AREAS)[number], 'A' | 'B' | 'C' | 'D'> = {
  cond: 'A',
  intr: 'A',
  locn: 'C',
  spons: 'B',
  lead: 'B',
  titles: 'A',
  outc: 'C',
  ids: 'A',
  other: 'D',
};

/** Writes one batch; returns the indexes of studies whose NCT number is already in this generation. */
export async function writeBatch(tx: Db, t: TableSet, batch: readonly Sourced<StudyRecord>[]): Promise<number[]> {
  const n = tablesOf(t);
  const ids = batch.map((b) => b.value.cols.nctId);
  const placeholders = ids.map(() => '?').join(', ');
  const existing = new Set(
    (await tx.query<{ nct_id: string }>(`SELECT nct_id FROM ${ident(n.studies)} WHERE nct_id IN (${placeholders})`, ids)).map((r) => r.nct_id),
  );
  const top = await tx.one<{ m: number | null }>(`SELECT MAX(id) AS m FROM ${ident(n.studies)}`);
  let next = Number(top?.m ?? 0) + 1;

  const dupes: number[] = [];
  const studies: SqlValue[][] = [];
  const phases: SqlValue[][] = [];
  const aliases: SqlValue[][] = [];
  const texts: { id: number; areas: Record<string, string> }[] = [];
  batch.forEach((b, i) => {
    const r = b.value;
    if (existing.has(r.cols.nctId)) {
      dupes.push(i);
      return;
    }
    existing.add(r.cols.nctId);
    const id = next++;
    studies.push(studyRow(id, r));
    for (const p of new Set(r.cols.phases)) phases.push([p, id]);
    for (const a of r.cols.aliases) if (a !== r.cols.nctId) aliases.push([a, r.cols.nctId]);
    texts.push({ id, areas: areaTexts(r.study) });
  });

  await tx.insertMany(n.studies, STUDY_COLUMNS, studies);
  await tx.insertMany(n.phases, ['phase', 'study_id'], phases);
  if (aliases.length) {
    // An alias listed by two studies points at the first.
    const sql = `INSERT INTO ${ident(n.aliases)} (alias, nct_id) VALUES (?, ?) ON CONFLICT (alias) DO NOTHING`;
    for (const a of aliases) await tx.run(sql, a);
  }
  if (tx.dialect === 'sqlite') {
    await tx.insertMany(
      n.text,
      ['rowid', ...AREAS],
      texts.map((x) => [x.id, ...AREAS.map((a) => x.areas[a] ?? '')]),
    );
  } else {
    await writePgText(tx, n.text, texts);
  }
  return dupes;
}

async function writePgText(tx: Db, table: string, texts: { id: number; areas: Record<string, string> }[]): Promise<void> {
  const per = 500;
  for (let start = 0; start < texts.length; start += per) {
    const chunk = texts.slice(start, start + per);
    const params: SqlValue[] = [];
    const rows = chunk.map((x) => {
      params.push(x.id, ...AREAS.map((a) => normalizeText(x.areas[a] ?? '')));
      return `(?::integer, ${AREAS.map(() => '?').join(', ')})`;
    });
    const vecs = AREAS.map((a) => `to_tsvector('simple', v.${a}) AS ${a}`).join(', ');
    const all = AREAS.map((a) => `setweight(t.${a}, '${PG_WEIGHT[a]}')`).join(' || ');
    await tx.run(
      `INSERT INTO ${ident(table)} (id, all_tsv, ${AREAS.join(', ')})
       SELECT t.id, ${all}, ${AREAS.map((a) => `t.${a}`).join(', ')}
       FROM (SELECT v.id, ${vecs} FROM (VALUES ${rows.join(', ')}) AS v (id, ${AREAS.join(', ')})) t`,
      params,
    );
  }
}

/** Indexes built once the rows are in: faster than maintaining them row by row during the load. */
export async function finishTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const s = ident(n.studies);
  const idx = (suffix: string) => ident(`${n.studies}_${suffix}`);
  const stmts = [`CREATE INDEX ${idx('status')} ON ${s} (overall_status)`];
  for (const c of SORT_COLUMNS) {
    if (db.dialect === 'sqlite') {
      // Matches ORDER BY (c IS NULL), c ASC|DESC, nct_id: nulls last in both directions.
      stmts.push(`CREATE INDEX ${idx(c + '_a')} ON ${s} ((${c} IS NULL), ${c}, nct_id)`);
      stmts.push(`CREATE INDEX ${idx(c + '_d')} ON ${s} ((${c} IS NULL), ${c} DESC, nct_id)`);
    } else {
      stmts.push(`CREATE INDEX ${idx(c + '_a')} ON ${s} (${c} ASC NULLS LAST, nct_id)`);
      stmts.push(`CREATE INDEX ${idx(c + '_d')} ON ${s} (${c} DESC NULLS LAST, nct_id)`);
    }
  }
  for (const sql of stmts) await db.exec(sql);
  if (db.dialect === 'sqlite') {
    await db.exec(`INSERT INTO ${ident(n.text)} (${ident(n.text)}) VALUES ('optimize')`);
    await db.exec(`ANALYZE ${s}`);
  } else {
    await db.exec(`CREATE INDEX ${ident(n.text + '_all')} ON ${ident(n.text)} USING GIN (all_tsv)`);
    await db.exec(`ANALYZE ${s}; ANALYZE ${ident(n.text)}; ANALYZE ${ident(n.phases)}`);
  }
}

export async function countStudies(db: Db, t: TableSet): Promise<number> {
  const r = await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(tablesOf(t).studies)}`);
  return Number(r?.n ?? 0);
}

export async function studyDoc(db: Db, t: TableSet, nctId: string): Promise<string | undefined> {
  const r = await db.one<{ doc: string }>(`SELECT doc FROM ${ident(tablesOf(t).studies)} WHERE nct_id = ?`, [nctId]);
  return r?.doc;
}

export async function aliasTarget(db: Db, t: TableSet, alias: string): Promise<string | undefined> {
  const r = await db.one<{ nct_id: string }>(`SELECT nct_id FROM ${ident(tablesOf(t).aliases)} WHERE alias = ?`, [alias]);
  return r?.nct_id;
}

export async function latestVersion(db: Db, t: TableSet): Promise<string | undefined> {
  const r = await db.one<{ v: string | null }>(`SELECT MAX(version_holder) AS v FROM ${ident(tablesOf(t).studies)}`);
  return r?.v ?? undefined;
}
