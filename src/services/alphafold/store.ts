/**
 * The service's tables. Per load generation: `models` (one row per entry and version, with the keys
 * of its files in the file store and the facts read from them) and `meta` (rows of the metadata
 * table and of accession_ids.csv, by entry). Outside generations: `af_derived`, the files made from
 * loaded ones on request (BinaryCIF, legacy PDB, the served PAE file, the PAE image), keyed by the
 * content key of their source, so a cache entry stays right whatever load is served.
 */
import type { TableSet } from '../../core/ingest/dataset.js';
import type { Sourced } from '../../core/ingest/load.js';
import type { Updates } from '../../core/ingest/updates.js';
import { fileStoreOf, type FileStore } from '../../core/files/store.js';
import type { Db, SqlValue } from '../../core/store/db.js';
import { ident } from '../../core/store/db.js';
import type { Migration } from '../../core/store/migrations.js';
import type { AfRecord, ModelDoc } from './ingest.js';
import type { Meta } from './metadata.js';

export const SERVICE = 'alphafold';
export const DATASET = 'models';
export const PREFIX = 'af';
export const TABLES = ['models', 'meta'] as const;

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '001-derived-files',
    sql: {
      sqlite: 'CREATE TABLE IF NOT EXISTS af_derived (source_key TEXT NOT NULL, kind TEXT NOT NULL, out_key TEXT NOT NULL, PRIMARY KEY (source_key, kind))',
      postgres: 'CREATE TABLE IF NOT EXISTS af_derived (source_key TEXT NOT NULL, kind TEXT NOT NULL, out_key TEXT NOT NULL, PRIMARY KEY (source_key, kind))',
    },
  },
];

/**
 * An update is the files of the entries the database added or remade (a new version is a new model
 * beside the older ones), with accession_ids.csv or the metadata table when they changed: each model
 * replaces its entry and version, each metadata row its entry and source. The database lists no
 * withdrawn entries, so an update never deletes.
 */
export const afUpdates: Updates<Sourced<AfRecord>> = {
  noun: 'models',
  parts: { model: { models: ['entry_id', 'version'] }, meta: { meta: ['entry_id', 'source'] } },
  key: ({ value: r }) => (r.kind === 'model' ? { part: 'model', id: [r.entryId, r.version] } : { part: 'meta', id: [r.entryId, r.source] }),
};

const names = (t: TableSet) => ({ models: ident(t.name('models')), meta: ident(t.name('meta')) });

// The file store of each generation being written (write() only gets the transaction).
const stores = new Map<number, FileStore>();

export async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = names(t);
  await db.exec(`
    CREATE TABLE ${n.models} (entry_id TEXT NOT NULL, version INTEGER NOT NULL, acc TEXT NOT NULL, base_acc TEXT NOT NULL, fragment INTEGER NOT NULL,
      model_key TEXT NOT NULL, conf_key TEXT NOT NULL, pae_key TEXT, doc TEXT NOT NULL, PRIMARY KEY (entry_id, version));
    CREATE TABLE ${n.meta} (entry_id TEXT NOT NULL, source TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (entry_id, source));
  `);
  stores.set(t.gen, fileStoreOf(db));
}

export async function writeRecords(tx: Db, t: TableSet, batch: readonly Sourced<AfRecord>[]): Promise<number[]> {
  const n = names(t);
  const files = stores.get(t.gen);
  if (!files) throw new Error(`generation ${t.gen} was not created by this process`);
  const models = new Map<string, number>();
  const metas = new Map<string, number>();
  batch.forEach((b, i) => {
    const r = b.value;
    const key = r.kind === 'model' ? `${r.entryId}\t${r.version}` : `${r.entryId}\t${r.source}`;
    const seen = r.kind === 'model' ? models : metas;
    if (!seen.has(key)) seen.set(key, i);
  });
  const dupes: number[] = [];
  const existing = async (table: string, col: string, keys: string[]): Promise<Set<string>> => {
    const out = new Set<string>();
    for (let i = 0; i < keys.length; i += 400) {
      const chunk = keys.slice(i, i + 400);
      const rows = await tx.query<{ e: string; k: unknown }>(
        `SELECT entry_id AS e, ${col} AS k FROM ${table} WHERE entry_id IN (${chunk.map(() => '?').join(',')})`,
        chunk.map((k) => k.split('\t')[0] as string),
      );
      for (const r of rows) out.add(`${r.e}\t${String(r.k)}`);
    }
    return out;
  };
  const haveModels = await existing(n.models, 'version', [...models.keys()]);
  const haveMeta = await existing(n.meta, 'source', [...metas.keys()]);
  const modelRows: SqlValue[][] = [];
  const metaRows: SqlValue[][] = [];
  const puts: Promise<void>[] = [];
  for (let i = 0; i < batch.length; i++) {
    const r = (batch[i] as Sourced<AfRecord>).value;
    if (r.kind === 'model') {
      const key = `${r.entryId}\t${r.version}`;
      if (models.get(key) !== i || haveModels.has(key)) {
        dupes.push(i);
        continue;
      }
      const row: SqlValue[] = [r.entryId, r.version, r.accession, r.accession.replace(/-\d+$/, ''), r.fragment, null, null, null, JSON.stringify(r.doc)];
      modelRows.push(row);
      // The batch's files are written together: a folder store spends its time waiting on the disk.
      puts.push(
        (async () => {
          [row[5], row[6], row[7]] = await Promise.all([files.put(r.model, tx), files.put(r.confidence, tx), r.pae ? files.put(r.pae, tx) : null]);
        })(),
      );
    } else {
      const key = `${r.entryId}\t${r.source}`;
      if (metas.get(key) !== i || haveMeta.has(key)) {
        dupes.push(i);
        continue;
      }
      if (r.kind === 'file') {
        const row: SqlValue[] = [r.entryId, r.source, null];
        metaRows.push(row);
        puts.push(
          (async () => {
            row[2] = JSON.stringify({ key: await files.put(r.bytes, tx) });
          })(),
        );
      } else metaRows.push([r.entryId, r.source, JSON.stringify(r.doc)]);
    }
  }
  await Promise.all(puts);
  if (modelRows.length) await tx.insertMany(t.name('models'), ['entry_id', 'version', 'acc', 'base_acc', 'fragment', 'model_key', 'conf_key', 'pae_key', 'doc'], modelRows);
  if (metaRows.length) await tx.insertMany(t.name('meta'), ['entry_id', 'source', 'doc'], metaRows);
  return dupes;
}

export async function finishTables(db: Db, t: TableSet): Promise<void> {
  const n = names(t);
  const g = t.gen;
  await db.exec(`CREATE INDEX af_models_base_g${g} ON ${n.models} (base_acc, acc); CREATE INDEX af_models_acc_g${g} ON ${n.models} (acc)`);
  stores.delete(g);
}

export async function countRecords(db: Db, t: TableSet): Promise<number> {
  const n = names(t);
  const a = await db.one<{ c: number | string }>(`SELECT COUNT(*) AS c FROM ${n.models}`);
  const b = await db.one<{ c: number | string }>(`SELECT COUNT(*) AS c FROM ${n.meta}`);
  return Number(a?.c ?? 0) + Number(b?.c ?? 0);
}

export interface ModelRow {
  entry_id: string;
  version: number;
  acc: string;
  fragment: number;
  model_key: string;
  conf_key: string;
  pae_key: string | null;
  doc: ModelDoc;
  /** The entry's metadata: the table's row over accession_ids.csv's, field by field. */
  meta: Meta;
}

interface RawModelRow extends Omit<ModelRow, 'doc' | 'meta'> {
  doc: string;
  ids_doc: string | null;
  table_doc: string | null;
}

const parseRow = (r: RawModelRow): ModelRow => ({
  entry_id: r.entry_id,
  version: Number(r.version),
  acc: r.acc,
  fragment: Number(r.fragment),
  model_key: r.model_key,
  conf_key: r.conf_key,
  pae_key: r.pae_key,
  doc: JSON.parse(r.doc) as ModelDoc,
  meta: { ...(r.ids_doc ? (JSON.parse(r.ids_doc) as Meta) : {}), ...(r.table_doc ? (JSON.parse(r.table_doc) as Meta) : {}) },
});

// One statement per lookup, with the entry's metadata rows beside it.
const select = (n: ReturnType<typeof names>) =>
  `SELECT m.entry_id, m.version, m.acc, m.fragment, m.model_key, m.conf_key, m.pae_key, m.doc,
     (SELECT x.doc FROM ${n.meta} x WHERE x.entry_id = m.entry_id AND x.source = 'ids') AS ids_doc,
     (SELECT x.doc FROM ${n.meta} x WHERE x.entry_id = m.entry_id AND x.source = 'table') AS table_doc
   FROM ${n.models} m`;

/** Every loaded version of the models of an accession (with `isoforms`, of the canonical accession and its isoforms). */
export async function modelsOf(db: Db, t: TableSet, accession: string, isoforms: boolean): Promise<ModelRow[]> {
  const rows = await db.query<RawModelRow>(`${select(names(t))} WHERE m.${isoforms ? 'base_acc' : 'acc'} = ?`, [accession], { hot: true });
  return rows.map(parseRow);
}

export async function modelOf(db: Db, t: TableSet, entryId: string, version: number): Promise<ModelRow | undefined> {
  const r = await db.one<RawModelRow>(`${select(names(t))} WHERE m.entry_id = ? AND m.version = ?`, [entryId, version], { hot: true });
  return r ? parseRow(r) : undefined;
}

/** The sources (`file:...`) of the optional files loaded for each of `entryIds`. */
export async function extraFilesOf(db: Db, t: TableSet, entryIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (let i = 0; i < entryIds.length; i += 400) {
    const chunk = entryIds.slice(i, i + 400);
    const rows = await db.query<{ entry_id: string; source: string }>(
      `SELECT entry_id, source FROM ${names(t).meta} WHERE entry_id IN (${chunk.map(() => '?').join(',')}) AND source LIKE 'file:%'`,
      [...chunk],
      { hot: true },
    );
    for (const r of rows) out.set(r.entry_id, (out.get(r.entry_id) ?? new Set()).add(r.source));
  }
  return out;
}

/** The file-store key of an entry's optional file, when the load carried it. */
export async function extraFileKey(db: Db, t: TableSet, entryId: string, source: string): Promise<string | undefined> {
  const r = await db.one<{ doc: string }>(`SELECT doc FROM ${names(t).meta} WHERE entry_id = ? AND source = ?`, [entryId, source], { hot: true });
  if (!r) return undefined;
  const key = (JSON.parse(r.doc) as { key?: unknown }).key;
  return typeof key === 'string' ? key : undefined;
}

export async function derivedKey(db: Db, sourceKey: string, kind: string): Promise<string | undefined> {
  const r = await db.one<{ out_key: string }>('SELECT out_key FROM af_derived WHERE source_key = ? AND kind = ?', [sourceKey, kind], { hot: true });
  return r?.out_key;
}

export async function saveDerived(db: Db, sourceKey: string, kind: string, outKey: string): Promise<void> {
  await db.run('INSERT INTO af_derived (source_key, kind, out_key) VALUES (?, ?, ?) ON CONFLICT (source_key, kind) DO NOTHING', [sourceKey, kind, outKey]);
}
