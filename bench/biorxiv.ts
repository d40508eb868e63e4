/**
 * The preprint service benchmark. Each figure is measured in the same run as its baseline:
 * - ingest: `biomirror ingest biorxiv` of N generated records as saved API pages (wall time, peak memory);
 * - a date-range page (`/details/biorxiv/{from}/{to}/{cursor}`, 100 records): requests/s and latency
 *   of biomirror, for a 30-day range at random cursors and for the whole range at random deep
 *   cursors, beside a bare Fastify route answering a page-sized body from memory, and beside the
 *   raw database queries of the same page run one at a time.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/biorxiv.js [--records 1000000] [--duration 15] [--postgres URL] [--keep]
 *
 * It drives the built CLI (`npx tsc -p tsconfig.build.json` first).
 */
import Database from './lib/sqlite.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { paperCount, papers, postedOn, writePages } from '../synthetic/biorxiv-generate.js';
import { startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, activeGeneration, cannon, log, machine, round, writeResults, runMain, onEachDatabase } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string' },
    duration: { type: 'string' },
    postgres: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.records ?? 1_000_000);
const DURATION = Number(values.duration ?? 15);
// About 400 papers a day (bioRxiv posts a few hundred): 1M records span about five and a half years.
const GEN = { perDay: 400, start: '2020-01-01' };
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-biorxiv-'));
const FIRST = postedOn(0, 1, GEN);
const LAST_FIRST_POST = postedOn(paperCount(N) - 1, 1, GEN);
const WINDOW_DAYS = 30;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const spanDays = Math.max(1, Math.round((Date.parse(LAST_FIRST_POST) - Date.parse(FIRST)) / 86_400_000) - WINDOW_DAYS);
// Records in a 30-day window: first versions plus the second versions of a quarter of them.
const perWindow = Math.floor(GEN.perDay * WINDOW_DAYS * 1.25);

/** A page of a random 30-day range at a random cursor within it. */
function windowPath(): string {
  const from = addDays(FIRST, Math.floor(Math.random() * spanDays));
  const cursor = 100 * Math.floor((Math.random() * Math.max(1, perWindow - 100)) / 100);
  return `/biorxiv/details/biorxiv/${from}/${addDays(from, WINDOW_DAYS - 1)}/${cursor}`;
}

/** A page of the whole range at a random cursor, up to the last page. */
function deepPath(): string {
  const cursor = Math.floor(Math.random() * Math.max(1, N - 100));
  return `/biorxiv/details/biorxiv/2000-01-01/2099-12-31/${cursor}`;
}

/** The queries biomirror runs for one page, straight on the database: the two ends of the range, then the page by key. */
interface RawDb {
  page(from: string, to: string, cursor: number): Promise<unknown>;
  close(): Promise<void>;
}

function rawSqlite(file: string, gen: number): RawDb {
  const db = new Database(file, { readonly: true });
  const o = `"bx_paper_order_g${gen}"`;
  const first = db.prepare(`SELECT id, new_run, is_new FROM ${o} WHERE date >= ? ORDER BY date, id LIMIT 1`);
  const last = db.prepare(`SELECT id, new_run FROM ${o} WHERE date <= ? ORDER BY date DESC, id DESC LIMIT 1`);
  const page = db.prepare(`SELECT d.doc FROM ${o} o JOIN "bx_papers_g${gen}" d ON d.rid = o.rid WHERE o.id >= ? AND o.id <= ? ORDER BY o.id`);
  return {
    page: async (from, to, cursor) => {
      const a = first.get(from) as { id: number } | undefined;
      const b = last.get(to) as { id: number } | undefined;
      if (!a || !b) return [];
      return page.all(a.id + cursor, Math.min(b.id, a.id + cursor + 99));
    },
    close: async () => void db.close(),
  };
}

function rawPostgres(url: string, gen: number): RawDb {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const o = `"bx_paper_order_g${gen}"`;
  return {
    page: async (from, to, cursor) => {
      const [a, b] = await Promise.all([
        pool.query({ name: 'bx_first', text: `SELECT id FROM ${o} WHERE date >= $1 ORDER BY date, id LIMIT 1`, values: [from] }),
        pool.query({ name: 'bx_last', text: `SELECT id FROM ${o} WHERE date <= $1 ORDER BY date DESC, id DESC LIMIT 1`, values: [to] }),
      ]);
      const lo = Number(a.rows[0]?.id) + cursor;
      const hi = Math.min(Number(b.rows[0]?.id), lo + 99);
      return pool.query({
        name: 'bx_page',
        text: `SELECT d.doc FROM ${o} o JOIN "bx_papers_g${gen}" d ON d.rid = o.rid WHERE o.id >= $1 AND o.id <= $2 ORDER BY o.id`,
        values: [lo, hi],
      });
    },
    close: () => pool.end(),
  };
}

/** Sequential raw page reads for a few seconds: pages per second with no HTTP, JSON or concurrency. */
async function rawRate(raw: RawDb, path: () => string): Promise<number> {
  const end = Date.now() + 3000;
  let n = 0;
  while (Date.now() < end) {
    const [from = '', to = '', cursor = '0'] = path().split('/').slice(4);
    await raw.page(from, to, Number(cursor));
    n++;
  }
  return Math.round(n / 3);
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, input: string, bareUrl: string) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;

  log(`[${dialect}] ingest ${N} records`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'biorxiv', input], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const gen = activeGeneration(env, 'biorxiv');

  log(`[${dialect}] serve`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = match[1] as string;
  try {
    log(`[${dialect}] date-range pages: bare route, then biomirror (30-day ranges, then deep cursors)`);
    const bare = await cannon(bareUrl, () => '/studies/page', DURATION);
    const windowed = await cannon(base, windowPath, DURATION);
    const deep = await cannon(base, deepPath, DURATION);
    const raw = dialect === 'sqlite' ? rawSqlite(join(dataDir, 'biomirror.sqlite'), gen) : rawPostgres(databaseUrl as string, gen);
    const rawWindow = await rawRate(raw, windowPath);
    const rawDeep = await rawRate(raw, deepPath);
    await raw.close();
    return {
      ingest: { records: N, seconds: round(ing.seconds), recordsPerSecond: Math.round(N / ing.seconds), peakRssMb: ing.peakRssMb },
      page30Days: { biomirror: windowed, rawDbPagesPerSecond: rawWindow, ratioToBare: round(windowed.requestsPerSecond / bare.requestsPerSecond) },
      pageDeepCursor: { biomirror: deep, rawDbPagesPerSecond: rawDeep, ratioToBare: round(deep.requestsPerSecond / bare.requestsPerSecond) },
      bareFastify: bare,
    };
  } finally {
    await stop(child);
  }
}

async function main() {
  const input = join(work, 'pages');
  log(`generating ${N} records as saved pages of 100`);
  writePages(input, 'details', papers(N, GEN));

  // The baseline's body: a real 100-record page, as JSON.
  const sample = [...papers(100, GEN)];
  const body = join(work, 'page.json');
  writeFileSync(
    body,
    JSON.stringify({ messages: [{ status: 'ok', category: 'all', interval: `${FIRST}:${FIRST}`, funder: 'all', cursor: 0, count: 100, count_new_papers: '80', total: 100 }], collection: sample }),
  );
  const { child: bareChild, match } = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'bare.js'), '0', body], process.env, /bare listening on (http:\/\/[\d.:]+)/);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    records: N,
    papers: paperCount(N),
    durationSeconds: DURATION,
  };
  try {
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, input, match[1] as string));
  } finally {
    await stop(bareChild);
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('biorxiv', results);
}

runMain(main);
