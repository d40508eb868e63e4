import { readFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Dataset, FinishSteps, ReadContext, TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { derivedDirOf } from '../../../core/files/derived.js';
import { fileStoreOf, type FileStore } from '../../../core/files/store.js';
import type { Db } from '../../../core/store/db.js';
import { Generations } from '../../../core/store/generations.js';
import { tableSet } from '../../../core/ingest/dataset.js';
import type { EntryDocuments } from '../documents/index.js';
import { ARCHIVE, ARCHIVE_PREFIX, ARCHIVE_TABLES, SERVICE, archiveManifest, copyEntries, countArchive, createArchive, finishArchive } from '../store/tables.js';
import { SEARCH_TABLES, fillSearchTables, indexSearchTables, startSearchIndex } from '../search/build/indexer.js';
import { buildEngineIndexes } from '../search/build/engine-indexes.js';
import { ResidueSpool } from '../search/build/residue-spool.js';
import { archiveItems, type ArchiveItem } from './archive-files.js';
import { obsoleteLists } from './obsolete.js';
import { ParsePool, parseThreads } from './parse-pool.js';

export type ArchiveRecord =
  | {
      kind: 'entry';
      id: string;
      docs: EntryDocuments;
      json: { entry: string; parts: string[] };
      cifGz: Buffer;
      sfGz: Buffer | undefined;
      residues: Uint8Array | undefined;
      source: string;
      stamp: string;
    }
  | { kind: 'keep'; id: string };

const GZIP = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Bytes as kept (gzip) and as read (text); a truncated or corrupt gzip throws here. */
function unpack(raw: Buffer): { gz: Buffer; text: string } {
  if (GZIP(raw)) return { gz: raw, text: gunzipSync(raw).toString('utf8') };
  return { gz: gzipSync(raw, { level: 6 }), text: raw.toString('utf8') };
}

/**
 * The state an update run needs between `create` (which sees the database) and `read` (which does
 * not): the generation being served and what each of its entries was read from. One load of the
 * archive runs at a time (the platform's generations refuse a second).
 */
interface Pending {
  previous: TableSet | undefined;
  manifest: Map<string, string>;
  files: FileStore;
  /** The residues of the entries read, for the coordinate indexes `finish` builds. */
  spool: ResidueSpool;
}
let pending: Pending | undefined;

async function create(db: Db, t: TableSet): Promise<void> {
  // A load that failed before its end leaves its state behind: it goes now.
  pending?.spool.close();
  pending = undefined;
  await createArchive(db, t);
  const prevGen = await new Generations(db).active(SERVICE, ARCHIVE);
  const previous = prevGen === undefined ? undefined : tableSet(ARCHIVE_PREFIX, prevGen);
  pending = {
    previous,
    manifest: previous ? await archiveManifest(db, previous) : new Map(),
    files: fileStoreOf(db),
    spool: ResidueSpool.open(derivedDirOf(db)),
  };
}

/** Time one entry may take to parse (the largest real entries take a few seconds). */
const PARSE_TIMEOUT_MS = Number(process.env.BIOMIRROR_PDB_PARSE_TIMEOUT_MS ?? 120_000);

type Skip = { place: { file: string; position: string }; reason: string };
type Outcome = { record?: Sourced<ArchiveRecord>; skip: Skip[] };

async function prepare(item: ArchiveItem, pool: ParsePool): Promise<Outcome> {
  const place = { file: item.cif, position: item.id };
  const skips: Skip[] = [];
  let raw: Buffer;
  try {
    raw = await readFile(item.cif);
  } catch (err) {
    return { skip: [{ place, reason: `unreadable file: ${(err as Error).message}` }] };
  }
  let sfGz: Buffer | undefined;
  if (item.sf) {
    try {
      sfGz = unpack(await readFile(item.sf)).gz;
    } catch (err) {
      skips.push({ place: { file: item.sf, position: item.id }, reason: `structure factors left out: ${(err as Error).message}` });
    }
  }
  let parsed;
  try {
    parsed = await pool.parse(item.id, raw, sfGz !== undefined);
  } catch (err) {
    return { skip: [...skips, { place, reason: `not a readable PDB entry: ${(err as Error).message}` }] };
  }
  if (parsed.docs.id !== item.id) return { skip: [...skips, { place, reason: `the file is named ${item.id} but holds entry ${parsed.docs.id}` }] };
  return {
    record: { value: { kind: 'entry', id: item.id, docs: parsed.docs, json: parsed.json, cifGz: parsed.gz, sfGz, residues: parsed.residues, source: item.cif, stamp: item.stamp }, place },
    skip: skips,
  };
}

async function* read(input: string, ctx: ReadContext): AsyncGenerator<Sourced<ArchiveRecord>> {
  const items = await archiveItems(input);
  const manifest = pending?.manifest ?? new Map<string, string>();
  const threads = parseThreads();
  const pool = new ParsePool(threads, PARSE_TIMEOUT_MS);
  // Entries are parsed on every thread at once and handed on in archive order.
  const window: { item: ArchiveItem; outcome: Promise<Outcome> | undefined }[] = [];
  let next = 0;
  let done = 0;
  const fill = () => {
    while (next < items.length && window.length < threads * 16) {
      const item = items[next++] as ArchiveItem;
      const unchanged = manifest.get(item.id) === item.stamp;
      window.push({ item, outcome: unchanged ? undefined : prepare(item, pool) });
    }
  };
  try {
    fill();
    while (window.length > 0) {
      const head = window.shift() as (typeof window)[number];
      ctx.progress(done++ / items.length);
      if (!head.outcome) {
        yield { value: { kind: 'keep', id: head.item.id }, place: { file: head.item.cif, position: head.item.id } };
      } else {
        const o = await head.outcome;
        for (const s of o.skip) ctx.skip(s.place, s.reason);
        if (o.record) yield o.record;
      }
      fill();
    }
    ctx.progress(1);
  } finally {
    await pool.close();
  }
}

async function write(tx: Db, t: TableSet, batch: readonly Sourced<ArchiveRecord>[]): Promise<readonly number[]> {
  const files = pending?.files ?? fileStoreOf(tx);
  const keep: string[] = [];
  const entries: (string | number | null)[][] = [];
  const parts: string[][] = [];
  const comps: string[][] = [];
  const chains: (string | null)[][] = [];
  // The batch's files are written together; the rows then go in one transaction.
  const keys = await Promise.all(batch.map(async ({ value: r }) => (r.kind === 'keep' ? undefined : { cif: await files.put(r.cifGz, tx), sf: r.sfGz ? await files.put(r.sfGz, tx) : null })));
  batch.forEach(({ value: r }, i) => {
    if (r.kind === 'keep') {
      keep.push(r.id);
      return;
    }
    const k = keys[i] as { cif: string; sf: string | null };
    if (r.residues) pending?.spool.add(r.id, r.residues);
    entries.push([r.id, r.json.entry, k.cif, k.sf, r.docs.entry.pubmedId ?? null, r.source, r.stamp]);
    r.docs.parts.forEach((p, j) => parts.push([p.kind, String(p.doc.rcsb_id), r.id, r.json.parts[j] as string]));
    for (const c of r.docs.components) comps.push([r.id, c.id, JSON.stringify(c)]);
    for (const c of r.docs.chains) chains.push([r.id, c.asymId, c.authId ?? null, c.entityId]);
  });
  if (entries.length) await tx.insertMany(t.name('entries'), ['entry_id', 'doc', 'file_key', 'sf_key', 'pubmed_id', 'source', 'stamp'], entries);
  if (parts.length) await tx.insertMany(t.name('parts'), ['kind', 'rcsb_id', 'entry_id', 'doc'], parts);
  if (comps.length) await tx.insertMany(t.name('comps'), ['entry_id', 'comp_id', 'doc'], comps);
  if (chains.length) await tx.insertMany(t.name('chains'), ['entry_id', 'asym_id', 'auth_id', 'entity_id'], chains);
  if (keep.length && pending?.previous) await copyEntries(tx, pending.previous, t, keep);
  return [];
}

const since = (t0: number) => Math.round(performance.now() - t0) / 1000;

async function finish(db: Db, t: TableSet): Promise<FinishSteps> {
  const spool = pending?.spool;
  pending = undefined;
  try {
    let t0 = performance.now();
    await finishArchive(db, t);
    await startSearchIndex(db, t);
    let fill = since(t0);
    let indexing = 0;
    // The engines' indexes too, before the switch: the first query after a load finds them ready.
    // MMseqs2 needs only the sequence table and the structure indexes only the entries' files:
    // both are built while the rest of the search index is.
    const built = await buildEngineIndexes(db, t, spool && ((id) => spool.get(id)), async () => {
      t0 = performance.now();
      await fillSearchTables(db, t);
      fill += since(t0);
      t0 = performance.now();
      await indexSearchTables(db, t);
      indexing = since(t0);
    });
    return [
      { step: 'search tables', seconds: fill },
      ...('seconds' in built.sequences ? [{ step: 'sequence index (MMseqs2)', seconds: built.sequences.seconds, alongside: true }] : []),
      { step: 'search table indexes', seconds: indexing },
      { step: 'structure indexes', seconds: built.structures.seconds, alongside: true },
    ];
  } finally {
    spool?.close();
  }
}

export function archiveDataset(demo: string): Dataset<Sourced<ArchiveRecord>> {
  return {
    service: SERVICE,
    name: ARCHIVE,
    tablePrefix: ARCHIVE_PREFIX,
    tables: ARCHIVE_TABLES,
    batchSize: 50,
    demo,
    read,
    create,
    write,
    finish,
    count: countArchive,
    abandon() {
      // The residues kept for the coordinate indexes (an unlinked file: its space is given back now).
      pending?.spool.close();
      pending = undefined;
    },
    // The weekly update: the entry files added or changed (the week's added and modified lists), and
    // the obsolete list. Every entry given is read again; the search index is rebuilt.
    updates: {
      noun: 'entries',
      parts: { entry: { entries: 'entry_id', parts: 'entry_id', comps: 'entry_id', chains: 'entry_id' } },
      key: ({ value }) => (value.kind === 'entry' ? { part: 'entry', id: value.id } : null),
      derived: SEARCH_TABLES,
      deletions: obsoleteLists,
      async afterCopy() {
        // The served entries are in the copy already: nothing is carried over by stamp.
        if (pending) pending = { ...pending, previous: undefined, manifest: new Map() };
      },
    },
  };
}
