/**
 * The search indexes, built from the loaded documents once a generation's rows are in: every value
 * of every searchable attribute (typed columns, B-tree indexes), the words of full-text attributes
 * (a token table, the same SQL on SQLite and PostgreSQL), each entry's word counts for `full_text`
 * with each word's document frequency, and the objects with their links (entry, entity, instance,
 * assembly, component) that hits are mapped between return types by. Queries read these tables
 * only; no request scans documents.
 *
 * Value and token rows carry their entry, and their indexes hold every column a condition returns
 * (entry, kind, object, record), in entry order after the value: a condition is answered from the
 * index alone, an entry-level answer needs no join, and the first page of a value's entries is
 * read in order without sorting the rest. A token row also holds the run of words it starts (up
 * to PHRASE_WORDS), so that a phrase is one range of an index rather than an intersection of words.
 */
import { createHash } from 'node:crypto';
import type { TableSet } from '../../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../../core/store/db.js';
import { ident } from '../../../../core/store/db.js';
import { columnsOf } from '../../../../core/store/tables.js';
import { pacer } from '../../../../core/pacer.js';
import { PHRASE_WORDS, attributes, dateMs, isFullText, tokens, wordRun, type Attribute, type Catalogue } from '../attributes.js';

/** Logical tables of the search index in a generation of the archive (and of the dictionary). */
export const SEARCH_TABLES = ['sobj', 'sattr', 'stok', 'sattrs', 'sseq', 'sfts', 'sdf'] as const;

export type SearchTables = Record<(typeof SEARCH_TABLES)[number], string> & {
  /**
   * Tables built by an earlier version hold single words only (no `rest` column of word runs):
   * phrases are then matched word by word, until the data is loaded again.
   */
  wordsOnly?: boolean;
  /**
   * The number each attribute path has in the value and token tables (their `attr` column), from
   * `sattrs`. Tables built by an earlier version hold the paths themselves (no numbers).
   */
  attrNumbers?: ReadonlyMap<string, number>;
};

/**
 * What the `attr` column of tables `n` holds for attribute `path`: its number, or the path in
 * tables of an earlier version. An attribute with no values in the tables matches no row.
 */
export function attrKey(n: SearchTables, path: string): SqlValue {
  if (!n.attrNumbers) return path;
  return n.attrNumbers.get(path) ?? -1;
}

/**
 * Lower-cased values longer than this many UTF-16 units are indexed by a key of their own (see
 * lowKey). PostgreSQL refuses a B-tree row over 2,704 bytes, and real values reach that: a
 * polymer's sequence (`entity_poly.pdbx_seq_one_letter_code_can`) of a ribosomal RNA or a large
 * protein runs to thousands of letters.
 */
export const LOW_KEY_UNITS = 512;
const LOW_PREFIX_UNITS = 448;

/**
 * What the `low` column holds of a lower-cased value: the value itself when short; else its first
 * 448 units, a \u0001 and 32 hex digits of the whole value's SHA-256, so that equality on the
 * column still tells values apart (no natural value holds that control character).
 */
export function lowKey(low: string): string {
  if (low.length <= LOW_KEY_UNITS) return low;
  // A prefix never ends inside a surrogate pair.
  const cut = (low.charCodeAt(LOW_PREFIX_UNITS - 1) & 0xfc00) === 0xd800 ? LOW_PREFIX_UNITS - 1 : LOW_PREFIX_UNITS;
  return `${low.slice(0, cut)}\u0001${createHash('sha256').update(low).digest('hex').slice(0, 32)}`;
}

export function searchTables(t: TableSet): SearchTables {
  return Object.fromEntries(SEARCH_TABLES.map((n) => [n, ident(t.name(n))])) as Record<(typeof SEARCH_TABLES)[number], string>;
}

type Shape = Pick<SearchTables, 'wordsOnly' | 'attrNumbers'>;

/** Per database (two stores may hold generations of the same number), token table → its generation's shape. */
let tableShapes = new WeakMap<Db, Map<string, Shape>>();

/** Forgets what was learnt of the tables' shape (for tables altered outside a load, as tests do). */
export function forgetTableShapes(): void {
  tableShapes = new WeakMap();
}

/** The tables of generation `t`, with what an earlier version built differently (read once per process). */
export async function servedSearchTables(db: Db, t: TableSet): Promise<SearchTables> {
  const n = searchTables(t);
  const name = t.name('stok');
  let known = tableShapes.get(db);
  if (!known) tableShapes.set(db, (known = new Map()));
  let shape = known.get(name);
  if (shape === undefined) {
    shape = {};
    const cols = await columnsOf(db, name);
    if (cols.length > 0 && !cols.includes('rest')) shape.wordsOnly = true;
    if ((await columnsOf(db, t.name('sattrs'))).includes('aid')) {
      const rows = await db.query<{ attr: string; aid: number | string }>(`SELECT DISTINCT attr, aid FROM ${n.sattrs}`);
      shape.attrNumbers = new Map(rows.map((r) => [r.attr, Number(r.aid)]));
    }
    known.set(name, shape);
  }
  return { ...n, ...shape };
}

/** Object kinds of the index; return types name a subset of them. */
export type ObjKind = 'entry' | 'polymer_entity' | 'nonpolymer_entity' | 'branched_entity' | 'polymer_instance' | 'nonpolymer_instance' | 'branched_instance' | 'assembly' | 'comp' | 'mol_definition';

const PART_KIND: Record<string, ObjKind> = {
  polymer_entity: 'polymer_entity',
  nonpolymer_entity: 'nonpolymer_entity',
  branched_entity: 'branched_entity',
  polymer_entity_instance: 'polymer_instance',
  nonpolymer_entity_instance: 'nonpolymer_instance',
  branched_entity_instance: 'branched_instance',
  assembly: 'assembly',
};

async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = searchTables(t);
  const real = db.dialect === 'postgres' ? 'DOUBLE PRECISION' : 'REAL';
  // Identifiers compare byte by byte on both databases (pages are ordered by identifier).
  const id = db.dialect === 'postgres' ? 'TEXT COLLATE "C"' : 'TEXT';
  await db.exec(`
    CREATE TABLE ${n.sobj} (kind TEXT NOT NULL, id ${id} NOT NULL, entry_id ${id} NOT NULL, entity ${id}, comp ${id});
    CREATE TABLE ${n.sattr} (kind TEXT NOT NULL, obj ${id} NOT NULL, entry_id ${id} NOT NULL, attr INTEGER NOT NULL, rec INTEGER NOT NULL, num ${real}, str ${id}, low ${id});
    CREATE TABLE ${n.stok} (kind TEXT NOT NULL, obj ${id} NOT NULL, entry_id ${id} NOT NULL, attr INTEGER NOT NULL, rec INTEGER NOT NULL, pos INTEGER NOT NULL, tok TEXT NOT NULL, rest ${id} NOT NULL);
    CREATE TABLE ${n.sattrs} (attr TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, multi INTEGER NOT NULL, aid INTEGER NOT NULL, PRIMARY KEY (attr, kind));
    CREATE TABLE ${n.sseq} (entity ${id} NOT NULL, entry_id ${id} NOT NULL, type TEXT NOT NULL, seq TEXT NOT NULL);
    CREATE TABLE ${n.sfts} (tok TEXT NOT NULL, entry_id ${id} NOT NULL, w ${real} NOT NULL);
    CREATE TABLE ${n.sdf} (tok TEXT NOT NULL PRIMARY KEY, df INTEGER NOT NULL);
  `);
}

async function indexTables(db: Db, t: TableSet): Promise<void> {
  const n = searchTables(t);
  const ix = (s: string) => ident(`${t.name(s)}_ix`);
  const hit = 'entry_id, kind, obj, rec';
  const version = db.dialect === 'postgres' ? Number((await db.one<{ v: string }>(`SELECT current_setting('server_version_num') AS v`))?.v ?? 0) : 0;
  // PostgreSQL (11 and later) reads the kind and number of each hit's value from the index of
  // values by object, without a read of the table per hit: sorts and facets of thousands of hits
  // took seconds. Strings stay out (they can pass the index's row size).
  const byObject = version >= 110000 ? ' INCLUDE (kind, num)' : '';
  const statements = [
    // Objects by identifier, entry, entity and component, each index holding what hits are mapped
    // to (identifier and entry), so that PostgreSQL reads the index alone.
    `CREATE INDEX ${ix('sobj_id')} ON ${n.sobj} (kind, id, entry_id)`,
    `CREATE INDEX ${ix('sobj_entry')} ON ${n.sobj} (entry_id, kind, id)`,
    `CREATE INDEX ${ix('sobj_entity')} ON ${n.sobj} (entity, kind, id)`,
    `CREATE INDEX ${ix('sobj_comp')} ON ${n.sobj} (comp, kind, id)`,
    // Every row, by attribute: case-insensitive values, and `exists` of any attribute. A
    // case-sensitive match narrows by the lower-cased value first (the original is checked on the
    // rows found), so the original values need no index of their own.
    `CREATE INDEX ${ix('sattr_low')} ON ${n.sattr} (attr, low, ${hit})`,
    // Numbers and dates only: about a sixth of the rows (numeric conditions say `num IS NOT NULL`).
    `CREATE INDEX ${ix('sattr_num')} ON ${n.sattr} (attr, num, ${hit}) WHERE num IS NOT NULL`,
    `CREATE INDEX ${ix('sattr_obj')} ON ${n.sattr} (obj, attr)${byObject}`,
    `CREATE INDEX ${ix('stok_tok')} ON ${n.stok} (attr, tok, ${hit}, pos)`,
    `CREATE INDEX ${ix('stok_rest')} ON ${n.stok} (attr, rest, ${hit}, pos)`,
    `CREATE INDEX ${ix('sfts_tok')} ON ${n.sfts} (tok, entry_id, w)`,
    `CREATE INDEX ${ix('sfts_rank')} ON ${n.sfts} (tok, w DESC, entry_id)`,
    `INSERT INTO ${n.sdf} (tok, df) SELECT tok, COUNT(*) FROM ${n.sfts} GROUP BY tok`,
  ];
  // One statement at a time, letting other work of this thread (a server's requests and timers,
  // the structure index of a load) go on between them.
  const pace = pacer();
  for (const sql of statements) {
    await db.exec(sql);
    await pace();
  }
  if (db.dialect === 'postgres') {
    // Statistics of attribute and value together: taken apart, PostgreSQL multiplies the share of
    // an attribute by the share of a value among every attribute's values and expects a handful of
    // rows where there are thousands, then plans nested loops that take seconds (an and-query
    // with facets took 15 s, against 0.3 s planned from these).
    const stats = (name: string, kinds: string, cols: string, table: string) => db.exec(`CREATE STATISTICS ${ident(`${t.name(name)}_st`)} (${kinds}) ON ${cols} FROM ${table}`);
    // Lists of the commonest value combinations (mcv) came with PostgreSQL 12.
    const mcv = version >= 120000 ? 'mcv, ' : '';
    await stats('sattr_low', `${mcv}dependencies, ndistinct`, 'attr, kind, low', n.sattr);
    await stats('sattr_num', 'dependencies', 'attr, kind, num', n.sattr);
    await stats('stok_tok', `${mcv}dependencies, ndistinct`, 'attr, kind, tok', n.stok);
    // Index-only scans on PostgreSQL need the visibility map that VACUUM writes.
    for (const table of [n.sobj, n.sattr, n.stok, n.sfts, n.sdf]) await db.exec(`VACUUM ANALYZE ${table}`);
  }
}

interface Rows {
  attr: SqlValue[][];
  /**
   * Each attribute's number, given as first met: value and token rows carry it rather than the
   * path (most rows are one attribute's, whose path is 60 to 90 characters; numbers halve the
   * tables and make their indexes quicker to build).
   */
  numbers: Map<string, number>;
  tok: SqlValue[][];
  /** Word counts of the current entry's documents (`full_text`), by word. */
  words?: Map<string, number>;
  /** Objects holding each `attr\tkind`. */
  counts: Map<string, number>;
  /** `attr\tkind` pairs of which some object holds several values. */
  multi: Set<string>;
}

/** Every indexed value of one document: a walk of its JSON against the attribute catalogue. */
export function indexDocument(kind: ObjKind, obj: string, entry: string, doc: unknown, cat: Map<string, Attribute>, into: Rows): void {
  const seen = new Set<string>();
  const emit = (path: string, value: unknown, rec: number) => {
    const a = cat.get(path);
    if (!a) return;
    let aid = into.numbers.get(path);
    if (aid === undefined) into.numbers.set(path, (aid = into.numbers.size + 1));
    let num: number | null = null;
    let str: string | null = null;
    if (typeof value === 'number') num = value;
    else if (typeof value === 'boolean') str = value ? 'true' : 'false';
    else if (typeof value === 'string') {
      str = value;
      if (a.kind === 'date') num = dateMs(value) ?? null;
      else if (a.kind === 'number' || a.kind === 'integer') {
        const v = Number(value);
        num = value.trim() !== '' && Number.isFinite(v) ? v : null;
      }
    } else return;
    into.attr.push([kind, obj, entry, aid, rec, num, str, str === null ? null : lowKey(str.toLowerCase())]);
    if (str !== null && isFullText(a)) {
      tokens(str).forEach((tok, pos, all) => {
        into.tok.push([kind, obj, entry, aid, rec, pos, tok, wordRun(all.slice(pos, pos + PHRASE_WORDS))]);
        into.words?.set(tok, (into.words.get(tok) ?? 0) + 1);
      });
    }
    const k = `${path}\t${kind}`;
    if (!seen.has(path)) {
      seen.add(path);
      into.counts.set(k, (into.counts.get(k) ?? 0) + 1);
    } else into.multi.add(k);
  };
  const walk = (v: unknown, path: string, rec: number, nestedAt: string | undefined) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      // The record number counts the elements of the outermost nested container.
      const root = nestedAt === undefined && isNestedRoot(path, cat);
      v.forEach((x, i) => walk(x, path, root ? i : rec, root ? path : nestedAt));
      return;
    }
    if (typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(x, path ? `${path}.${k}` : k, rec, nestedAt);
      return;
    }
    emit(path, v, rec);
  };
  walk(doc, '', 0, undefined);
}

const nestedRoots = new WeakMap<Map<string, Attribute>, Set<string>>();
function isNestedRoot(path: string, cat: Map<string, Attribute>): boolean {
  let s = nestedRoots.get(cat);
  if (!s) {
    s = new Set([...cat.values()].map((a) => a.nested).filter((x): x is string => x !== undefined));
    nestedRoots.set(cat, s);
  }
  return s.has(path);
}

async function flush(db: Db, t: TableSet, rows: Rows, objs: SqlValue[][], fts: SqlValue[][] = []): Promise<void> {
  await db.transaction(async (tx) => {
    if (objs.length) await tx.insertMany(t.name('sobj'), ['kind', 'id', 'entry_id', 'entity', 'comp'], objs);
    if (rows.attr.length) await tx.insertMany(t.name('sattr'), ['kind', 'obj', 'entry_id', 'attr', 'rec', 'num', 'str', 'low'], rows.attr);
    if (rows.tok.length) await tx.insertMany(t.name('stok'), ['kind', 'obj', 'entry_id', 'attr', 'rec', 'pos', 'tok', 'rest'], rows.tok);
    if (fts.length) await tx.insertMany(t.name('sfts'), ['tok', 'entry_id', 'w'], fts);
  });
  objs.length = 0;
  rows.attr.length = 0;
  rows.tok.length = 0;
  fts.length = 0;
}

async function writeCounts(db: Db, t: TableSet, rows: Rows): Promise<void> {
  const list = [...rows.counts].map(([k, n]) => {
    const [attr, kind] = k.split('\t') as [string, string];
    return [attr, kind, n, rows.multi.has(k) ? 1 : 0, rows.numbers.get(attr) as number];
  });
  if (list.length) await db.transaction((tx) => tx.insertMany(t.name('sattrs'), ['attr', 'kind', 'n', 'multi', 'aid'], list));
}

/** An entry's `full_text` rows: each word with its weight in the entry, 1 + ln(count). */
function entryWords(entry: string, rows: Rows, into: SqlValue[][]): void {
  for (const [tok, c] of rows.words ?? []) into.push([tok, entry, 1 + Math.log(c)]);
  rows.words?.clear();
}

/** Sequence search's three databases: protein, DNA, RNA (hybrids and others are left out). */
function polymerType(t: unknown): string {
  const s = String(t ?? '').toLowerCase();
  if (s === 'protein' || s.startsWith('polypeptide')) return 'protein';
  if (s === 'dna' || s === 'polydeoxyribonucleotide') return 'dna';
  if (s === 'rna' || s === 'polyribonucleotide') return 'rna';
  return 'other';
}

const CHUNK = 500;

type Part = { kind: string; rcsb_id: string; entry_id: string; doc: string };
/** Rows buffered before a write (a few thousand documents' values). */
const FLUSH_AT = 50_000;

/**
 * Builds the archive generation's search index from its entries and parts (called by the archive
 * dataset's `finish`, after every row of the generation is in, copied entries included).
 */
export async function buildSearchIndex(db: Db, t: TableSet): Promise<void> {
  await startSearchIndex(db, t);
  await fillSearchTables(db, t);
  await indexSearchTables(db, t);
}

/** The search index's B-tree indexes and word counts, once its tables are filled. */
export const indexSearchTables = indexTables;

/**
 * The first step of buildSearchIndex: the tables, and the sequence table filled (all that the
 * sequence engine reads, so that it can start while the rest is built).
 */
export async function startSearchIndex(db: Db, t: TableSet): Promise<void> {
  await createTables(db, t);
  const parts = ident(t.name('parts'));
  let after = '';
  for (;;) {
    const page = await db.query<{ rcsb_id: string; entry_id: string; doc: string }>(
      `SELECT rcsb_id, entry_id, doc FROM ${parts} WHERE kind = 'polymer_entity' AND rcsb_id > ? ORDER BY rcsb_id LIMIT ${4 * CHUNK}`,
      [after],
    );
    if (page.length === 0) break;
    after = page[page.length - 1]?.rcsb_id ?? after;
    const rows: SqlValue[][] = [];
    for (const p of page) {
      const poly = (JSON.parse(p.doc) as { entity_poly?: Record<string, unknown> }).entity_poly;
      const seq = poly?.pdbx_seq_one_letter_code_can;
      if (typeof seq === 'string' && seq.length > 0) rows.push([p.rcsb_id, p.entry_id, polymerType(poly?.rcsb_entity_polymer_type ?? poly?.type), seq.replace(/\s+/g, '')]);
    }
    if (rows.length) await db.transaction((tx) => tx.insertMany(t.name('sseq'), ['entity', 'entry_id', 'type', 'seq'], rows));
  }
}

/** The second step of buildSearchIndex: every other table's rows. */
export async function fillSearchTables(db: Db, t: TableSet): Promise<void> {
  const pace = pacer();
  const cat = attributes('structure');
  const rows: Rows = { attr: [], numbers: new Map(), tok: [], counts: new Map(), multi: new Set(), words: new Map() };
  const objs: SqlValue[][] = [];
  const fts: SqlValue[][] = [];
  const entries = ident(t.name('entries'));
  const parts = ident(t.name('parts'));
  const comps = ident(t.name('comps'));
  let after = '';
  for (;;) {
    const page = await db.query<{ entry_id: string; doc: string }>(`SELECT entry_id, doc FROM ${entries} WHERE entry_id > ? ORDER BY entry_id LIMIT ${CHUNK}`, [after]);
    if (page.length === 0) break;
    after = page[page.length - 1]?.entry_id ?? after;
    const ids = page.map((e) => e.entry_id);
    const marks = ids.map(() => '?').join(',');
    const partsOf = new Map<string, Part[]>();
    for (const p of await db.query<Part>(`SELECT kind, rcsb_id, entry_id, doc FROM ${parts} WHERE entry_id IN (${marks})`, ids)) {
      partsOf.set(p.entry_id, [...(partsOf.get(p.entry_id) ?? []), p]);
    }
    // An entry's documents together, so that its word counts are complete when the next begins.
    for (const e of page) {
      await pace();
      objs.push(['entry', e.entry_id, e.entry_id, null, null]);
      indexDocument('entry', e.entry_id, e.entry_id, JSON.parse(e.doc), cat, rows);
      for (const p of partsOf.get(e.entry_id) ?? []) indexPart(p, cat, rows, objs);
      entryWords(e.entry_id, rows, fts);
    }
    const cs = await db.query<{ entry_id: string; comp_id: string }>(`SELECT entry_id, comp_id FROM ${comps} WHERE entry_id IN (${marks})`, ids);
    for (const c of cs) objs.push(['comp', c.comp_id, c.entry_id, null, c.comp_id]);
    if (rows.attr.length + rows.tok.length >= FLUSH_AT) await flush(db, t, rows, objs, fts);
  }
  await flush(db, t, rows, objs, fts);
  await writeCounts(db, t, rows);
}

/** One part of an entry (entity, instance, assembly): its object row and values. */
function indexPart(p: Part, cat: Map<string, Attribute>, rows: Rows, objs: SqlValue[][]): void {
  const kind = PART_KIND[p.kind];
  if (!kind) return;
  const doc = JSON.parse(p.doc) as Record<string, Record<string, unknown> | undefined>;
  let entity: string | null = null;
  let comp: string | null = null;
  if (kind.endsWith('_entity')) {
    entity = p.rcsb_id;
    const c = doc.rcsb_nonpolymer_entity_container_identifiers?.nonpolymer_comp_id;
    if (typeof c === 'string') comp = c;
  } else if (kind.endsWith('_instance')) {
    const ids = doc[`rcsb_${p.kind}_container_identifiers`];
    if (ids && ids.entity_id !== undefined) entity = `${p.entry_id}_${String(ids.entity_id)}`;
    if (typeof ids?.comp_id === 'string') comp = ids.comp_id;
  }
  objs.push([kind, p.rcsb_id, p.entry_id, entity, comp]);
  indexDocument(kind, p.rcsb_id, p.entry_id, doc, cat, rows);
}

/** The chemical component dictionary's index (the `text_chem` attributes, `mol_definition` hits). */
export async function buildChemIndex(db: Db, t: TableSet): Promise<void> {
  await createTables(db, t);
  const cat: Catalogue = 'chemical';
  const attrs = attributes(cat);
  const rows: Rows = { attr: [], numbers: new Map(), tok: [], counts: new Map(), multi: new Set() };
  const objs: SqlValue[][] = [];
  const table = ident(t.name('comps'));
  let after = '';
  for (;;) {
    const page = await db.query<{ comp_id: string; doc: string }>(`SELECT comp_id, doc FROM ${table} WHERE comp_id > ? ORDER BY comp_id LIMIT ${CHUNK}`, [after]);
    if (page.length === 0) break;
    after = page[page.length - 1]?.comp_id ?? after;
    for (const c of page) {
      objs.push(['mol_definition', c.comp_id, '', null, c.comp_id]);
      indexDocument('mol_definition', c.comp_id, '', JSON.parse(c.doc), attrs, rows);
    }
    if (rows.attr.length + rows.tok.length >= FLUSH_AT) await flush(db, t, rows, objs);
  }
  await flush(db, t, rows, objs);
  await writeCounts(db, t, rows);
  await indexTables(db, t);
}
