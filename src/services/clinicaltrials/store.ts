/**
 * The registry's tables, one set per generation: studies (the columns searched and sorted on,
 * narrow so that scans and sorts stay small), docs (each study exactly as loaded), phases (many
 * per study), aliases (old NCT numbers), and the text index (an FTS5 table on SQLite, a table of
 * tsvectors with a GIN index on PostgreSQL).
 */
import type { Db, SqlValue } from '../../core/store/db.js';
import { ident } from '../../core/store/db.js';
import { lookupOne } from '../../core/store/lookup.js';
import type { TableSet } from '../../core/ingest/dataset.js';
import type { Sourced } from '../../core/ingest/load.js';
import type { Updates } from '../../core/ingest/updates.js';
import type { Area } from './essie.js';
import { AREAS, areaTexts, type Study, type StudyColumns } from './extract.js';
import { normalizeText } from './text.js';

export const TABLE_PREFIX = 'ct';
// `text` is the FTS5 index on SQLite, and all text (query.term) on PostgreSQL; text_<area> are
// PostgreSQL's per-area tables.
export const TABLES = ['studies', 'docs', 'phases', 'aliases', 'text', ...AREAS.map((a) => `text_${a}`)];

export interface StudyRecord {
  study: Study;
  doc: string;
  cols: StudyColumns;
}

const STUDY_COLUMNS = [
  'id',
  'nct_id',
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

export interface Tables {
  studies: string;
  docs: string;
  phases: string;
  aliases: string;
  text: string;
  areaText: Record<Area, string>;
  /** The single-study lookup of this generation, built once. */
  aliasByNct: string;
}

const byGeneration = new Map<number, Tables>();

/** The table names (and hot queries) of a generation; every request needs them, so they are kept. */
export function tablesOf(t: TableSet): Tables {
  const hit = byGeneration.get(t.gen);
  if (hit) return hit;
  const docs = t.name('docs');
  const aliases = t.name('aliases');
  const tables: Tables = {
    studies: t.name('studies'),
    docs,
    phases: t.name('phases'),
    aliases,
    text: t.name('text'),
    areaText: Object.fromEntries([['all', t.name('text')], ...AREAS.map((a) => [a, t.name(`text_${a}`)])]) as Record<Area, string>,
    aliasByNct: `SELECT nct_id FROM ${ident(aliases)} WHERE alias = ?`,
  };
  if (byGeneration.size > 16) byGeneration.clear();
  byGeneration.set(t.gen, tables);
  return tables;
}

/**
 * A study's row id is its NCT number without the prefix (NCT02513394 -> 2513394): a lookup by NCT
 * number is one integer-key read, and ties in every order go by NCT number on both databases.
 */
export function studyId(nctId: string): number {
  return Number(nctId.slice(3));
}

/**
 * An update is a set of studies downloaded again (the API's studies changed since a date, as saved
 * pages or the bulk format): each replaces the study of its NCT number. The registry publishes no
 * list of removed studies, so an update never deletes.
 */
export const ctUpdates: Updates<Sourced<StudyRecord>> = {
  noun: 'studies',
  parts: {
    study: { studies: 'id', docs: 'id', phases: 'study_id', text: 'id', ...Object.fromEntries(AREAS.map((a) => [`text_${a}`, 'id'])) },
  },
  key: (r) => ({ part: 'study', id: studyId(r.value.cols.nctId) }),
  // Aliases name the study by its NCT number, not its row id.
  async remove(tx, t, _part, ids) {
    const nct = ids.map((id) => `NCT${String(id).padStart(8, '0')}`);
    for (let i = 0; i < nct.length; i += 500) {
      const chunk = nct.slice(i, i + 500);
      await tx.run(`DELETE FROM ${ident(tablesOf(t).aliases)} WHERE nct_id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    }
  },
};

export async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const real = db.dialect === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  await db.exec(`
    CREATE TABLE ${ident(n.studies)} (
      id INTEGER PRIMARY KEY,
      nct_id TEXT NOT NULL,
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
    CREATE TABLE ${ident(n.docs)} (id INTEGER PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE ${ident(n.phases)} (phase TEXT NOT NULL, study_id INTEGER NOT NULL, PRIMARY KEY (phase, study_id));
    CREATE TABLE ${ident(n.aliases)} (alias TEXT PRIMARY KEY, nct_id TEXT NOT NULL);
  `);
  if (db.dialect === 'sqlite') {
    // Contentless: the text lives in the studies' documents; the index alone answers MATCH and bm25.
    // contentless_delete: an update removes a study's words by its rowid.
    await db.exec(`CREATE VIRTUAL TABLE ${ident(n.text)} USING fts5(${AREAS.join(', ')}, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`);
  } else {
    for (const table of Object.values(n.areaText)) {
      await db.exec(`CREATE TABLE ${ident(table)} (id INTEGER PRIMARY KEY, v tsvector NOT NULL)`);
    }
  }
}

function studyRow(id: number, r: StudyRecord): SqlValue[] {
  const c = r.cols;
  return [
    id,
    c.nctId,
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
  const ids = batch.map((b) => studyId(b.value.cols.nctId));
  const placeholders = ids.map(() => '?').join(', ');
  const existing = new Set((await tx.query<{ id: number }>(`SELECT id FROM ${ident(n.studies)} WHERE id IN (${placeholders})`, ids)).map((r) => Number(r.id)));

  const dupes: number[] = [];
  const studies: SqlValue[][] = [];
  const docs: SqlValue[][] = [];
  const phases: SqlValue[][] = [];
  const aliases: SqlValue[][] = [];
  const texts: { id: number; areas: Record<string, string> }[] = [];
  batch.forEach((b, i) => {
    const r = b.value;
    const id = ids[i] as number;
    if (existing.has(id)) {
      dupes.push(i);
      return;
    }
    existing.add(id);
    studies.push(studyRow(id, r));
    docs.push([id, r.doc]);
    for (const p of new Set(r.cols.phases)) phases.push([p, id]);
    for (const a of r.cols.aliases) if (a !== r.cols.nctId) aliases.push([a, r.cols.nctId]);
    texts.push({ id, areas: areaTexts(r.study) });
  });

  await tx.insertMany(n.studies, STUDY_COLUMNS, studies);
  await tx.insertMany(n.docs, ['id', 'doc'], docs);
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
    await writePgText(tx, n, texts);
  }
  return dupes;
}

/**
 * PostgreSQL text: each area's words into its own narrow table (areas without text get no row), and
 * all of them, weighted by area, into the table query.term searches.
 */
async function writePgText(tx: Db, n: ReturnType<typeof tablesOf>, texts: { id: number; areas: Record<string, string> }[]): Promise<void> {
  const per = 500;
  for (let start = 0; start < texts.length; start += per) {
    const chunk = texts.slice(start, start + per).map((x) => ({ id: x.id, words: AREAS.map((a) => normalizeText(x.areas[a] ?? '')) }));
    const params: SqlValue[] = [];
    const rows = chunk.map((x) => {
      params.push(x.id, ...x.words);
      return `(?::integer, ${AREAS.map(() => '?').join(', ')})`;
    });
    const all = AREAS.map((a) => `setweight(to_tsvector('simple', v.${a}), '${PG_WEIGHT[a]}')`).join(' || ');
    await tx.run(`INSERT INTO ${ident(n.text)} (id, v) SELECT v.id, ${all} FROM (VALUES ${rows.join(', ')}) AS v (id, ${AREAS.join(', ')})`, params);
    for (const [i, area] of AREAS.entries()) {
      const present = chunk.filter((x) => (x.words[i] as string).length > 0);
      if (!present.length) continue;
      const p: SqlValue[] = present.flatMap((x) => [x.id, x.words[i] as string]);
      await tx.run(`INSERT INTO ${ident(n.areaText[area])} (id, v) SELECT v.id, to_tsvector('simple', v.t) FROM (VALUES ${present.map(() => '(?::integer, ?)').join(', ')}) AS v (id, t)`, p);
    }
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
      // Matches ORDER BY (c IS NULL), c ASC|DESC, id: nulls last in both directions.
      stmts.push(`CREATE INDEX ${idx(c + '_a')} ON ${s} ((${c} IS NULL), ${c}, id)`);
      stmts.push(`CREATE INDEX ${idx(c + '_d')} ON ${s} ((${c} IS NULL), ${c} DESC, id)`);
    } else {
      stmts.push(`CREATE INDEX ${idx(c + '_a')} ON ${s} (${c} ASC NULLS LAST, id)`);
      stmts.push(`CREATE INDEX ${idx(c + '_d')} ON ${s} (${c} DESC NULLS LAST, id)`);
    }
  }
  for (const sql of stmts) await db.exec(sql);
  if (db.dialect === 'sqlite') {
    await db.exec(`INSERT INTO ${ident(n.text)} (${ident(n.text)}) VALUES ('optimize')`);
    await db.exec(`ANALYZE ${s}`);
  } else {
    for (const table of Object.values(n.areaText)) {
      await db.exec(`CREATE INDEX ${ident(`${table}_v`)} ON ${ident(table)} USING GIN (v)`);
      await db.exec(`ANALYZE ${ident(table)}`);
    }
    await db.exec(`ANALYZE ${s}; ANALYZE ${ident(n.phases)}; ANALYZE ${ident(n.docs)}`);
  }
}

export async function countStudies(db: Db, t: TableSet): Promise<number> {
  const r = await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(tablesOf(t).studies)}`);
  return Number(r?.n ?? 0);
}

export function studyDoc(db: Db, t: TableSet, nctId: string): Promise<string | undefined> {
  return lookupOne(db, tablesOf(t).docs, 'id', 'doc', studyId(nctId));
}

export async function aliasTarget(db: Db, t: TableSet, alias: string): Promise<string | undefined> {
  const r = await db.one<{ nct_id: string }>(tablesOf(t).aliasByNct, [alias]);
  return r?.nct_id;
}
