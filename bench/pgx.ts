/**
 * The pharmacogenomics service benchmark. Each figure is measured in the same run as its baseline:
 * - ingest: `biomirror ingest pgx` of N generated genes (with three clinical annotations each, and
 *   a tenth as many drugs), wall time and peak memory;
 * - GET /v1/gene/{gene_symbol} at random symbols, 10 connections: requests/s and latency of
 *   biomirror beside a bare Fastify route (`bench/bare.ts`) answering one stored gene document
 *   from memory, and beside the raw database lookup of the documents run one at a time.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/pgx.js [--genes 25000] [--duration 15] [--postgres URL] [--keep]
 *
 * It drives the built CLI (`npx tsc -p tsconfig.build.json` first). 25,000 genes is about the
 * number of rows of PharmGKB's genes.tsv.
 */
import Database from './lib/sqlite.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { geneSymbol, writePgxDownloads } from '../synthetic/pgx-generate.js';
import { startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, activeGeneration, cannon, log, machine, round, writeResults, runMain, onEachDatabase } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    genes: { type: 'string' },
    duration: { type: 'string' },
    postgres: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.genes ?? 25_000);
const DURATION = Number(values.duration ?? 15);
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-pgx-'));
const randomSymbol = () => geneSymbol(Math.floor(Math.random() * N));

interface RawDb {
  /** The stored document of a gene (lower-cased symbol). */
  get(key: string): Promise<string | undefined>;
  close(): Promise<void>;
}

function rawSqlite(file: string, gen: number): RawDb {
  const db = new Database(file, { readonly: true });
  const stmt = db.prepare(`SELECT doc FROM "pgx_genes_g${gen}" WHERE key = ?`);
  return { get: async (k) => (stmt.get(k) as { doc: string } | undefined)?.doc, close: async () => void db.close() };
}

function rawPostgres(url: string, gen: number): RawDb {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return {
    get: async (k) => (await pool.query<{ doc: string }>({ name: 'gene', text: `SELECT doc FROM "pgx_genes_g${gen}" WHERE key = $1`, values: [k] })).rows[0]?.doc,
    close: () => pool.end(),
  };
}

/** Sequential raw lookups for three seconds. */
async function rawLookupRate(raw: RawDb): Promise<number> {
  const end = Date.now() + 3000;
  let n = 0;
  while (Date.now() < end) {
    await raw.get(randomSymbol().toLowerCase());
    n++;
  }
  return Math.round(n / 3);
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, input: string) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;

  log(`[${dialect}] ingest ${N} genes`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'pgx', input], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const gen = activeGeneration(env, 'pgx');
  const raw = dialect === 'sqlite' ? rawSqlite(join(dataDir, 'biomirror.sqlite'), gen) : rawPostgres(databaseUrl as string, gen);

  // The baseline answers every request with a gene exactly as biomirror stores it, from memory.
  const body = join(work, `gene-${dialect}.json`);
  writeFileSync(body, (await raw.get(geneSymbol(0).toLowerCase())) ?? '{}');
  log(`[${dialect}] GET /v1/gene/{gene_symbol}: bare route`);
  const bareProc = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'bare.js'), '0', body], process.env, /bare listening on (http:\/\/[\d.:]+)/);
  let bare;
  try {
    bare = await cannon(bareProc.match[1] as string, () => `/studies/${randomSymbol()}`, DURATION);
  } finally {
    await stop(bareProc.child);
  }

  log(`[${dialect}] serve, then GET /v1/gene/{gene_symbol} on biomirror`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  try {
    const get = await cannon(match[1] as string, () => `/pgx/v1/gene/${randomSymbol()}`, DURATION);
    const rawRate = await rawLookupRate(raw);
    return {
      ingest: { genes: N, seconds: round(ing.seconds), genesPerSecond: Math.round(N / ing.seconds), peakRssMb: ing.peakRssMb },
      gene: { biomirror: get, bareFastify: bare, rawDbLookupsPerSecond: rawRate, ratioToBare: round(get.requestsPerSecond / bare.requestsPerSecond) },
    };
  } finally {
    await stop(child);
    await raw.close();
  }
}

async function main() {
  log(`generating ${N} genes`);
  const input = writePgxDownloads(join(work, 'downloads'), N);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    genes: N,
    durationSeconds: DURATION,
  };
  try {
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, input));
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('pgx', results);
}

runMain(main);
