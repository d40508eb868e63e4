/**
 * Updates: the daily and weekly files the upstreams publish (new and changed records, and lists of
 * records withdrawn) applied to what is served, without reloading everything.
 *
 * An update is a generation like a full load: the served generation is copied into a new one by the
 * database (`INSERT ... SELECT`), each record given replaces the rows of its id, each id listed as
 * deleted loses its rows, `finish` builds the indexes and derived tables as after a full load, and
 * the switch happens only then. A failed or stopped update drops the new generation; nothing served
 * changes.
 *
 * A dataset says what a record is: its parts (the tables that hold a part, each with the column
 * naming the record's id), which part and id each record read replaces, and how its upstream lists
 * deletions. A part is what one kind of upstream file fills (NCBI's gene_info lines and gene2go
 * lines are two parts of a gene), so an update that brings only gene_info leaves the GO rows alone.
 */
import { ident, type Db, type SqlValue } from '../store/db.js';
import { LayoutMismatch, copyTable, isVirtual, leadsIndex, tableExists } from '../store/tables.js';
import type { ReadContext, SkipPlace, TableSet } from './dataset.js';
import { listInputs } from './inputs.js';

/** A record's id: one value, or one per key column. */
export type Id = SqlValue | readonly SqlValue[];

/**
 * The column(s) of a table that hold the record's id, and a condition when the table mixes rows of
 * several parts (e.g. search postings by field). An FTS5 table is keyed by its rowid.
 */
export type KeyColumns = string | readonly string[] | { readonly columns: string | readonly string[]; readonly where: string };

export interface RecordKey {
  part: string;
  id: Id;
}

export interface Deletions {
  /** Whether a file of an update's input is the upstream's list of deleted records. */
  file(path: string): boolean;
  /** The ids such a file lists. */
  read(path: string, ctx: ReadContext): AsyncIterable<{ id: Id; place: SkipPlace }>;
  /** The parts a listed id is removed from (all by default). */
  parts?: readonly string[];
}

export interface Updates<R> {
  /** What one record of the first part is called in reports, in the plural ("studies"). */
  noun: string;
  /**
   * Parts of a record, each the tables it fills with the column(s) naming the record. The first part
   * is the record itself (its first table is where records are counted); the first table of each
   * part tells an added id from a replaced one.
   */
  parts: Readonly<Record<string, Readonly<Record<string, KeyColumns>>>>;
  /** The part and id a record read replaces; null for a row that replaces nothing (added as it is). */
  key(record: R): RecordKey | null;
  /** Tables the copy leaves empty: made again by `finish`, or filled by `afterCopy`. */
  derived?: readonly string[];
  /** How the upstream lists deleted records; without it an update adds and replaces only. */
  deletions?: Deletions;
  /**
   * Removes rows of a part that its key columns cannot find (tables shared by parts, links found
   * through the part's rows); runs before the part's own rows go, so it can still read them.
   */
  remove?(tx: Db, t: TableSet, part: string, ids: readonly Id[]): Promise<void>;
  /** Runs once the served rows are copied, before any change (e.g. numbering goes on from the copy). */
  afterCopy?(db: Db, from: TableSet, to: TableSet): Promise<void>;
  /** Runs after the last change, before `finish` (e.g. shared rows no record refers to any more). */
  beforeFinish?(db: Db, t: TableSet): Promise<void>;
}

export interface PartChanges {
  added: number;
  replaced: number;
  deleted: number;
}

/** What an update changed, by part, and what its deletion lists named that was not there. */
export interface Changes {
  /** The generation the update started from. */
  base: number;
  parts: Record<string, PartChanges>;
  /** Ids listed as deleted that were not loaded. */
  listedAbsent: number;
  /** Ids listed as deleted that the same update also gave: the record given is kept. */
  keptGiven: number;
}

interface Key {
  columns: readonly string[];
  where: string | undefined;
}

function keyOf(k: KeyColumns): Key {
  if (typeof k === 'string') return { columns: [k], where: undefined };
  if ('where' in k) return { columns: typeof k.columns === 'string' ? [k.columns] : k.columns, where: k.where };
  return { columns: k as readonly string[], where: undefined };
}

const values = (id: Id): readonly SqlValue[] => (Array.isArray(id) ? (id as readonly SqlValue[]) : [id as SqlValue]);
const serial = (id: Id | readonly unknown[]): string => (Array.isArray(id) ? id.map(String).join('\u0001') : String(id));

const seenKey = (id: Id): SqlValue => (Array.isArray(id) ? serial(id) : (id as SqlValue));

const column = (c: string) => (c === 'rowid' ? c : ident(c));

/** `cols IN (...)` for single keys, OR'ed equalities for composite ones (both databases seek either). */
function matching(columns: readonly string[], n: number): string {
  if (columns.length === 1) return `${column(columns[0] as string)} IN (${Array.from({ length: n }, () => '?').join(', ')})`;
  const one = `(${columns.map((c) => `${column(c)} = ?`).join(' AND ')})`;
  return `(${Array.from({ length: n }, () => one).join(' OR ')})`;
}

const CHUNK = 200;

function* chunks<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

/** The files of an update's input: whether it holds records to read, and its deletion lists. */
export async function splitInput(input: string, deletions: Deletions | undefined): Promise<{ records: boolean; deletionFiles: string[] }> {
  const files = await listInputs(input);
  const listed = deletions ? files.filter((f) => deletions.file(f.path)).map((f) => f.path) : [];
  return { records: files.length > listed.length, deletionFiles: listed };
}

/** One update in progress: the copy, the changes record by record, the deletions. */
export class UpdateRun<R> {
  readonly changes: Changes;
  /** Ids given so far, by part (plain values where they are: millions of ids fit in memory). */
  private readonly seen = new Map<string, Set<SqlValue>>();
  private readonly tempIndexes: string[] = [];
  /** Keyed tables of each part that exist in the new generation, with their keys. */
  private readonly live = new Map<string, { table: string; key: Key; virtual: boolean }[]>();

  constructor(
    private readonly db: Db,
    private readonly spec: Updates<R>,
    private readonly tables: readonly string[],
    readonly from: TableSet,
    readonly to: TableSet,
  ) {
    this.changes = { base: from.gen, parts: {}, listedAbsent: 0, keptGiven: 0 };
    for (const part of Object.keys(spec.parts)) {
      this.changes.parts[part] = { added: 0, replaced: 0, deleted: 0 };
      this.seen.set(part, new Set());
    }
  }

  private get main(): string {
    return Object.keys(this.spec.parts)[0] as string;
  }

  /** Copies the served generation into the new one (tables `create` made, but for derived ones). */
  async start(): Promise<void> {
    const derived = new Set(this.spec.derived ?? []);
    for (const logical of this.tables) {
      const to = this.to.name(logical);
      if (derived.has(logical) || !(await tableExists(this.db, to))) continue;
      const from = this.from.name(logical);
      if (!(await tableExists(this.db, from))) throw new LayoutMismatch(`${from} is missing`);
      await copyTable(this.db, from, to);
    }
    const indexed = new Set<string>();
    for (const [part, tables] of Object.entries(this.spec.parts)) {
      const live: { table: string; key: Key; virtual: boolean }[] = [];
      for (const [logical, k] of Object.entries(tables)) {
        const table = this.to.name(logical);
        if (!(await tableExists(this.db, table))) continue;
        const key = keyOf(k);
        const virtual = await isVirtual(this.db, table);
        live.push({ table, key, virtual });
        // Removals by id must be seeks, not scans: until `finish` builds the real indexes, a key
        // column that leads no index gets one of its own.
        const lead = key.columns[0] as string;
        if (indexed.has(`${table}.${lead}`) || virtual || (await leadsIndex(this.db, table, lead))) continue;
        indexed.add(`${table}.${lead}`);
        const name = `${table}_bmk${this.tempIndexes.length}`;
        await this.db.exec(`CREATE INDEX ${ident(name)} ON ${ident(table)} (${key.columns.map(ident).join(', ')})`);
        this.tempIndexes.push(name);
      }
      this.live.set(part, live);
    }
    await this.spec.afterCopy?.(this.db, this.from, this.to);
  }

  private keyOn(t: { key: Key; virtual: boolean }): readonly string[] {
    return t.virtual ? ['rowid'] : t.key.columns;
  }

  /** The ids (of one part) that have rows in the part's first table. */
  private async present(db: Db, part: string, ids: readonly Id[]): Promise<Set<string>> {
    const first = this.live.get(part)?.[0];
    const out = new Set<string>();
    if (!first) return out;
    const cols = this.keyOn(first);
    for (const chunk of chunks(ids)) {
      const where = matching(cols, chunk.length) + (first.key.where ? ` AND (${first.key.where})` : '');
      const rows = await db.query<Record<string, SqlValue>>(`SELECT ${cols.map((c, i) => `${column(c)} AS k${i}`).join(', ')} FROM ${ident(first.table)} WHERE ${where}`, chunk.flatMap(values));
      for (const r of rows) out.add(serial(cols.map((_, i) => r[`k${i}`])));
    }
    return out;
  }

  private async removeIds(tx: Db, part: string, ids: readonly Id[]): Promise<void> {
    await this.spec.remove?.(tx, this.to, part, ids);
    for (const t of this.live.get(part) ?? []) {
      const cols = this.keyOn(t);
      for (const chunk of chunks(ids)) {
        const where = matching(cols, chunk.length) + (t.key.where ? ` AND (${t.key.where})` : '');
        await tx.run(`DELETE FROM ${ident(t.table)} WHERE ${where}`, chunk.flatMap(values));
      }
    }
  }

  /**
   * Before a batch is written: the rows of the ids it brings for the first time in this update are
   * removed. An id met again later in the update is left to the dataset's writer, which adds to it
   * (a gene's further gene2go lines) or refuses it as a duplicate, as in a full load.
   */
  async apply(tx: Db, batch: readonly R[]): Promise<void> {
    const fresh = new Map<string, Id[]>();
    for (const r of batch) {
      const k = this.spec.key(r);
      if (!k) continue;
      const seen = this.seen.get(k.part);
      if (!seen) throw new Error(`record of an unknown part "${k.part}"`);
      const s = seenKey(k.id);
      if (seen.has(s)) continue;
      seen.add(s);
      const list = fresh.get(k.part) ?? [];
      list.push(k.id);
      fresh.set(k.part, list);
    }
    for (const [part, ids] of fresh) {
      const counts = this.changes.parts[part] as PartChanges;
      const there = await this.present(tx, part, ids);
      counts.replaced += there.size;
      counts.added += ids.length - there.size;
      await this.removeIds(tx, part, ids);
    }
  }

  /** Removes the ids a deletion list names, but those this update gave (the record given is newer). */
  async delete(files: readonly string[], ctx: ReadContext): Promise<void> {
    const deletions = this.spec.deletions;
    if (!deletions) return;
    const parts = deletions.parts ?? Object.keys(this.spec.parts);
    const done = new Set<SqlValue>();
    let pending: Id[] = [];
    const flush = async () => {
      const ids = pending;
      pending = [];
      if (!ids.length) return;
      await this.db.transaction(async (tx) => {
        const there = await this.present(tx, this.main, ids);
        (this.changes.parts[this.main] as PartChanges).deleted += there.size;
        this.changes.listedAbsent += ids.length - there.size;
        for (const part of parts) await this.removeIds(tx, part, ids);
      });
    };
    for (const file of files) {
      for await (const { id } of deletions.read(file, ctx)) {
        if (ctx.signal.aborted) return;
        const s = seenKey(id);
        if (done.has(s)) continue;
        done.add(s);
        if (parts.some((p) => this.seen.get(p)?.has(s))) {
          this.changes.keptGiven++;
          continue;
        }
        pending.push(id);
        if (pending.length >= 1000) await flush();
      }
    }
    await flush();
  }

  /** After the last change: the dataset's own tidying, and the temporary key indexes go. */
  async end(): Promise<void> {
    await this.spec.beforeFinish?.(this.db, this.to);
    for (const name of this.tempIndexes) await this.db.exec(`DROP INDEX ${ident(name)}`);
  }
}

/** How many records (of the first part) a generation holds, when the dataset says what a record is. */
export async function recordsOf(db: Db, spec: Pick<Updates<unknown>, 'parts'> | undefined, t: TableSet): Promise<number | undefined> {
  const [logical, k] = Object.entries(Object.values(spec?.parts ?? {})[0] ?? {})[0] ?? [];
  if (logical === undefined || k === undefined) return undefined;
  const table = t.name(logical);
  if (!(await tableExists(db, table))) return undefined;
  const key = keyOf(k);
  const where = key.where ? ` WHERE ${key.where}` : '';
  const r = await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT ${key.columns.map(column).join(', ')} FROM ${ident(table)}${where}) d`);
  return Number(r?.n ?? 0);
}
