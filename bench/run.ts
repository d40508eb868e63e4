/**
 * The ClinicalTrials.gov benchmark. Each figure is measured in the same run as its baseline:
 * - ingest: `biomirror ingest` of N generated studies (the bulk zip), beside a raw bulk insert of the
 *   same documents into one plain table;
 * - GET /studies/{nctId}: requests/s of biomirror beside a bare Fastify route serving a study-sized
 *   document from memory, and the raw database lookup;
 * - a 10-result full-text search with 10 concurrent clients: latency percentiles of biomirror beside
 *   the raw database query of the same search.
 *
 *   npm run bench -- [--studies 100000] [--duration 15] [--postgres URL] [--zip existing.zip]
 */
import Database from './lib/sqlite.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import yauzl from 'yauzl';
import { writeStudiesZip } from './generate.js';
import { generateStudy, nctFor } from '../synthetic/ct-generate.js';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, activeGeneration, cannon, log, machine, round, writeResults, runMain, onEachDatabase } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    studies: { type: 'string' },
    duration: { type: 'string' },
    postgres: { type: 'string' },
    zip: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.studies ?? 100_000);
const DURATION = Number(values.duration ?? 15);
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-'));

// The search mix: every condition and intervention of the generator, one first page of 10 each.
const CONDITIONS = [...new Set(Array.from({ length: 2000 }, (_, i) => (generateStudy(i).protocolSection as { conditionsModule: { conditions: string[] } }).conditionsModule.conditions).flat())];
const DRUGS = [
  ...new Set(
    Array.from({ length: 2000 }, (_, i) =>
      (generateStudy(i).protocolSection as { armsInterventionsModule: { interventions: { name: string }[] } }).armsInterventionsModule.interventions.map((x) => x.name),
    ).flat(),
  ),
];
const SEARCHES = [...CONDITIONS.map((c) => `query.cond=${encodeURIComponent(`"${c}"`)}`), ...DRUGS.map((d) => `query.intr=${encodeURIComponent(d)}`)];

/** The floor of write cost: the same documents into one table, one transaction per 5,000 rows. */
async function rawInsertSqlite(zip: string, file: string): Promise<{ seconds: number; rate: number }> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE raw (nct_id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  const ins = db.prepare('INSERT INTO raw (nct_id, doc) VALUES (?, ?)');
  const flush = db.transaction((rows: [string, string][]) => {
    for (const r of rows) ins.run(r[0], r[1]);
  });
  const t0 = process.hrtime.bigint();
  let rows: [string, string][] = [];
  await readZip(zip, (name, text) => {
    const doc = JSON.parse(text) as Record<string, unknown>;
    rows.push([name.replace(/\.json$/, ''), JSON.stringify(doc)]);
    if (rows.length >= 5000) {
      flush(rows);
      rows = [];
    }
  });
  flush(rows);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  db.close();
  return { seconds, rate: Math.round(N / seconds) };
}

function readZip(path: string, each: (name: string, text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return reject(err2);
          const chunks: Buffer[] = [];
          s.on('data', (c: Buffer) => chunks.push(c));
          s.on('end', () => {
            each(e.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve());
      zip.readEntry();
    });
  });
}

interface RawDb {
  get(nctId: string): Promise<unknown>;
  /** The first page (and count) of a search of `words` as a phrase in one area. */
  search(area: 'cond' | 'intr', words: string[], limit: number): Promise<unknown>;
  close(): Promise<void>;
}

function rawSqlite(file: string, gen: number): RawDb {
  const db = new Database(file, { readonly: true });
  const t = (n: string) => `"ct_${n}_g${gen}"`;
  const get = db.prepare(`SELECT doc FROM ${t('docs')} WHERE id = ?`);
  const w = `bm25(${t('text')}, 3.0, 3.0, 1.0, 1.5, 1.5, 4.0, 1.0, 5.0, 0.5)`;
  const page = db.prepare(
    `SELECT d.doc FROM (SELECT rowid AS rid, ${w} AS rel FROM ${t('text')} WHERE ${t('text')} MATCH ? ORDER BY rel, rid LIMIT ?) r JOIN ${t('docs')} d ON d.id = r.rid ORDER BY r.rel, r.rid`,
  );
  const count = db.prepare(`SELECT COUNT(*) FROM ${t('text')} WHERE ${t('text')} MATCH ?`);
  return {
    get: async (id) => get.get(Number(id.slice(3))),
    search: async (area, words, limit) => {
      const m = `{${area}} : "${words.join(' ')}"`;
      return [page.all(m, limit), count.get(m)];
    },
    close: async () => void db.close(),
  };
}

async function rawPostgres(url: string, gen: number): Promise<RawDb> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const t = (n: string) => `"ct_${n}_g${gen}"`;
  return {
    get: (id) => pool.query({ name: 'get', text: `SELECT doc FROM ${t('docs')} WHERE id = $1`, values: [Number(id.slice(3))] }),
    search: async (area, words, limit) => {
      const q = words.map((w) => `'${w}'`).join(' <-> ');
      const ts = `to_tsquery('simple', $1)`;
      return Promise.all([
        pool.query(
          `SELECT d.doc FROM (SELECT x.id, -ts_rank(x.v, ${ts}) AS rel FROM ${t(`text_${area}`)} x WHERE x.v @@ ${ts} ORDER BY rel, x.id LIMIT $2) q JOIN ${t('docs')} d ON d.id = q.id ORDER BY q.rel, q.id`,
          [q, limit],
        ),
        pool.query(`SELECT COUNT(*) FROM ${t(`text_${area}`)} x WHERE x.v @@ ${ts}`, [q]),
      ]);
    },
    close: () => pool.end(),
  };
}

/** Sequential timings of the raw query for the same search mix (no HTTP, no concurrency). */
async function rawSearchLatency(raw: RawDb) {
  const times: number[] = [];
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const queries: ['cond' | 'intr', string[]][] = [...CONDITIONS.map((c) => ['cond', words(c)] as ['cond', string[]]), ...DRUGS.map((d) => ['intr', words(d)] as ['intr', string[]])];
  const end = Date.now() + Math.min(DURATION, 10) * 1000;
  let i = 0;
  while (Date.now() < end) {
    const [area, w] = queries[i++ % queries.length] as ['cond' | 'intr', string[]];
    const t0 = process.hrtime.bigint();
    await raw.search(area, w, 11);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { queries: times.length, latencyMs: { p50: round(percentile(times, 50)), p90: round(percentile(times, 90)), p99: round(percentile(times, 99)) } };
}

async function rawLookupRate(raw: RawDb): Promise<number> {
  const end = Date.now() + 3000;
  let n = 0;
  while (Date.now() < end) {
    await raw.get(nctFor(Math.floor(Math.random() * N)));
    n++;
  }
  return Math.round(n / 3);
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, zip: string, smallZip: string, bareUrl: string) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;

  // A fifth of the studies first, into a scratch database: memory should not grow with the input.
  log(`[${dialect}] ingest ${N / 5} studies (memory check)`);
  const smallEnv = { ...env, DATA_DIR: join(work, `${dialect}-small`) };
  const small = await timed(process.execPath, [CLI, 'ingest', 'clinicaltrials', smallZip], smallEnv);
  if (small.code !== 0) throw new Error(`ingest failed: ${small.stderr}`);
  log(`[${dialect}] ingest ${N} studies`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'clinicaltrials', zip], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const ingest = {
    studies: N,
    seconds: round(ing.seconds),
    studiesPerSecond: Math.round(N / ing.seconds),
    peakRssMb: ing.peakRssMb,
    peakRssMbAtFifth: small.peakRssMb,
  };
  const gen = activeGeneration(env, 'clinicaltrials');

  log(`[${dialect}] serve`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = `${match[1] as string}/clinicaltrials/api/v2`;
  try {
    log(`[${dialect}] GET /studies/{nctId}: bare route, then biomirror`);
    const bare = await cannon(bareUrl, () => `/studies/${nctFor(Math.floor(Math.random() * N))}`, DURATION, 10);
    const get = await cannon(base, () => `/clinicaltrials/api/v2/studies/${nctFor(Math.floor(Math.random() * N))}`, DURATION, 10);
    log(`[${dialect}] search, 10 concurrent clients`);
    let k = 0;
    const search = await cannon(base, () => `/clinicaltrials/api/v2/studies?${SEARCHES[k++ % SEARCHES.length] as string}&pageSize=10`, DURATION, 10);
    const raw = dialect === 'sqlite' ? rawSqlite(join(dataDir, 'biomirror.sqlite'), gen) : await rawPostgres(databaseUrl as string, gen);
    const rawGet = await rawLookupRate(raw);
    const rawSearch = await rawSearchLatency(raw);
    await raw.close();
    return {
      ingest,
      get: { biomirror: get, bareFastify: bare, rawDbLookupsPerSecond: rawGet, ratioToBare: round(get.requestsPerSecond / bare.requestsPerSecond) },
      search: { distinctQueries: SEARCHES.length, biomirror: search, rawDb: rawSearch },
    };
  } finally {
    await stop(child);
  }
}

async function main() {
  const zip = values.zip ?? join(work, 'ctg-studies.json.zip');
  if (!values.zip) {
    log(`generating ${N} studies`);
    await writeStudiesZip(zip, N);
  }
  const smallZip = join(work, 'ctg-studies-fifth.json.zip');
  await writeStudiesZip(smallZip, Math.round(N / 5), 2);
  const body = join(work, 'study.json');
  writeFileSync(body, JSON.stringify(generateStudy(1)));
  const { child: bareChild, match } = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'bare.js'), '0', body], process.env, /bare listening on (http:\/\/[\d.:]+)/);
  const bareUrl = match[1] as string;
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    studies: N,
    durationSeconds: DURATION,
  };
  try {
    log('raw bulk insert baseline');
    results.rawInsertSqlite = await rawInsertSqlite(zip, join(work, 'raw.sqlite'));
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, zip, smallZip, bareUrl));
  } finally {
    await stop(bareChild);
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('clinicaltrials', results);
}

runMain(main);
