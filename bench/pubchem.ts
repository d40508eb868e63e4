/**
 * The PubChem benchmark, over N generated drug-like molecules (synthetic/pubchem-generate.ts).
 * Each figure is measured in the same run as its baseline:
 * - ingest: `biomirror ingest pubchem --dataset compounds` of Compound SD files (with PUBCHEM_* tags,
 *   written by `biomirror pubchem sdf`), beside a raw bulk insert of the same records into one plain
 *   SQLite table;
 * - similarity (`fastsimilarity_2d`, Threshold 90 and 70): latency per query through HTTP, beside a
 *   plain scan of the same substructure keys (Tanimoto against every molecule, no count bounds);
 *   the generated SD files carry no keys, so this part needs a build that computes them at load
 *   (and for the queries), and is left out otherwise;
 * - a selective substructure search (a ring system in about 0.1% of the molecules): latency through
 *   HTTP, beside a plain scan matching every molecule with RDKit (no fingerprint screen);
 * - lookups by SMILES (`compound/smiles/{smiles}/cids`, the structure read by RDKit), beside lookups
 *   of the same compounds by CID (no chemistry).
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/pubchem.js [--compounds 1000000] [--queries 20]
 *     [--postgres URL] [--sdf DIR (reuse SD files written by an earlier run with --keep)] [--keep]
 *
 * Writing the SD files computes every tag with RDKit (about 3 ms a molecule on one core); they are
 * written by one process per core and can be kept for later runs.
 */
import Database from './lib/sqlite.js';
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { RARE_QUERY, cidSmilesLines, moleculeFor } from '../synthetic/pubchem-generate.js';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, activeGeneration, log, machine, round, writeResults, runMain, onEachDatabase } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    compounds: { type: 'string' },
    queries: { type: 'string' },
    postgres: { type: 'string' },
    sdf: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.compounds ?? 1_000_000);
const QUERIES = Number(values.queries ?? 20);
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-pubchem-'));
const KEY_BYTES = 111;

interface RDKitMol {
  get_substruct_match(q: RDKitMol): string;
  delete(): void;
}
interface RDKitModule {
  get_mol(s: string): RDKitMol | null;
  get_mol_from_uint8array(b: Uint8Array): RDKitMol | null;
}

async function loadRdkit(): Promise<RDKitModule> {
  const mod = (await import('@rdkit/rdkit')) as unknown as { default: () => Promise<RDKitModule> };
  return mod.default();
}

/** The SD files: CID-SMILES parts, one `biomirror pubchem sdf` per core. */
async function writeSdf(dir: string): Promise<{ seconds: number; processes: number }> {
  mkdirSync(dir, { recursive: true });
  const parts = Math.max(1, Math.min(availableParallelism(), Math.ceil(N / 1000)));
  const per = Math.ceil(N / parts);
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: parts }, (_, p) => {
      const from = 1 + p * per;
      const to = Math.min(N + 1, from + per);
      const input = join(work, `CID-SMILES.${p}`);
      writeFileSync(input, cidSmilesLines(from, to));
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(work, `sdf-store-${p}`) };
      delete env.DATABASE_URL;
      return new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'pubchem', 'sdf', input, join(dir, `Compound_${String(p).padStart(3, '0')}.sdf.gz`), 'heavy'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pubchem sdf part ${p} exited with ${code}`))));
      });
    }),
  );
  return { seconds: round((Date.now() - t0) / 1000), processes: parts };
}

async function* sdfRecords(dir: string): AsyncGenerator<[number, string]> {
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.sdf.gz'))
    .sort()) {
    let lines: string[] = [];
    for await (const line of createInterface({ input: createReadStream(join(dir, f)).pipe(createGunzip()), crlfDelay: Infinity })) {
      if (line.startsWith('$$$$')) {
        yield [Number(lines[0]), lines.join('\n')];
        lines = [];
      } else lines.push(line);
    }
  }
}

/** The floor of write cost: each SD record as text into one table keyed by CID, 5,000 rows a transaction. */
async function rawInsert(dir: string, file: string): Promise<{ seconds: number; recordsPerSecond: number }> {
  const d = new Database(file);
  d.pragma('journal_mode = WAL');
  d.pragma('synchronous = NORMAL');
  d.exec('CREATE TABLE raw (cid INTEGER PRIMARY KEY, sdf TEXT NOT NULL)');
  const ins = d.prepare('INSERT INTO raw (cid, sdf) VALUES (?, ?)');
  const flush = d.transaction((rows: [number, string][]) => {
    for (const r of rows) ins.run(...r);
  });
  const t0 = process.hrtime.bigint();
  let rows: [number, string][] = [];
  let n = 0;
  for await (const rec of sdfRecords(dir)) {
    rows.push(rec);
    n++;
    if (rows.length >= 5000) {
      flush(rows);
      rows = [];
    }
  }
  flush(rows);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  d.close();
  return { seconds: round(seconds), recordsPerSecond: Math.round(n / seconds) };
}

interface Structures {
  cids: Uint32Array;
  /** PubChem's substructure keys of each molecule (111 bytes each; zero for one without keys). */
  keys: Uint8Array;
  /** Position of each CID. */
  at: Map<number, number>;
  keyed: number;
  /** Each molecule's SMILES, as the service's matching threads read them. */
  smiles: string[];
}

/** Every structure of a generation, read straight from the SQLite file, for the plain scans. */
function readStructures(file: string, gen: number): Structures {
  const d = new Database(file, { readonly: true });
  const rows = d.prepare(`SELECT s.cid AS cid, s.subskeys AS subskeys, c.props AS props FROM "pcc_structures_g${gen}" s JOIN "pcc_compounds_g${gen}" c ON c.cid = s.cid ORDER BY s.cid`).all() as {
    cid: number;
    subskeys: Buffer | null;
    props: string;
  }[];
  d.close();
  const cids = new Uint32Array(rows.length);
  const keys = new Uint8Array(rows.length * KEY_BYTES);
  const at = new Map<number, number>();
  const smiles: string[] = [];
  let keyed = 0;
  rows.forEach((r, i) => {
    cids[i] = r.cid;
    at.set(r.cid, i);
    if (r.subskeys) {
      keys.set(r.subskeys, i * KEY_BYTES);
      keyed++;
    }
    smiles.push(String((JSON.parse(r.props) as { SMILES?: string }).SMILES ?? ''));
  });
  return { cids, keys, at, keyed, smiles };
}

const POP = new Uint8Array(256).map((_, i) => {
  let c = 0;
  for (let x = i; x; x >>= 1) c += x & 1;
  return c;
});

/** Tanimoto against every molecule, no bounds: the plain scan beside the indexed search. */
function plainSimilarity(s: Structures, q: Uint8Array, threshold: number): number {
  let hits = 0;
  for (let i = 0; i < s.cids.length; i++) {
    let both = 0;
    let either = 0;
    const base = i * KEY_BYTES;
    for (let k = 0; k < KEY_BYTES; k++) {
      const a = s.keys[base + k] as number;
      const b = q[k] as number;
      both += POP[a & b] as number;
      either += POP[a | b] as number;
    }
    // The service compares with the same slack for the rounding of threshold / 100.
    if (either && both / either + 1e-9 >= threshold) hits++;
  }
  return hits;
}

/** RDKit matching of every molecule, no screen: the plain scan beside the indexed substructure search. */
function plainSubstructure(r: RDKitModule, s: Structures, smiles: string): number {
  const q = r.get_mol(smiles);
  if (!q) throw new Error(smiles);
  let hits = 0;
  for (const p of s.smiles) {
    const m = r.get_mol(p);
    if (!m) continue;
    if (m.get_substruct_match(q) !== '{}') hits++;
    m.delete();
  }
  q.delete();
  return hits;
}

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p90: round(percentile(sorted, 90)), max: round(sorted[sorted.length - 1] ?? NaN), queries: times.length };
}

async function timedGet(url: string): Promise<{ ms: number; status: number; hits: number }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as { IdentifierList?: { CID: number[] } };
  return { ms: performance.now() - t0, status: res.status, hits: body.IdentifierList?.CID.length ?? 0 };
}

// Query molecules: loaded ones spread over the CIDs (each finds itself and its near neighbours).
const QUERY_SMILES = Array.from({ length: QUERIES }, (_, i) => moleculeFor(1 + ((i * 7919) % N)));

/** The query molecules looked up by SMILES, five rounds, beside the same compounds by CID. */
async function lookupsBySmiles(base: string): Promise<Record<string, unknown>> {
  const bySmiles: number[] = [];
  const byCid: number[] = [];
  let misses = 0;
  for (let pass = 0; pass < 5; pass++) {
    for (let i = 0; i < QUERIES; i++) {
      const cid = 1 + ((i * 7919) % N);
      const s = await timedGet(`${base}/smiles/${encodeURIComponent(QUERY_SMILES[i] as string)}/cids/JSON`);
      const c = await timedGet(`${base}/cid/${cid}/cids/JSON`);
      if (s.status !== 200 || c.status !== 200) misses++;
      bySmiles.push(s.ms);
      byCid.push(c.ms);
    }
  }
  return { bySmilesMs: stats(bySmiles), byCidMs: stats(byCid), notFound: misses };
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, sdfDir: string, r: RDKitModule, baseline: { structures?: Structures }) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0', BIOMIRROR_PUBCHEM_SYNC_MS: '600000' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;

  log(`[${dialect}] ingest ${N} compounds`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'pubchem', sdfDir, '--dataset', 'compounds'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const ingest = { compounds: N, seconds: round(ing.seconds), compoundsPerSecond: Math.round(N / ing.seconds), peakRssMb: ing.peakRssMb };
  if (dialect === 'sqlite') baseline.structures = readStructures(join(dataDir, 'biomirror.sqlite'), activeGeneration(env, 'pubchem', 'compounds'));

  log(`[${dialect}] serve`);
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  const base = `${match[1] as string}/pubchem/rest/pug/compound`;
  try {
    // The first search reads every key set into memory.
    const s = baseline.structures as Structures;
    let similarity: Record<string, unknown>;
    if (s.keyed === 0) similarity = { skipped: 'the loaded compounds have no substructure keys (this build cannot compute them)' };
    else {
      const first = await timedGet(`${base}/fastsimilarity_2d/smiles/${encodeURIComponent(QUERY_SMILES[0] as string)}/cids/JSON`);
      similarity = { indexBuildAndFirstQueryMs: round(first.ms) };
      for (const threshold of [90, 70]) {
        const times: number[] = [];
        const plain: number[] = [];
        let hits = 0;
        let mismatches = 0;
        for (let i = 0; i < QUERIES; i++) {
          const smi = QUERY_SMILES[i] as string;
          const got = await timedGet(`${base}/fastsimilarity_2d/smiles/${encodeURIComponent(smi)}/cids/JSON?Threshold=${threshold}&MaxRecords=2000000`);
          times.push(got.ms);
          hits += got.hits;
          // The query is a loaded molecule: its keys are the stored ones.
          const at = s.at.get(1 + ((i * 7919) % N)) as number;
          const q = s.keys.subarray(at * KEY_BYTES, (at + 1) * KEY_BYTES);
          const t0 = performance.now();
          const expected = plainSimilarity(s, q, threshold / 100);
          plain.push(performance.now() - t0);
          if (expected !== got.hits) mismatches++;
        }
        similarity[`threshold${threshold}`] = { biomirrorMs: stats(times), plainScanMs: stats(plain), meanHits: round(hits / QUERIES), hitCountMismatches: mismatches };
      }
    }
    log(`[${dialect}] selective substructure`);
    const subTimes: number[] = [];
    let subHits = 0;
    for (let i = 0; i < 3; i++) {
      const got = await timedGet(`${base}/fastsubstructure/smiles/${encodeURIComponent(RARE_QUERY)}/cids/JSON?MaxRecords=2000000`);
      subTimes.push(got.ms);
      subHits = got.hits;
    }
    log(`[${dialect}] lookups by SMILES`);
    const lookups = await lookupsBySmiles(base);
    const t0 = performance.now();
    const plainHits = plainSubstructure(r, baseline.structures as Structures, RARE_QUERY);
    const plainMs = performance.now() - t0;
    return {
      ingest,
      similarity,
      substructure: { query: RARE_QUERY, hits: subHits, biomirrorMs: stats(subTimes), plainScanMs: round(plainMs), plainScanHits: plainHits },
      lookups,
    };
  } finally {
    await stop(child);
  }
}

async function main() {
  const sdfDir = values.sdf ?? join(work, 'sdf');
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    compounds: N,
    queries: QUERIES,
  };
  try {
    if (!values.sdf) {
      log(`writing ${N} compounds as SD files`);
      results.sdfGeneration = await writeSdf(sdfDir);
    } else if (!existsSync(sdfDir)) throw new Error(`${sdfDir} does not exist`);
    results.sdfMegabytes = round(readdirSync(sdfDir).reduce((a, f) => a + statSync(join(sdfDir, f)).size, 0) / 2 ** 20);
    log('raw bulk insert baseline');
    results.rawInsertSqlite = await rawInsert(sdfDir, join(work, 'raw.sqlite'));
    const r = await loadRdkit();
    const baseline: { structures?: Structures } = {};
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, sdfDir, r, baseline));
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work} (SD files in ${sdfDir})`);
  }
  writeResults('pubchem', results);
}

runMain(main);
