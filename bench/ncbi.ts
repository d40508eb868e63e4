/**
 * The NCBI benchmark. Each figure is measured in the same run as its baseline:
 * - ingest: `biomirror ingest eutils --dataset gene` of N generated genes (gene_info.gz), beside a raw
 *   bulk insert of the same rows into one plain SQLite table;
 * - esearch with a tagged term (`GEN123[gene]`, a different gene each request) and with a tagged term
 *   ANDed with an organism, 10 concurrent clients: requests/s and latency percentiles of biomirror,
 *   beside a bare Fastify route answering an esearch-sized body from memory, and beside the same
 *   lookup straight on the database, one at a time.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/ncbi.js [--genes 1000000] [--duration 15] [--postgres URL] [--keep]
 */
import Database from './lib/sqlite.js';
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { symbolFor, writeGeneInfo } from '../synthetic/ncbi-generate.js';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, cannon, log, machine, round, writeResults, runMain, onEachDatabase } from './lib/harness.js';

const { values } = parseArgs({
  options: { genes: { type: 'string' }, duration: { type: 'string' }, postgres: { type: 'string' }, keep: { type: 'boolean' } },
});
const N = Number(values.genes ?? 1_000_000);
const DURATION = Number(values.duration ?? 15);
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-ncbi-'));
const GENE_FIELD = 1; // the Gene Name sub-field of the index (src/services/ncbi/gene/fields.ts)

const randomGene = () => Math.floor(Math.random() * N);
const TAGGED = () => `/eutils/esearch.fcgi?db=gene&term=${symbolFor(randomGene())}%5Bgene%5D`;
const COMBINED = () => `/eutils/esearch.fcgi?db=gene&term=${symbolFor(randomGene())}%5Bgene%5D%20AND%20human%5Borgn%5D&retmode=json`;

/** The floor of write cost: the gene_info rows into one table keyed by GeneID, 5,000 rows a transaction. */
async function rawInsert(file: string, db: string): Promise<{ seconds: number; rowsPerSecond: number }> {
  const d = new Database(db);
  d.pragma('journal_mode = WAL');
  d.pragma('synchronous = NORMAL');
  d.exec('CREATE TABLE raw (gene_id INTEGER PRIMARY KEY, tax_id INTEGER, symbol TEXT, line TEXT)');
  const ins = d.prepare('INSERT INTO raw (gene_id, tax_id, symbol, line) VALUES (?, ?, ?, ?)');
  const flush = d.transaction((rows: [number, number, string, string][]) => {
    for (const r of rows) ins.run(...r);
  });
  const t0 = process.hrtime.bigint();
  let rows: [number, number, string, string][] = [];
  for await (const line of createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })) {
    if (line.startsWith('#')) continue;
    const c = line.split('\t');
    rows.push([Number(c[1]), Number(c[0]), c[2] as string, line]);
    if (rows.length >= 5000) {
      flush(rows);
      rows = [];
    }
  }
  flush(rows);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  d.close();
  return { seconds: round(seconds), rowsPerSecond: Math.round(N / seconds) };
}

/** The same tagged-term search straight on the database: the term's count, then its first page. */
async function rawSearch(run: (symbol: string) => Promise<unknown>) {
  const times: number[] = [];
  const end = Date.now() + Math.min(DURATION, 10) * 1000;
  while (Date.now() < end) {
    const t0 = process.hrtime.bigint();
    await run(symbolFor(randomGene()).toLowerCase());
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { queries: times.length, queriesPerSecond: Math.round(times.length / Math.min(DURATION, 10)), latencyMs: { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) } };
}

function geneGeneration(env: NodeJS.ProcessEnv): number {
  const report = JSON.parse(execFileSync(process.execPath, [CLI, 'status', '--json'], { env, encoding: 'utf8' })) as {
    services: { id: string; datasets: { dataset: string; generation: number }[] }[];
  };
  return report.services.find((s) => s.id === 'eutils')?.datasets.find((d) => d.dataset === 'gene')?.generation as number;
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, file: string, bareUrl: string) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  log(`[${dialect}] ingest ${N} genes`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'eutils', file, '--dataset', 'gene'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const ingest = { genes: N, seconds: round(ing.seconds), rowsPerSecond: Math.round(N / ing.seconds), peakRssMb: ing.peakRssMb };
  const gen = geneGeneration(env);
  const t = (n: string) => `"ng_${n}_g${gen}"`;

  log(`[${dialect}] serve`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = match[1] as string;
  try {
    log(`[${dialect}] esearch: bare route, tagged term, tagged term AND organism`);
    const bare = await cannon(bareUrl, () => '/studies/x', DURATION);
    const tagged = await cannon(base, TAGGED, DURATION);
    const combined = await cannon(base, COMBINED, DURATION);
    let raw;
    if (dialect === 'sqlite') {
      const d = new Database(join(dataDir, 'biomirror.sqlite'), { readonly: true });
      const count = d.prepare(`SELECT n FROM ${t('terms')} WHERE f = ? AND t = ?`);
      const page = d.prepare(`SELECT k.id FROM ${t('post')} p JOIN ${t('rank')} k ON k.r = p.r WHERE p.f = ? AND p.t = ? ORDER BY p.r LIMIT 20`);
      raw = await rawSearch(async (sym) => [count.get(GENE_FIELD, sym), page.all(GENE_FIELD, sym)]);
      d.close();
    } else {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      raw = await rawSearch((sym) =>
        Promise.all([
          pool.query({ name: 'c', text: `SELECT n FROM ${t('terms')} WHERE f = $1 AND t = $2`, values: [GENE_FIELD, sym] }),
          pool.query({ name: 'p', text: `SELECT k.id FROM ${t('post')} p JOIN ${t('rank')} k ON k.r = p.r WHERE p.f = $1 AND p.t = $2 ORDER BY p.r LIMIT 20`, values: [GENE_FIELD, sym] }),
        ]),
      );
      await pool.end();
    }
    return { ingest, esearch: { bareFastify: bare, taggedTerm: tagged, taggedTermAndOrganism: combined, rawDbLookup: raw, ratioToBare: round(tagged.requestsPerSecond / bare.requestsPerSecond) } };
  } finally {
    await stop(child);
  }
}

async function main() {
  const file = join(work, 'gene_info.gz');
  log(`generating ${N} genes`);
  await writeGeneInfo(file, N);
  // The bare route answers a body the size of an esearch answer.
  const body = join(work, 'esearch.xml');
  writeFileSync(
    body,
    `<?xml version="1.0" encoding="UTF-8" ?>\n<eSearchResult><Count>1</Count><RetMax>1</RetMax><RetStart>0</RetStart><IdList>\n<Id>900000123</Id>\n</IdList>${'x'.repeat(600)}</eSearchResult>\n`,
  );
  const { child: bareChild, match } = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'bare.js'), '0', body], process.env, /bare listening on (http:\/\/[\d.:]+)/);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    genes: N,
    durationSeconds: DURATION,
  };
  try {
    log('raw bulk insert baseline');
    results.rawInsertSqlite = await rawInsert(file, join(work, 'raw.sqlite'));
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, file, match[1] as string));
  } finally {
    await stop(bareChild);
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('ncbi', results);
}

runMain(main);
