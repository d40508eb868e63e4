import type { Db } from '../store/db.js';
import { ident } from '../store/db.js';
import type { Generations } from '../store/generations.js';
import type { Dataset, ReadContext, SkipPlace, TableSet } from './dataset.js';
import { tableSet } from './dataset.js';
import { FormatError, LoadAborted } from './errors.js';
import type { ProgressSink, ProgressState } from './progress.js';
import { silentProgress } from './progress.js';

/** A record as a reader yields it: the value and where it came from (to report it if it is refused). */
export interface Sourced<R> {
  value: R;
  place: SkipPlace;
}

export interface LoadOptions {
  batchSize?: number;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** Each skipped record, as it happens (the CLI prints them). */
  onSkip?: (place: SkipPlace, reason: string) => void;
  /** Overrides the release the input carries. */
  release?: string;
  /** A `loading` generation whose heartbeat is older than this is from a dead process. */
  abandonedAfterMs?: number;
  /** What the load's provenance names as its source (defaults to the input path). */
  source?: string;
}

export interface LoadResult {
  gen: number;
  records: number;
  skipped: number;
  release: string | null;
  seconds: number;
  retired: number[];
}

const KEEP_SKIPS = 100;

export async function dropGeneration(db: Db, ds: Pick<Dataset<unknown>, 'tables'>, t: TableSet): Promise<void> {
  for (const logical of ds.tables) await db.exec(`DROP TABLE IF EXISTS ${ident(t.name(logical))}`);
}

/**
 * Loads `input` into a new generation of `ds` and switches to it only when every row is written,
 * indexed and counted. Any failure (bad format, a crash, Ctrl-C) drops the new generation and leaves
 * the one being served untouched; a killed process leaves tables that the next load removes.
 */
export async function runLoad<R>(
  db: Db,
  generations: Generations,
  ds: Dataset<Sourced<R>>,
  input: string,
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const progress = opts.progress ?? silentProgress;
  const signal = opts.signal ?? new AbortController().signal;
  const batchSize = opts.batchSize ?? ds.batchSize ?? 500;

  for (const dead of await generations.abandoned(ds.service, ds.name, opts.abandonedAfterMs ?? 10 * 60_000)) {
    await dropGeneration(db, ds, tableSet(ds.tablePrefix, dead));
    await generations.fail(dead, 'interrupted: the loading process stopped before it finished', 0, 0);
  }

  const gen = await generations.begin(ds.service, ds.name, opts.source ?? input);
  const t = tableSet(ds.tablePrefix, gen);
  const state: ProgressState = { label: `${ds.service}/${ds.name}`, records: 0, skipped: 0, fraction: undefined, startedAt: Date.now() };
  const skips: { file: string; position: string | number; reason: string }[] = [];
  let release: string | null = null;

  const skip = (place: SkipPlace, reason: string) => {
    state.skipped++;
    if (skips.length < KEEP_SKIPS) skips.push({ ...place, reason });
    opts.onSkip?.(place, reason);
  };
  const ctx: ReadContext = {
    skip,
    progress: (f) => {
      state.fraction = f;
    },
    release: (r) => {
      if (release === null || r > release) release = r;
    },
    signal,
  };

  let lastBeat = Date.now();
  let batch: Sourced<R>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const dupes = await db.transaction(async (tx) => ds.write(tx, t, rows));
    for (const i of dupes) {
      const r = rows[i];
      if (r) skip(r.place, 'duplicate: a record with the same identifier was already loaded from an earlier place');
    }
    state.records += rows.length - dupes.length;
    progress.update(state);
    if (Date.now() - lastBeat > 2000) {
      lastBeat = Date.now();
      await generations.heartbeat(gen, state.records, state.skipped);
    }
  };

  try {
    await ds.create(db, t);
    for await (const rec of ds.read(input, ctx)) {
      if (signal.aborted) throw new LoadAborted('load stopped before it finished; the data served before is unchanged');
      batch.push(rec);
      if (batch.length >= batchSize) await flush();
    }
    if (signal.aborted) throw new LoadAborted('load stopped before it finished; the data served before is unchanged');
    await flush();
    if (state.records === 0) {
      throw new FormatError(`${input}: no ${ds.name} records found${state.skipped ? ` (${state.skipped} skipped)` : ''}`);
    }
    await ds.finish(db, t);
    const counted = await ds.count(db, t);
    if (counted !== state.records) throw new Error(`count check failed: ${state.records} records written, ${counted} found`);
  } catch (err) {
    await dropGeneration(db, ds, t).catch(() => undefined);
    await generations.fail(gen, (err as Error).message, state.records, state.skipped).catch(() => undefined);
    throw err;
  }

  const finalRelease = opts.release ?? release;
  const seconds = (Date.now() - state.startedAt) / 1000;
  const retired = await generations.activate(ds.service, ds.name, gen, {
    records: state.records,
    skipped: state.skipped,
    release: finalRelease,
    details: { seconds, skips, ratePerSecond: Math.round(state.records / Math.max(seconds, 0.001)) },
  });
  for (const old of retired) await dropGeneration(db, ds, tableSet(ds.tablePrefix, old));
  state.fraction = 1;
  progress.done(
    state,
    `${ds.service}/${ds.name}: loaded ${state.records.toLocaleString('en-US')} records${
      state.skipped ? `, skipped ${state.skipped.toLocaleString('en-US')}` : ''
    } as generation ${gen}${finalRelease ? ` (release ${finalRelease})` : ''}`,
  );
  return { gen, records: state.records, skipped: state.skipped, release: finalRelease, seconds, retired };
}
