/**
 * The GWAS benchmark, in two parts, each figure beside its baseline in the same run.
 *
 * Summary statistics (`--part sumstats`): one generated GWAS-SSF study of N rows (10 million by
 * default):
 * - ingest: `biomirror ingest gwas <dir> --dataset sumstats`, rows/s and peak memory, beside a raw
 *   bulk insert of the same rows (split lines, no checks) into one plain SQLite table;
 * - a 1 Mb chromosome-range page (size 20) with 10 concurrent clients, on the window's first page
 *   and on its last page, beside the raw primary-key read of 20 rows and a bare Fastify route;
 * - a deep page of a p-value-bounded list (p_upper=0.5, half the study), the same way.
 *
 * Catalog (`--part catalog`): a generated release of `--studies` studies with `--per-study`
 * associations each, loaded with `biomirror ingest gwas <dir> --dataset catalog`; then each list,
 * filter and lookup of the REST API v2 beside its v1 equivalent on the same server (10 clients,
 * pages of 20): req/s and latency of both and the v2/v1 throughput ratio. The release carries a
 * generated efo.obo, so `show_child_trait` walks EFO groups three levels deep (v1 has no such
 * filter: its nearest request, the associations of one trait, is the baseline).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/gwas.js [--part all|sumstats|catalog]
 *     [--rows 10000000] [--studies 20000] [--per-study 10] [--duration 15] [--postgres URL] [--keep]
 * (build the CLI first: npx tsc -p tsconfig.build.json)
 */
import Database from './lib/sqlite.js';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { writeCatalogRelease, type GeneratedCatalog } from '../synthetic/gwas-catalog-generate.js';
import { ssfMeta, ssfPlace, writeSsf, type SsfOptions } from '../synthetic/gwas-generate.js';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, activeGeneration, cannon, log, machine, round, writeResults, runMain, onEachDatabase } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    part: { type: 'string' },
    rows: { type: 'string' },
    studies: { type: 'string' },
    'per-study': { type: 'string' },
    duration: { type: 'string' },
    postgres: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const PART = values.part ?? 'all';
if (!['all', 'sumstats', 'catalog'].includes(PART)) throw new Error(`--part ${PART}: expected all, sumstats or catalog`);
const N = Number(values.rows ?? 10_000_000);
const STUDIES = Number(values.studies ?? 20_000);
const PER_STUDY = Number(values['per-study'] ?? 10);
const DURATION = Number(values.duration ?? 15);
const work = mkdtempSync(join(tmpdir(), 'biomirror-gwas-bench-'));
const ACC = 'GCST99000001';
const SIZE = 20;
const WINDOW = 1_000_000;
// 22 autosomes, 100 bp apart: 10M rows give ~45 Mb per chromosome and 10,000 rows per 1 Mb window.
const OPTS: SsfOptions = { seed: 7, spacing: 100, perChromosome: Math.ceil(N / 22) };
const SS = '/gwas/summary-statistics/api';
const V1 = '/gwas/rest/api';
const V2 = '/gwas/rest/api/v2';

/** 1 Mb windows inside the generated data, with how many rows each holds. */
function windows(count: number): { chromosome: number; start: number; rows: number }[] {
  const per = OPTS.perChromosome as number;
  const spacing = OPTS.spacing as number;
  const chromosomes = Math.min(22, Math.ceil(N / per));
  const out = [];
  for (let i = 0; i < count; i++) {
    const chromosome = 1 + (i % chromosomes);
    const onChromosome = Math.min(per, N - (chromosome - 1) * per);
    const span = Math.max(1, onChromosome * spacing - WINDOW);
    const start = 1_000_000 + Math.floor((((i * 7919) % 1000) / 1000) * span);
    const first = Math.max(0, Math.ceil((start - 1_000_000) / spacing));
    const last = Math.min(onChromosome - 1, Math.floor((start + WINDOW - 1_000_000) / spacing));
    out.push({ chromosome, start, rows: Math.max(0, last - first + 1) });
  }
  return out;
}

/** The floor of write cost: the same rows as text columns into one plain table, 5,000 per transaction. */
async function rawInsert(file: string, dbFile: string) {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE raw (chromosome INTEGER, bp INTEGER, ea TEXT, oa TEXT, beta REAL, se REAL, eaf REAL, p TEXT, vid TEXT, rsid TEXT)');
  const ins = db.prepare('INSERT INTO raw VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const flush = db.transaction((rows: string[][]) => {
    for (const r of rows) ins.run(...r);
  });
  const t0 = process.hrtime.bigint();
  let batch: string[][] = [];
  let header = true;
  for await (const line of createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })) {
    if (header) {
      header = false;
      continue;
    }
    batch.push(line.split('\t'));
    if (batch.length >= 5000) {
      flush(batch);
      batch = [];
    }
  }
  flush(batch);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  db.close();
  return { seconds: round(seconds), rowsPerSecond: Math.round(N / seconds) };
}

interface RawRead {
  page(from: number, to: number): Promise<unknown>;
  close(): Promise<void>;
}

function rawSqlite(file: string, gen: number): RawRead {
  const db = new Database(file, { readonly: true });
  const q = db.prepare(`SELECT * FROM "gss_assoc_g${gen}" WHERE pos >= ? AND pos < ? ORDER BY pos`);
  return { page: async (a, b) => q.all(a, b), close: async () => void db.close() };
}

function rawPostgres(url: string, gen: number): RawRead {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    page: (a, b) => pool.query({ name: 'page', text: `SELECT * FROM "gss_assoc_g${gen}" WHERE pos >= $1 AND pos < $2 ORDER BY pos`, values: [a, b] }),
    close: () => pool.end(),
  };
}

/** Sequential timings of the raw primary-key read of one page, at random depths. */
async function rawPageLatency(raw: RawRead) {
  const times: number[] = [];
  const end = Date.now() + Math.min(DURATION, 10) * 1000;
  while (Date.now() < end) {
    const from = 1 + Math.floor(Math.random() * (N - SIZE));
    const t0 = process.hrtime.bigint();
    await raw.page(from, from + SIZE);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { queries: times.length, latencyMs: { p50: round(percentile(times, 50)), p90: round(percentile(times, 90)), p99: round(percentile(times, 99)) } };
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, input: string, bareUrl: string) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;

  log(`[${dialect}] ingest ${N.toLocaleString('en-US')} rows`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'gwas', input, '--dataset', 'sumstats'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const ingest = { rows: N, seconds: round(ing.seconds), rowsPerSecond: Math.round(N / ing.seconds), peakRssMb: ing.peakRssMb };
  const gen = activeGeneration(env, 'gwas', 'sumstats');

  log(`[${dialect}] serve`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = match[1] as string;
  try {
    const ws = windows(200);
    let i = 0;
    const range = (last: boolean) => () => {
      const w = ws[i++ % ws.length] as { chromosome: number; start: number; rows: number };
      const page = last ? Math.max(0, Math.ceil(w.rows / SIZE) - 1) : 0;
      return `${SS}/chromosomes/${w.chromosome}/associations?start=${w.start}&end=${w.start + WINDOW}&size=${SIZE}&page=${page}`;
    };
    log(`[${dialect}] 1 Mb range, first pages, 10 clients`);
    const firstPages = await cannon(base, range(false), DURATION, 10);
    log(`[${dialect}] 1 Mb range, last pages, 10 clients`);
    const lastPages = await cannon(base, range(true), DURATION, 10);
    // p_upper=0.5 keeps about half the rows; pages anywhere in them.
    const half = Math.floor(N / 2 / SIZE);
    log(`[${dialect}] p-value bounded pages at random depths, 10 clients`);
    const pPages = await cannon(base, () => `${SS}/studies/${ACC}/associations?p_upper=0.5&size=${SIZE}&page=${Math.floor(Math.random() * half)}`, DURATION, 10);
    log(`[${dialect}] bare route`);
    const bare = await cannon(bareUrl, () => `/studies/x`, DURATION, 10);
    const raw = dialect === 'sqlite' ? rawSqlite(join(dataDir, 'biomirror.sqlite'), gen) : rawPostgres(databaseUrl as string, gen);
    const rawPage = await rawPageLatency(raw);
    await raw.close();
    const goal = (r: { latencyMs: { p99: number } }) => r.latencyMs.p99 < 20;
    return {
      ingest,
      rangeFirstPage: { ...firstPages, p99Under20ms: goal(firstPages) },
      rangeLastPage: { ...lastPages, p99Under20ms: goal(lastPages) },
      pValueDeepPage: pPages,
      bareFastify: bare,
      rawPrimaryKeyPage: rawPage,
    };
  } finally {
    await stop(child);
  }
}

const pick = (n: number) => Math.floor(Math.random() * n);

/** Each v2 request beside its v1 equivalent: [what, v1 path, v2 path]. */
function catalogPairs(g: GeneratedCatalog, traits: number, genes: number): [string, () => string, () => string][] {
  const deep = Math.floor((STUDIES * PER_STUDY) / SIZE);
  const trait = () => encodeURIComponent(g.trait(pick(traits)).label);
  const rs = () => g.rsid(pick(g.snps));
  const gene = () => g.gene(pick(genes));
  const acc = () => g.accessions(pick(STUDIES));
  const group = () => encodeURIComponent((g.groups[pick(g.groups.length)] as { label: string }).label);
  const pairs: [string, () => string, () => string][] = [
    [
      'associations of a trait and its EFO descendants (efo_trait of a group of 64 traits, show_child_trait)',
      () => `${V1}/efoTraits/${g.trait(pick(traits)).shortForm}/associations?size=${SIZE}`,
      () => `${V2}/associations?efo_trait=${group()}&show_child_trait=true&size=${SIZE}`,
    ],
  ];
  return [
    ...(g.groups.length ? pairs : []),
    ['studies, first page', () => `${V1}/studies?page=0&size=${SIZE}`, () => `${V2}/studies?page=0&size=${SIZE}`],
    ['associations, random page (default order)', () => `${V1}/associations?page=${pick(deep)}&size=${SIZE}`, () => `${V2}/associations?page=${pick(deep)}&size=${SIZE}`],
    [
      'associations by p-value, one of the first 50 pages',
      () => `${V1}/associations?sort=pvalue,asc&page=${pick(50)}&size=${SIZE}`,
      () => `${V2}/associations?sort=p_value&direction=asc&page=${pick(50)}&size=${SIZE}`,
    ],
    ['studies of a trait (label)', () => `${V1}/studies/search/findByEfoTrait?efoTrait=${trait()}&size=${SIZE}`, () => `${V2}/studies?efo_trait=${trait()}&size=${SIZE}`],
    ['associations of a SNP', () => `${V1}/singleNucleotidePolymorphisms/${rs()}/associations?size=${SIZE}`, () => `${V2}/associations?rs_id=${rs()}&size=${SIZE}`],
    ['SNPs of a gene', () => `${V1}/singleNucleotidePolymorphisms/search/findByGene?geneName=${gene()}&size=${SIZE}`, () => `${V2}/single-nucleotide-polymorphisms?mapped_gene=${gene()}&size=${SIZE}`],
    ['one study', () => `${V1}/studies/${acc()}`, () => `${V2}/studies/${acc()}`],
  ];
}

async function catalogOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, input: string, g: GeneratedCatalog, traits: number, genes: number, bareUrl: string) {
  const dataDir = join(work, `catalog-${dialect}`);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  log(`[${dialect}] ingest catalog: ${STUDIES.toLocaleString('en-US')} studies, ${(STUDIES * PER_STUDY).toLocaleString('en-US')} associations`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'gwas', input, '--dataset', 'catalog'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = match[1] as string;
  try {
    const out: Record<string, unknown> = { ingest: { seconds: round(ing.seconds), peakRssMb: ing.peakRssMb } };
    for (const [what, v1, v2] of catalogPairs(g, traits, genes)) {
      log(`[${dialect}] ${what}: v1, then v2`);
      const a = await cannon(base, v1, DURATION, 10);
      const b = await cannon(base, v2, DURATION, 10);
      out[what] = { v1: a, v2: b, v2OverV1: round(b.requestsPerSecond / Math.max(1, a.requestsPerSecond)) };
    }
    // No v1 equivalent: a parent category widened to every trait under it.
    log(`[${dialect}] v2 only: studies under a parent category (show_child_trait)`);
    out['studies under a parent category (v2 only)'] = await cannon(base, () => `${V2}/studies?efo_id=${g.parents[pick(g.parents.length)]}&show_child_trait=true&size=${SIZE}`, DURATION, 10);
    out.bareFastify = await cannon(bareUrl, () => `/studies/x`, DURATION, 10);
    return out;
  } finally {
    await stop(child);
  }
}

async function sumstatsPart(results: Record<string, unknown>, bareUrl: string) {
  const input = join(work, 'sumstats');
  mkdirSync(input);
  const file = join(input, `${ACC}.tsv.gz`);
  log(`generating ${N.toLocaleString('en-US')} rows`);
  await writeSsf(file, N, OPTS);
  writeFileSync(`${file}-meta.yaml`, ssfMeta(ACC, ['EFO_0000001'], `${ACC}.tsv.gz`));
  log('raw bulk insert baseline');
  results.rawInsertSqlite = await rawInsert(file, join(work, 'raw.sqlite'));
  await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, input, bareUrl));
}

async function catalogPart(results: Record<string, unknown>, bareUrl: string) {
  const input = join(work, 'catalog');
  mkdirSync(input);
  const traits = Math.max(1, Math.floor(STUDIES / 10));
  const genes = Math.max(1, Math.floor(STUDIES / 2));
  log(`generating a catalog of ${STUDIES.toLocaleString('en-US')} studies`);
  const g = await writeCatalogRelease(input, { studies: STUDIES, perStudy: PER_STUDY, traits, genes });
  const catalog: Record<string, unknown> = { studies: STUDIES, associations: STUDIES * PER_STUDY, traits, genes, snps: g.snps };
  results.catalog = catalog;
  await onEachDatabase(catalog, values.postgres, (dialect, url) => catalogOn(dialect, url, input, g, traits, genes, bareUrl));
}

async function main() {
  // The bare route answers a page-sized body from memory.
  const body = join(work, 'page.json');
  writeFileSync(
    body,
    JSON.stringify({ _embedded: { associations: Object.fromEntries(Array.from({ length: SIZE }, (_, i) => [String(i), { p_value: '1e-3', variant_id: `rs${i}`, ...ssfPlace(i, OPTS) }])) } }),
  );
  const { child: bareChild, match } = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'bare.js'), '0', body], process.env, /bare listening on (http:\/\/[\d.:]+)/);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    part: PART,
    rows: N,
    durationSeconds: DURATION,
    pageSize: SIZE,
  };
  try {
    if (PART !== 'catalog') await sumstatsPart(results, match[1] as string);
    if (PART !== 'sumstats') await catalogPart(results, match[1] as string);
  } finally {
    await stop(bareChild);
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('gwas', results);
}

runMain(main);
