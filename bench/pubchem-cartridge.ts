/**
 * PubChem similarity on PostgreSQL's RDKit cartridge beside the key file, on the same keys. The
 * cartridge's `bfp` type holds any bit string and has a GiST index for Tanimoto (`fp % query` with
 * `rdkit.tanimoto_threshold`); the key file is what biomirror scans (keyfile/). Keys are the
 * GENERATED ones of synthetic/pubchem-keys-generate.ts; queries are compounds of the set.
 *
 * Needs the cartridge installed in the database named by --postgres (`CREATE EXTENSION rdkit`
 * done by a superuser); the table goes into a schema of its own, dropped afterwards.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json
 *   node dist-bench/bench/pubchem-cartridge.js --postgres postgres://postgres@127.0.0.1:5432/rdkitbench [--compounds 1000000] [--queries 50]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generateKeys } from '../synthetic/pubchem-keys-generate.js';
import { percentile } from './lib/proc.js';
import { ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({ options: { compounds: { type: 'string' }, queries: { type: 'string' }, postgres: { type: 'string' } } });
const N = Number(values.compounds ?? 1_000_000);
const Q = Number(values.queries ?? 50);
const URL_ = values.postgres;
const RAW = 111;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p90: round(percentile(s, 90)), p99: round(percentile(s, 99)), max: round(s[s.length - 1] ?? NaN) };
}

async function main(): Promise<void> {
  if (!URL_) throw new Error('--postgres URL of a database with the rdkit extension is required');
  const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-cartridge-'));
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  const schema = `bench_cartridge_${process.pid}`;
  const results: Record<string, unknown> = { machine: machine(), compounds: N, loadAverageStart: round(loadavg()[0] ?? NaN) };
  const queryKeys: Uint8Array[] = [];
  const pick = new Set(Array.from({ length: Q }, (_, i) => Math.floor(((i + 0.37) / Q) * N)));
  try {
    const version = (await client.query('SELECT rdkit_version() AS v')).rows[0]?.v as string;
    results.cartridge = version;
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`CREATE TABLE ${schema}.keys (cid integer PRIMARY KEY, fp bfp NOT NULL)`);
    log(`inserting ${N} key sets`);
    let t0 = performance.now();
    const keyfile = await dist('services/pubchem/search/keyfile/index.js');
    const writer = new keyfile.KeyFileWriter(join(work, 'keys.bin'));
    let batch: string[] = [];
    let params: unknown[] = [];
    let i = 0;
    const flush = async () => {
      if (!batch.length) return;
      await client.query(`INSERT INTO ${schema}.keys (cid, fp) VALUES ${batch.join(',')}`, params);
      batch = [];
      params = [];
    };
    for (const g of generateKeys(N)) {
      const raw = g.keys.subarray(0, RAW);
      writer.add(g.cid, raw);
      if (pick.has(i)) queryKeys.push(new Uint8Array(raw));
      params.push(g.cid, Buffer.from(raw));
      batch.push(`($${params.length - 1}, bfp_from_binary_text($${params.length}::bytea))`);
      if (batch.length === 1000) await flush();
      i++;
    }
    await flush();
    const insertS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    await client.query(`CREATE INDEX ON ${schema}.keys USING gist (fp)`);
    await client.query(`ANALYZE ${schema}.keys`);
    const indexS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    await writer.finish();
    const fileS = (performance.now() - t0) / 1000;
    const size = (await client.query(`SELECT pg_total_relation_size('${schema}.keys') AS b`)).rows[0]?.b as string;
    results.build = { insertSeconds: round(insertS), gistSeconds: round(indexS), keyFileAssembleSeconds: round(fileS), tableAndIndexMb: Math.round(Number(size) / 2 ** 20) };
    log(JSON.stringify(results.build));

    const searcher = keyfile.KeyFileSearcher.open(join(work, 'keys.bin'));
    try {
      for (const t of [0.9, 0.8]) {
        await client.query(`SET rdkit.tanimoto_threshold = ${t}`);
        const gist: number[] = [];
        const seq: number[] = [];
        const file: number[] = [];
        let hits = 0;
        for (const q of queryKeys) {
          const bq = Buffer.from(q);
          let s = performance.now();
          const a = await client.query(`SELECT cid FROM ${schema}.keys WHERE fp % bfp_from_binary_text($1::bytea)`, [bq]);
          gist.push(performance.now() - s);
          s = performance.now();
          const b = await searcher.similar(q, t);
          file.push(performance.now() - s);
          if (a.rowCount !== b.length) throw new Error(`cartridge found ${a.rowCount}, the key file ${b.length}`);
          hits += b.length;
        }
        // The cartridge without its index, for a few queries: a plain scan in the database.
        await client.query('SET enable_indexscan = off; SET enable_bitmapscan = off');
        for (const q of queryKeys.slice(0, 5)) {
          const s = performance.now();
          await client.query(`SELECT cid FROM ${schema}.keys WHERE fp % bfp_from_binary_text($1::bytea)`, [Buffer.from(q)]);
          seq.push(performance.now() - s);
        }
        await client.query('RESET enable_indexscan; RESET enable_bitmapscan');
        results[`threshold${Math.round(t * 100)}`] = { cartridgeGist: stats(gist), cartridgeSeqScan: stats(seq), keyFile: stats(file), meanHits: round(hits / queryKeys.length) };
        log(JSON.stringify(results[`threshold${Math.round(t * 100)}`]));
      }
    } finally {
      await searcher.close();
    }
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await client.end();
    rmSync(work, { recursive: true, force: true });
  }
  results.loadAverageEnd = round(loadavg()[0] ?? NaN);
  writeResults('pubchem-cartridge', results);
}

runMain(main);
