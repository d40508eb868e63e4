/**
 * One fetch: choose the files (or harvest the pages), download them into the dataset's folder of
 * the download cache, give the load a folder of exactly those files (hard links, so nothing is
 * copied), and load it through the same path as `biomirror ingest`. Nothing is loaded unless every
 * file arrived whole; the load itself is atomic, so a failure anywhere leaves the data served before.
 */
import { copyFile, link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Dataset } from '../../core/ingest/dataset.js';
import { runLoad, type LoadResult, type Sourced } from '../../core/ingest/load.js';
import type { ProgressSink } from '../../core/ingest/progress.js';
import type { SkipPlace } from '../../core/ingest/dataset.js';
import type { Db } from '../../core/store/db.js';
import type { Generations } from '../../core/store/generations.js';
import { SERVICES, findService } from '../../services/registry.js';
import { loadsNothing } from '../../services/types.js';
import { download, type Local } from './download.js';
import { FetchError, UsageError } from './errors.js';
import { Http } from './http.js';
import { lockDataset } from './lock.js';
import type { BulkSource, FetchOptions, OptionName, Plan, PlannedFile, Source } from './plan.js';
import { bytesText, silentFetchProgress, type FetchProgress } from './progress.js';
import { SOURCES, sourceOf } from './sources/index.js';
import type { Upstreams } from './upstreams.js';

export interface FetchRequest {
  service: string;
  dataset?: string | undefined;
  opts: FetchOptions;
  upstreams: Upstreams;
  /** The download cache: a folder per service and dataset below it. */
  cacheDir: string;
  /** Use files downloaded before without asking the upstream whether they changed. */
  trustCache?: boolean;
  /** Only say what would be downloaded (with sizes), download and load nothing. */
  dryRun?: boolean;
  /** Downloads at once, instead of the source's own choice. */
  parallel?: number | undefined;
  signal: AbortSignal;
  progress: FetchProgress;
  loadProgress: ProgressSink;
  /** A line for the user (stderr). */
  note(line: string): void;
  /** What a dry run prints (stdout). */
  out(line: string): void;
  onSkip?: (place: SkipPlace, reason: string) => void;
}

const OPTION_FLAGS: Record<OptionName, string> = { limit: '--limit', ids: '--ids', organisms: '--organism', parts: '--parts', from: '--from', to: '--to', token: '--token' };

/** The source of a service's dataset, or a usage error that says what there is. */
export function chooseSource(service: string, dataset: string | undefined): Source {
  const mod = findService(service);
  if (!mod) throw new UsageError(`unknown service "${service}"; services: ${SERVICES.map((s) => s.id).join(', ')}`);
  const own = SOURCES.filter((s) => s.service === service);
  if (own.length === 0) {
    throw new UsageError(loadsNothing(mod));
  }
  if (!dataset) {
    if (own.length === 1) return own[0] as Source;
    throw new UsageError(`${service} has datasets ${own.map((s) => s.dataset).join(', ')}; name one: biomirror fetch ${service} <dataset>`);
  }
  const src = sourceOf(service, dataset);
  if (!src) throw new UsageError(`${service} has no dataset "${dataset}"; its datasets: ${own.map((s) => s.dataset).join(', ')}`);
  return src;
}

function checkOptions(src: Source, opts: FetchOptions): void {
  for (const [k, v] of Object.entries(opts) as [OptionName, unknown][]) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (!src.accepts.includes(k)) {
      const takes = src.accepts.map((a) => OPTION_FLAGS[a]);
      throw new UsageError(`${OPTION_FLAGS[k]} means nothing for ${src.service} ${src.dataset}${takes.length ? `; it takes ${takes.join(', ')}` : '; it takes no options'}`);
    }
  }
}

/** The dataset, reporting `fallback` as its release when its files carry none of their own. */
function withRelease<R>(ds: Dataset<Sourced<R>>, fallback: string | undefined): Dataset<Sourced<R>> {
  if (!fallback) return ds;
  return {
    ...ds,
    async *read(input, ctx) {
      let told = false;
      const inner = {
        ...ctx,
        release: (r: string) => {
          told = true;
          ctx.release(r);
        },
      };
      yield* ds.read(input, inner);
      if (!told) ctx.release(fallback);
    },
  };
}

/** The newest Last-Modified among the files, as a day. */
function newestDay(files: readonly Local[]): string | undefined {
  const days = files
    .map((f) => (f.lastModified ? new Date(f.lastModified) : undefined))
    .filter((d): d is Date => d !== undefined && !Number.isNaN(d.getTime()))
    .map((d) => d.toISOString().slice(0, 10))
    .sort();
  return days[days.length - 1];
}

async function pool<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const i = next++;
      try {
        await work(items[i] as T, i);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  if (failure !== undefined) throw failure;
}

async function downloadAll(req: FetchRequest, http: Http, dir: string, plan: Plan): Promise<{ file: PlannedFile; local: Local }[]> {
  const width = req.parallel ?? plan.parallel ?? 1;
  const got: ({ file: PlannedFile; local: Local } | undefined)[] = [];
  let done = 0;
  let bytes = 0;
  let missing = 0;
  let last = Date.now();
  const many = width > 1 && plan.files.length > 1;
  const tally = (final: boolean) => {
    if (!many || (!final && Date.now() - last < 5000)) return;
    last = Date.now();
    req.note(`downloads: ${done.toLocaleString('en-US')} of ${plan.files.length.toLocaleString('en-US')} files, ${bytesText(bytes)}${missing ? `, ${missing} not at the upstream` : ''}`);
  };
  await pool(plan.files, width, async (file, i) => {
    const progress: FetchProgress = many ? silentFetchProgress : req.progress;
    try {
      const local = await download(file, join(dir, file.path), { http, progress, trustCache: req.trustCache ?? false, label: file.path });
      got[i] = { file, local };
      bytes += local.size;
    } catch (err) {
      if (!(file.optional && err instanceof FetchError && /answered 404/.test(err.message))) throw err;
      missing++;
    }
    done++;
    tally(false);
  });
  tally(true);
  return got.filter((g): g is { file: PlannedFile; local: Local } => g !== undefined);
}

/** A folder holding exactly this run's files, as the load reads them. */
async function loadFolder(dir: string, files: { file: PlannedFile; local: Local }[], plan: Plan, signal: AbortSignal, note: (l: string) => void): Promise<string> {
  const input = join(dir, `.load-${process.pid}`);
  await rm(input, { recursive: true, force: true });
  for (const { file, local } of files) {
    if (file.derive) {
      const dest = join(input, file.derive.path);
      await mkdir(dirname(dest), { recursive: true });
      note(`preparing ${file.derive.path} from ${file.path}`);
      await file.derive.make(local.path, dest, signal);
      continue;
    }
    const dest = join(input, file.path);
    await mkdir(dirname(dest), { recursive: true });
    // A hard link costs nothing; a copy only where the file system has none.
    await link(local.path, dest).catch(() => copyFile(local.path, dest));
  }
  for (const w of plan.written ?? []) {
    const dest = join(input, w.path);
    await mkdir(dirname(dest), { recursive: true });
    await writeFile(dest, w.content);
  }
  return input;
}

async function dryRun(req: FetchRequest, http: Http, src: BulkSource, plan: Plan): Promise<void> {
  const shown = plan.files.slice(0, 200);
  let known = 0;
  let total = 0;
  req.out(`${src.service} ${src.dataset}: ${plan.files.length.toLocaleString('en-US')} file${plan.files.length === 1 ? '' : 's'} from ${plan.source}`);
  for (const f of shown) {
    const size = await http.size(f.url).catch((e: unknown) => (f.optional ? undefined : Promise.reject(e)));
    if (size !== undefined) {
      known++;
      total += size;
    }
    req.out(`  ${f.url}  ${size === undefined ? 'size not given' : bytesText(size)}${f.md5Url ? '  (MD5 published)' : ''}${f.optional ? '  (if present)' : ''}`);
  }
  if (plan.files.length > shown.length) req.out(`  ... and ${(plan.files.length - shown.length).toLocaleString('en-US')} more`);
  if (plan.harvest) req.out('  then the API, a request at a time at its published pace (not asked in a dry run)');
  if (known) {
    const estimate = plan.files.length > known ? `, about ${bytesText((total / known) * plan.files.length)} in all (from the ${known} sizes asked)` : '';
    req.out(`total ${bytesText(total)}${estimate}`);
  }
}

/**
 * Fetches and loads one dataset. Returns the load, or undefined when there was nothing to load
 * (a dry run, a harvest with nothing new over what is already served).
 */
export async function fetchAndLoad(db: Db, generations: Generations, req: FetchRequest): Promise<LoadResult | undefined> {
  const src = chooseSource(req.service, req.dataset);
  checkOptions(src, req.opts);
  const ds = findService(src.service)?.datasets.find((d) => d.name === src.dataset);
  if (!ds) throw new UsageError(`${src.service} has no dataset ${src.dataset}`);
  const dir = join(req.cacheDir, src.service, src.dataset);
  await mkdir(dir, { recursive: true });
  const unlock = await lockDataset(dir, `${src.service} ${src.dataset}`);
  try {
    return await fetchInto(db, generations, req, src, ds, dir);
  } finally {
    await unlock();
  }
}

async function fetchInto(db: Db, generations: Generations, req: FetchRequest, src: Source, ds: Dataset<Sourced<unknown>>, dir: string): Promise<LoadResult | undefined> {
  const http = new Http({ signal: req.signal, onRetry: (err, ms) => req.note(`${err.message}; trying again in ${Math.round(ms / 1000)} s`) });
  const ctx = { http, upstreams: req.upstreams, opts: req.opts, note: req.note };

  if (src.kind === 'harvest') {
    if (req.dryRun) throw new UsageError(`--dry-run: ${src.service} ${src.dataset} is harvested page by page; there is no file list to show`);
    const res = await src.harvest({ ...ctx, dir, progress: req.progress });
    if (!res.changed) {
      const served = (await generations.served(src.service)).find((l) => l.dataset === src.dataset);
      if (served?.source === res.source) {
        req.note(`${src.service}/${src.dataset}: nothing new; the data served (generation ${served.id}) is current`);
        return undefined;
      }
    }
    return runLoad(db, generations, withRelease(ds, res.release), res.input, { source: res.source, progress: req.loadProgress, signal: req.signal, ...(req.onSkip ? { onSkip: req.onSkip } : {}) });
  }

  const plan = await src.plan(ctx);
  if (plan.files.length === 0 && !plan.harvest) throw new UsageError(`${src.service} ${src.dataset}: nothing to fetch`);
  if (req.dryRun) {
    await dryRun(req, http, src, plan);
    return undefined;
  }
  const files = await downloadAll(req, http, dir, plan);
  if (files.length === 0 && plan.files.length > 0) throw new FetchError(`${src.service} ${src.dataset}: none of the files is at the upstream`);
  const harvested = plan.harvest ? await plan.harvest({ dir, http, note: req.note }) : [];
  const input = await loadFolder(dir, files, { ...plan, written: [...(plan.written ?? []), ...harvested] }, req.signal, req.note);
  try {
    const release = plan.release ?? newestDay(files.map((f) => f.local));
    return await runLoad(db, generations, withRelease(ds, release), input, {
      source: plan.source,
      progress: req.loadProgress,
      signal: req.signal,
      ...(req.onSkip ? { onSkip: req.onSkip } : {}),
    });
  } finally {
    await rm(input, { recursive: true, force: true });
  }
}
