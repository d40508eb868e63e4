import type { Db } from '../store/db.js';
import { ident } from '../store/db.js';
import type { Generations } from '../store/generations.js';
import { reclaimSpace, type SpaceReclaimed } from '../store/sqlite.js';
import { LayoutMismatch } from '../store/tables.js';
import type { Dataset, FinishSteps, ReadContext, SkipPlace, TableSet } from './dataset.js';
import { tableSet } from './dataset.js';
import { FormatError, LoadAborted, UpdateRefused } from './errors.js';
import type { ProgressSink, ProgressState } from './progress.js';
import { silentProgress } from './progress.js';
import { summary } from './report.js';
import { UpdateRun, recordsOf, splitInput, type Changes } from './updates.js';

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
  /**
   * Applies the input as an update of what is served (new and changed records replace theirs, the
   * upstream's deletion lists remove theirs) instead of replacing the whole dataset.
   */
  update?: boolean;
}

/** The generation a load took the place of, as its provenance says. */
export interface ReplacedLoad {
  gen: number;
  /** Rows as the loader counts them (every kind of record). */
  records: number;
  /** Records of the dataset's own kind (studies, genes), where it says what a record is. */
  items: number | undefined;
  release: string | null;
  source: string;
  loadedAt: string | null;
}

export interface LoadResult {
  gen: number;
  mode: 'full' | 'update';
  /** Records in the new generation (after an update: those copied, replaced and added). */
  records: number;
  /** Records of the dataset's own kind in the new generation. */
  items: number | undefined;
  /** Records read from the input and written. */
  read: number;
  skipped: number;
  release: string | null;
  seconds: number;
  retired: number[];
  /** What was served before: the load replaced it (full) or started from it (update). */
  replaced: ReplacedLoad | undefined;
  /** What an update changed. */
  changes: Changes | undefined;
  /** Space given back by the dropped generations (SQLite). */
  space: SpaceReclaimed | undefined;
  noun: string;
  /** Seconds spent reading and writing the records, then in the dataset's finishing steps. */
  timing?: { readSeconds: number; finishSeconds: number; steps: FinishSteps };
}

const KEEP_SKIPS = 100;

export async function dropGeneration(db: Db, ds: Pick<Dataset<unknown>, 'tables'>, t: TableSet): Promise<void> {
  for (const logical of ds.tables) await db.exec(`DROP TABLE IF EXISTS ${ident(t.name(logical))}`);
}

async function servedLoad<R>(db: Db, generations: Generations, ds: Dataset<R>, gen: number | undefined): Promise<ReplacedLoad | undefined> {
  if (gen === undefined) return undefined;
  const rec = await generations.get(gen);
  if (!rec) return undefined;
  const items = await recordsOf(db, ds.updates, tableSet(ds.tablePrefix, gen)).catch(() => undefined);
  return { gen, records: rec.records, items, release: rec.release, source: rec.source, loadedAt: rec.finishedAt };
}

const stopped = () => new LoadAborted('load stopped before it finished; the data served before is unchanged');

/** Generations left `loading` by a process that died: their tables go, their record says why. */
async function dropAbandoned<R>(db: Db, generations: Generations, ds: Dataset<R>, afterMs: number): Promise<void> {
  for (const dead of await generations.abandoned(ds.service, ds.name, afterMs)) {
    await dropGeneration(db, ds, tableSet(ds.tablePrefix, dead));
    await generations.fail(dead, 'interrupted: the loading process stopped before it finished', 0, 0);
  }
}

/** What an update reads from the input: whether it holds records, and its deletion lists. */
async function planUpdate<R>(ds: Dataset<R>, label: string, input: string, servedGen: number | undefined): Promise<{ records: boolean; deletionFiles: string[] }> {
  const spec = ds.updates;
  if (!spec) throw new UpdateRefused(`${label} takes full loads only: its upstream publishes no update files biomirror reads`);
  if (servedGen === undefined) throw new UpdateRefused(`${label} has nothing loaded to update: load the full data first`);
  return splitInput(input, spec.deletions);
}

/**
 * Records on their way into the new generation: batched into transactions, an update's changes
 * applied beside them, duplicates and refusals counted as skips, progress and heartbeats sent.
 */
class RecordWriter<R> {
  readonly state: ProgressState;
  readonly skips: { file: string; position: string | number; reason: string }[] = [];
  release: string | null = null;
  private batch: Sourced<R>[] = [];
  private lastBeat = Date.now();

  constructor(
    private readonly db: Db,
    private readonly generations: Generations,
    private readonly ds: Dataset<Sourced<R>>,
    private readonly gen: number,
    private readonly t: TableSet,
    private readonly run: UpdateRun<Sourced<R>> | undefined,
    private readonly opts: LoadOptions,
    private readonly progress: ProgressSink,
    label: string,
  ) {
    this.state = { label, records: 0, skipped: 0, fraction: undefined, startedAt: Date.now() };
  }

  readonly skip = (place: SkipPlace, reason: string): void => {
    this.state.skipped++;
    if (this.skips.length < KEEP_SKIPS) this.skips.push({ ...place, reason });
    this.opts.onSkip?.(place, reason);
  };

  context(signal: AbortSignal): ReadContext {
    return {
      skip: this.skip,
      progress: (f) => {
        this.state.fraction = f;
      },
      release: (r) => {
        if (this.release === null || r > this.release) this.release = r;
      },
      signal,
    };
  }

  async add(rec: Sourced<R>, batchSize: number): Promise<void> {
    this.batch.push(rec);
    if (this.batch.length >= batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    const dupes = await this.db.transaction(async (tx) => {
      await this.run?.apply(tx, rows);
      return this.ds.write(tx, this.t, rows);
    });
    for (const i of dupes) {
      const r = rows[i];
      if (r) this.skip(r.place, 'duplicate: a record with the same identifier was already loaded from an earlier place');
    }
    this.state.records += rows.length - dupes.length;
    this.progress.update(this.state);
    if (Date.now() - this.lastBeat > 2000) {
      this.lastBeat = Date.now();
      await this.generations.heartbeat(this.gen, this.state.records, this.state.skipped);
    }
  }
}

/**
 * Loads `input` into a new generation of `ds` and switches to it only when every row is written,
 * indexed and counted. Any failure (bad format, a crash, Ctrl-C) drops the new generation and leaves
 * the one being served untouched; a killed process leaves tables that the next load removes.
 *
 * With `update`, the new generation starts as a copy of the served one and the input's records and
 * deletion lists are applied to it (see updates.ts); it is switched to the same way.
 */
export async function runLoad<R>(db: Db, generations: Generations, ds: Dataset<Sourced<R>>, input: string, opts: LoadOptions = {}): Promise<LoadResult> {
  const progress = opts.progress ?? silentProgress;
  const signal = opts.signal ?? new AbortController().signal;
  const label = `${ds.service}/${ds.name}`;

  await dropAbandoned(db, generations, ds, opts.abandonedAfterMs ?? 10 * 60_000);
  const servedGen = await generations.active(ds.service, ds.name);
  const spec = ds.updates;
  const split = opts.update ? await planUpdate(ds, label, input, servedGen) : { records: true, deletionFiles: [] as string[] };
  const replaced = await servedLoad(db, generations, ds, servedGen);

  const gen = await generations.begin(ds.service, ds.name, opts.source ?? input);
  const t = tableSet(ds.tablePrefix, gen);
  const run = opts.update && spec && servedGen !== undefined ? new UpdateRun(db, spec, ds.tables, tableSet(ds.tablePrefix, servedGen), t) : undefined;
  const writer = new RecordWriter(db, generations, ds, gen, t, run, opts, progress, label);
  const { state } = writer;

  let written: Written;
  try {
    written = await writeGeneration(db, ds, t, run, writer, { input, label, servedGen, split, signal, batchSize: opts.batchSize ?? ds.batchSize ?? 500 });
  } catch (err) {
    ds.abandon?.();
    await dropGeneration(db, ds, t).catch(() => undefined);
    await generations.fail(gen, (err as Error).message, state.records, state.skipped).catch(() => undefined);
    await reclaimSpace(db).catch(() => undefined);
    throw err;
  }

  const items = await recordsOf(db, spec, t);
  const finalRelease = opts.release ?? writer.release ?? (run ? (replaced?.release ?? null) : null);
  const seconds = (Date.now() - state.startedAt) / 1000;
  const { readSeconds, finishSeconds, steps, counted } = written;
  const retired = await generations.activate(ds.service, ds.name, gen, {
    records: counted,
    skipped: state.skipped,
    release: finalRelease,
    details: {
      seconds,
      skips: writer.skips,
      ratePerSecond: Math.round(state.records / Math.max(seconds, 0.001)),
      readSeconds,
      finishSeconds,
      ...(steps.length ? { steps } : {}),
      mode: run ? 'update' : 'full',
      read: state.records,
      ...(items !== undefined && spec ? { items, noun: spec.noun } : {}),
      ...(run ? { changes: run.changes } : {}),
      ...(replaced ? { replaced } : {}),
    },
  });
  for (const old of retired) await dropGeneration(db, ds, tableSet(ds.tablePrefix, old));
  const space = retired.length ? await reclaimSpace(db) : undefined;
  state.fraction = 1;
  const result: LoadResult = {
    gen,
    mode: run ? 'update' : 'full',
    records: counted,
    items,
    read: state.records,
    skipped: state.skipped,
    release: finalRelease,
    seconds,
    retired,
    replaced,
    changes: run?.changes,
    space,
    noun: spec?.noun ?? 'records',
    timing: { readSeconds, finishSeconds, steps },
  };
  progress.done(state, summary(label, result));
  return result;
}

interface Written {
  counted: number;
  readSeconds: number;
  finishSeconds: number;
  steps: FinishSteps;
}

/**
 * Fills the new generation: creates its tables, copies the served one for an update, writes the
 * input's records, applies deletion lists, runs the dataset's finishing steps and checks the count.
 * Throws on anything that must not be switched to.
 */
async function writeGeneration<R>(
  db: Db,
  ds: Dataset<Sourced<R>>,
  t: TableSet,
  run: UpdateRun<Sourced<R>> | undefined,
  writer: RecordWriter<R>,
  o: { input: string; label: string; servedGen: number | undefined; split: { records: boolean; deletionFiles: string[] }; signal: AbortSignal; batchSize: number },
): Promise<Written> {
  const { state } = writer;
  await ds.create(db, t);
  try {
    await run?.start();
  } catch (err) {
    if (!(err instanceof LayoutMismatch)) throw err;
    throw new UpdateRefused(
      `${o.label}: the served generation ${o.servedGen} was loaded by an earlier version of biomirror, whose tables differ (${err.message}); load the full data once, then updates apply`,
    );
  }
  if (o.split.records) {
    for await (const rec of ds.read(o.input, writer.context(o.signal))) {
      if (o.signal.aborted) throw stopped();
      await writer.add(rec, o.batchSize);
    }
  }
  if (o.signal.aborted) throw stopped();
  await writer.flush();
  if (run) {
    await run.delete(o.split.deletionFiles, writer.context(o.signal));
    if (o.signal.aborted) throw stopped();
    if (state.records === 0 && o.split.deletionFiles.length === 0) {
      throw new FormatError(`${o.input}: no ${ds.name} records and no deletion list found${state.skipped ? ` (${state.skipped} skipped)` : ''}`);
    }
    await run.end();
  } else if (state.records === 0) {
    throw new FormatError(`${o.input}: no ${ds.name} records found${state.skipped ? ` (${state.skipped} skipped)` : ''}`);
  }
  const readSeconds = (Date.now() - state.startedAt) / 1000;
  const steps = (await ds.finish(db, t)) ?? [];
  const finishSeconds = (Date.now() - state.startedAt) / 1000 - readSeconds;
  const counted = await ds.count(db, t);
  if (!run && counted !== state.records) throw new Error(`count check failed: ${state.records} records written, ${counted} found`);
  return { counted, readSeconds, finishSeconds, steps };
}
