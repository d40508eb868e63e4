/**
 * Where protocols live. Two sources, one view:
 * - loaded protocols: a dataset, one set of tables per load generation (`proto_protocols_g<n>`,
 *   with its text index), replaced whole by the next load;
 * - local protocols (`proto_local`, from the service's migrations): created through the API, or
 *   loaded ones changed through the API (copied there on their first change).
 * A local row overrides the loaded row of the same id, so an owner's changes survive reloads;
 * protocols created through the API get ids from 1,000,000,000 up, above the upstream's.
 */
import type { TableSet } from '../../core/ingest/dataset.js';
import type { Sourced } from '../../core/ingest/load.js';
import type { Updates } from '../../core/ingest/updates.js';
import { ident, type Db, type SqlValue } from '../../core/store/db.js';
import type { ProtocolColumns } from './extract.js';

export const TABLE_PREFIX = 'proto';
/** `text` is SQLite's FTS5 index; PostgreSQL keeps a tsvector column in `protocols`. */
export const TABLES = ['protocols', 'text'];
export const LOCAL_ID_BASE = 1_000_000_000;

export interface ProtocolRecord {
  doc: string;
  cols: ProtocolColumns;
}

export interface Tables {
  protocols: string;
  text: string;
}

export function tablesOf(t: TableSet): Tables {
  return { protocols: t.name('protocols'), text: t.name('text') };
}

const COLUMNS = ['id', 'uri', 'doi_key', 'owner', 'public', 'title_key', 'published_on', 'activity', 'doc'] as const;

function row(r: ProtocolRecord): SqlValue[] {
  const c = r.cols;
  return [c.id, c.uri, c.doiKey, c.owner, c.public, c.titleKey, c.publishedOn, c.activity, r.doc];
}

/**
 * protocols.io publishes no bulk files, let alone updates: an update is protocols fetched again
 * (e.g. those published or changed since a date), each replacing the protocol of its id. Nothing is
 * ever listed as deleted.
 */
export const protocolUpdates: Updates<Sourced<ProtocolRecord>> = {
  noun: 'protocols',
  parts: { protocol: { protocols: 'id', text: 'id' } },
  key: (r) => ({ part: 'protocol', id: r.value.cols.id }),
};

export async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const pg = db.dialect === 'postgres';
  await db.exec(`
    CREATE TABLE ${ident(n.protocols)} (
      id BIGINT PRIMARY KEY,
      uri TEXT NOT NULL,
      doi_key TEXT,
      owner TEXT,
      public INTEGER NOT NULL,
      title_key TEXT${pg ? ' COLLATE "C"' : ''} NOT NULL,
      published_on BIGINT NOT NULL,
      activity BIGINT NOT NULL,
      doc TEXT NOT NULL${pg ? ",\n      search tsvector NOT NULL DEFAULT ''::tsvector" : ''}
    );
    CREATE UNIQUE INDEX ${ident(`${n.protocols}_uri`)} ON ${ident(n.protocols)} (uri);
  `);
  if (!pg) {
    // Contentless: the words are only indexed; the rowid is the protocol id (by which an update removes them).
    await db.exec(`CREATE VIRTUAL TABLE ${ident(n.text)} USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`);
  }
}

/** Writes a batch; returns the indexes of records whose id or uri was already loaded. */
export async function writeBatch(tx: Db, t: TableSet, batch: readonly Sourced<ProtocolRecord>[]): Promise<number[]> {
  const n = tablesOf(t);
  const ids = batch.map((b) => b.value.cols.id);
  const uris = batch.map((b) => b.value.cols.uri);
  const marks = (a: unknown[]) => a.map(() => '?').join(', ');
  const existing = await tx.query<{ id: number; uri: string }>(`SELECT id, uri FROM ${ident(n.protocols)} WHERE id IN (${marks(ids)}) OR uri IN (${marks(uris)})`, [...ids, ...uris]);
  const seenIds = new Set(existing.map((r) => Number(r.id)));
  const seenUris = new Set(existing.map((r) => r.uri));
  const dupes: number[] = [];
  const kept: ProtocolRecord[] = [];
  batch.forEach((b, i) => {
    const c = b.value.cols;
    if (seenIds.has(c.id) || seenUris.has(c.uri)) {
      dupes.push(i);
      return;
    }
    seenIds.add(c.id);
    seenUris.add(c.uri);
    kept.push(b.value);
  });
  await tx.insertMany(n.protocols, COLUMNS, kept.map(row));
  if (tx.dialect === 'sqlite') {
    await tx.insertMany(
      n.text,
      ['rowid', 'body'],
      kept.map((r) => [r.cols.id, r.cols.search]),
    );
  } else {
    for (let i = 0; i < kept.length; i += 500) {
      const chunk = kept.slice(i, i + 500);
      await tx.run(
        `UPDATE ${ident(n.protocols)} AS p SET search = to_tsvector('simple', v.body) FROM (VALUES ${chunk.map(() => '(?::bigint, ?)').join(', ')}) AS v (id, body) WHERE p.id = v.id`,
        chunk.flatMap((r) => [r.cols.id, r.cols.search]),
      );
    }
  }
  return dupes;
}

export async function finishTables(db: Db, t: TableSet): Promise<void> {
  const n = tablesOf(t);
  const p = ident(n.protocols);
  const idx = (s: string) => ident(`${n.protocols}_${s}`);
  await db.exec(`
    CREATE INDEX ${idx('doi')} ON ${p} (doi_key);
    CREATE INDEX ${idx('owner')} ON ${p} (owner, public, id);
    CREATE INDEX ${idx('activity')} ON ${p} (public, activity, id);
    CREATE INDEX ${idx('date')} ON ${p} (public, published_on, id);
    CREATE INDEX ${idx('name')} ON ${p} (public, title_key, id);
  `);
  if (db.dialect === 'postgres') {
    await db.exec(`CREATE INDEX ${idx('search')} ON ${p} USING GIN (search); ANALYZE ${p}`);
  } else {
    await db.exec(`INSERT INTO ${ident(n.text)} (${ident(n.text)}) VALUES ('optimize'); ANALYZE ${p}`);
  }
}

export async function countProtocols(db: Db, t: TableSet): Promise<number> {
  const r = await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(tablesOf(t).protocols)}`);
  return Number(r?.n ?? 0);
}

// ---- lookups over both sources ----------------------------------------------------------------

export type Ref = { by: 'id'; id: number } | { by: 'uri'; uri: string } | { by: 'doi'; key: string };

export interface Found {
  id: number;
  owner: string | null;
  public: number;
  doc: string;
  /** `api`: created through the API; `dataset`: a loaded protocol changed through the API; `load`: as loaded. */
  origin: 'api' | 'dataset' | 'load';
}

interface FoundRow {
  id: number;
  owner: string | null;
  public: number;
  doc: string;
  origin?: 'api' | 'dataset';
}

const LOCAL_SELECT = 'SELECT id, owner, public, doc, origin FROM proto_local';
const WHERE: Record<Ref['by'], string> = { id: 'id = ?', uri: 'uri = ?', doi: 'doi_key = ?' };

function refValue(ref: Ref): SqlValue {
  return ref.by === 'id' ? ref.id : ref.by === 'uri' ? ref.uri : ref.key;
}

const local = (r: FoundRow): Found => ({ id: Number(r.id), owner: r.owner, public: Number(r.public), doc: r.doc, origin: r.origin ?? 'api' });

export async function findProtocol(db: Db, t: TableSet | undefined, ref: Ref): Promise<Found | undefined> {
  const hit = await db.one<FoundRow>(`${LOCAL_SELECT} WHERE ${WHERE[ref.by]} ORDER BY id LIMIT 1`, [refValue(ref)], { hot: true });
  if (hit) return local(hit);
  if (!t) return undefined;
  const g = await db.one<FoundRow>(`SELECT id, owner, public, doc FROM ${ident(tablesOf(t).protocols)} WHERE ${WHERE[ref.by]} ORDER BY id LIMIT 1`, [refValue(ref)], { hot: true });
  if (!g) return undefined;
  // Found by uri or DOI in the load, but changed locally since: the local copy answers.
  const over = ref.by === 'id' ? undefined : await db.one<FoundRow>(`${LOCAL_SELECT} WHERE id = ?`, [Number(g.id)], { hot: true });
  return over ? local(over) : { id: Number(g.id), owner: g.owner, public: Number(g.public), doc: g.doc, origin: 'load' };
}

/** Whether a uri is taken in either source. */
export async function uriTaken(db: Db, t: TableSet | undefined, uri: string): Promise<boolean> {
  return (await findProtocol(db, t, { by: 'uri', uri })) !== undefined;
}

/** Writes a protocol to the local table (insert or replace), with its text index; inside a transaction. */
export async function saveLocal(tx: Db, r: ProtocolRecord, origin: 'api' | 'dataset', insertOnly = false): Promise<boolean> {
  const c = r.cols;
  const pg = tx.dialect === 'postgres';
  const cols = [...COLUMNS, 'origin', ...(pg ? ['search'] : [])];
  const values: SqlValue[] = [...row(r), origin, ...(pg ? [c.search] : [])];
  const marks = [...COLUMNS.map(() => '?'), '?', ...(pg ? ["to_tsvector('simple', ?)"] : [])];
  const update = cols
    .filter((k) => k !== 'id')
    .map((k) => `${k} = excluded.${k}`)
    .join(', ');
  const n = await tx.run(
    `INSERT INTO proto_local (${cols.join(', ')}) VALUES (${marks.join(', ')})
     ON CONFLICT ${insertOnly ? 'DO NOTHING' : `(id) DO UPDATE SET ${update}`}`,
    values,
  );
  if (n === 0) return false;
  if (!pg) {
    await tx.run('DELETE FROM proto_local_text WHERE rowid = ?', [c.id]);
    await tx.run('INSERT INTO proto_local_text (rowid, body) VALUES (?, ?)', [c.id, c.search]);
  }
  return true;
}

/** The next id for a protocol created through the API. */
export async function nextLocalId(tx: Db): Promise<number> {
  const r = await tx.one<{ m: number | null }>('SELECT MAX(id) AS m FROM proto_local WHERE id >= ?', [LOCAL_ID_BASE]);
  return r?.m != null ? Number(r.m) + 1 : LOCAL_ID_BASE;
}
