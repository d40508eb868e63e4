/**
 * PubChem's Compound SD files loaded at size, then searched through HTTP. The files are real
 * PubChem records (test/fixtures/pubchem/real-subskeys.sdf.gz) repeated under GENERATED CIDs
 * (synthetic/pubchem-sdf-replicate.ts), 500,000 a file as PubChem splits them, gzipped. Each figure
 * beside its baseline in the same run:
 * - load (`biomirror ingest pubchem --dataset compounds`): records/s and peak resident memory,
 *   beside reading the same files alone (gunzip and cutting records: what any load must do) and
 *   beside the same load with the files read in the loader's own thread (BIOMIRROR_INGEST_WORKERS=0);
 * - similarity (`fastsimilarity_2d/cid`, Threshold 90) latency, beside the same queries' keys as
 *   a plain scan of every record of the same key file (no bounds), in the benchmark's process;
 * - substructure (`fastsubstructure`, benzoic acid, MaxRecords 2000) latency.
 * Repeated structures make many identical key sets: similarity answers hold at least N / 1,328
 * compounds (all of a template's copies), cut by MaxRecords.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json
 *   node dist-bench/bench/pubchem-load.js [--compounds 1000000] [--queries 20] [--postgres URL] [--dir scratch] [--no-in-place-baseline]
 */
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { templates, writeReplicatedSdf } from '../synthetic/pubchem-sdf-replicate.js';
import { GENERATED_CID_BASE } from '../synthetic/pubchem-keys-generate.js';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, log, machine, onEachDatabase, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    compounds: { type: 'string' },
    queries: { type: 'string' },
    postgres: { type: 'string' },
    dir: { type: 'string' },
    'in-place-baseline': { type: 'boolean', default: true },
    'no-in-place-baseline': { type: 'boolean' },
  },
});
const N = Number(values.compounds ?? 1_000_000);
const QUERIES = Number(values.queries ?? 20);
const PER_FILE = 500_000;
const work = mkdtempSync(join(values.dir ?? tmpdir(), 'biomirror-bench-pubchem-load-'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p90: round(percentile(s, 90)), p99: round(percentile(s, 99)), max: round(s[s.length - 1] ?? NaN), queries: s.length };
}

async function readOnly(dir: string, files: string[]): Promise<number> {
  const { sdfRecords } = await dist('services/pubchem/ingest/sdf-stream.js');
  const t0 = performance.now();
  let n = 0;
  for (const f of files) for await (const _ of sdfRecords(createReadStream(join(dir, f)).pipe(createGunzip()))) n++;
  if (n !== N) throw new Error(`read ${n} records, expected ${N}`);
  return (performance.now() - t0) / 1000;
}

async function get(url: string): Promise<{ ms: number; cids: number[]; status: number }> {
  const t0 = performance.now();
  const r = await fetch(url);
  const body = (await r.json()) as { IdentifierList?: { CID: number[] } };
  return { ms: performance.now() - t0, cids: body.IdentifierList?.CID ?? [], status: r.status };
}

async function runOn(dialect: 'sqlite' | 'postgres', url: string | undefined, sdfDir: string, files: string[], readSeconds: number): Promise<unknown> {
  const dataDir = join(work, `data-${dialect}`);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.BIOMIRROR_INDEX_DIR;
  if (url) env.DATABASE_URL = url;
  else delete env.DATABASE_URL;
  // Baseline in the same run: the same load read in the loader's own thread (as before reading
  // threads), into a database of its own, dropped before the measured load.
  let inPlace: { seconds: number; peakRssMb: number } | undefined;
  if (!values['no-in-place-baseline']) {
    log(`[${dialect}] ingest ${N} compounds read in the loader's thread (load average ${loadavg()[0]?.toFixed(1)})`);
    const baseDir = join(work, `data-${dialect}-in-place`);
    const baseEnv: NodeJS.ProcessEnv = { ...env, DATA_DIR: baseDir, BIOMIRROR_INGEST_WORKERS: '0' };
    const b = await timed(process.execPath, [CLI, 'ingest', 'pubchem', sdfDir, '--dataset', 'compounds'], baseEnv);
    if (b.code !== 0) throw new Error(`ingest failed: ${b.stderr}`);
    inPlace = { seconds: b.seconds, peakRssMb: b.peakRssMb };
    if (url) {
      const run = await timed(process.execPath, [CLI, 'ingest', 'pubchem', sdfDir, '--dataset', 'compounds'], env);
      if (run.code !== 0) throw new Error(`ingest failed: ${run.stderr}`);
    }
    rmSync(baseDir, { recursive: true, force: true });
  }
  log(`[${dialect}] ingest ${N} compounds (load average ${loadavg()[0]?.toFixed(1)})`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'pubchem', sdfDir, '--dataset', 'compounds'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const load = {
    compounds: N,
    seconds: round(ing.seconds),
    compoundsPerSecond: Math.round(N / ing.seconds),
    peakRssMb: ing.peakRssMb,
    baselineReadOnlyPerSecond: Math.round(N / readSeconds),
    baselineInPlacePerSecond: inPlace ? Math.round(N / inPlace.seconds) : undefined,
    baselineInPlacePeakRssMb: inPlace?.peakRssMb,
    loadAverageAfter: round(loadavg()[0] ?? NaN),
  };
  log(`[${dialect}] ${JSON.stringify(load)}`);

  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo', '--port', '0'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = `${match[1] as string}/pubchem/rest/pug/compound`;
  try {
    // The first search opens the key file.
    await get(`${base}/fastsimilarity_2d/cid/${GENERATED_CID_BASE + 1}/cids/JSON?Threshold=90&MaxRecords=10`);
    const queryCids = Array.from({ length: QUERIES }, (_, i) => GENERATED_CID_BASE + 1 + Math.floor(((i + 0.5) / QUERIES) * (N - 1)));
    const sim: number[] = [];
    const hits: number[] = [];
    for (const cid of queryCids) {
      const r = await get(`${base}/fastsimilarity_2d/cid/${cid}/cids/JSON?Threshold=90&MaxRecords=2000`);
      if (r.status !== 200) throw new Error(`similarity ${cid}: ${r.status}`);
      sim.push(r.ms);
      hits.push(r.cids.length);
    }
    // The plain scan: the same queries' keys over every record of the same key file, same kernel.
    const keyfile = await dist('services/pubchem/search/keyfile/index.js');
    const folder = join(dataDir, 'index', 'pubchem-keys');
    const file = readdirSync(folder).find((f) => f.endsWith('.keys')) as string;
    const plain: number[] = [];
    const s = keyfile.KeyFileSearcher.open(join(folder, file));
    try {
      for (const cid of queryCids.slice(0, 10)) {
        const r = await fetch(`${base}/cid/${cid}/property/Fingerprint2D/JSON`);
        const b64 = ((await r.json()) as { PropertyTable: { Properties: { Fingerprint2D: string }[] } }).PropertyTable.Properties[0]?.Fingerprint2D as string;
        const keys = new Uint8Array(Buffer.from(b64, 'base64').subarray(4, 115));
        const t0 = performance.now();
        await s.similar(keys, 0.9, 2000, { bound: 'none' });
        plain.push(performance.now() - t0);
      }
    } finally {
      await s.close();
    }
    const sub: number[] = [];
    let subHits = 0;
    for (let i = 0; i < Math.min(QUERIES, 10); i++) {
      const r = await get(`${base}/fastsubstructure/smiles/${encodeURIComponent('OC(=O)c1ccccc1')}/cids/JSON?MaxRecords=2000`);
      if (r.status !== 200) throw new Error(`substructure: ${r.status}`);
      sub.push(r.ms);
      subHits = r.cids.length;
    }
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    return {
      load,
      similarity90: { ...stats(sim), meanHits: round(hits.reduce((a, b) => a + b, 0) / hits.length) },
      plainScan90: stats(plain),
      substructureBenzoicAcidFirst2000: { ...stats(sub), hits: subHits },
      serverRssMb: Math.round(rss),
    };
  } finally {
    await stop(child);
  }
}

async function main(): Promise<void> {
  const sdfDir = join(work, 'sdf');
  mkdirSync(sdfDir, { recursive: true });
  log(`writing ${N} records`);
  const tpl = await templates();
  const files: string[] = [];
  for (let first = 1; first <= N; first += PER_FILE) {
    const count = Math.min(PER_FILE, N - first + 1);
    const name = `Compound_${String(GENERATED_CID_BASE + first).padStart(9, '0')}_${String(GENERATED_CID_BASE + first + count - 1).padStart(9, '0')}.sdf.gz`;
    await writeReplicatedSdf(join(sdfDir, name), first, count, tpl);
    files.push(name);
  }
  log('reading the files alone (baseline)');
  const readSeconds = await readOnly(sdfDir, files);
  const results: Record<string, unknown> = { machine: machine(), compounds: N, templates: tpl.length };
  try {
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, sdfDir, files, readSeconds));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  writeResults('pubchem-load', results);
}

runMain(main);
