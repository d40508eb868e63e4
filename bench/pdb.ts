/**
 * The structure database's Data API benchmark. A generated archive of N entries (sizes drawn like
 * the real archive's: median ~2,500 atoms, a tail to 100,000), and each figure beside its baseline
 * in the same run:
 * - ingest: `biomirror ingest rcsb-data <archive> --dataset archive`, entries/s, beside the CIF
 *   engine alone (gunzip and Mol*'s parser over every file, one thread), with the load's own split
 *   of its time (entries read and stored; then the search and engine indexes);
 * - a mirror run after 1 % of the entries changed (the same command again, as a weekly sync of the
 *   archive would run it), beside the full load;
 * - GET /rest/v1/core/entry/{id}: requests/s beside a bare Fastify route answering an entry-sized
 *   document from memory;
 * - a GraphQL query of 100 entries' ten common fields, 10 clients: latency percentiles.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/pdb.js [--entries 2000]
 *     [--duration 15] [--postgres URL] [--keep]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CIF } from 'molstar/lib/mol-io/reader/cif.js';
import { writeArchive } from '../synthetic/pdb/archive.js';
import { startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, cannon, log, machine, onEachDatabase, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string' },
    duration: { type: 'string' },
    postgres: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.entries ?? 2000);
const DURATION = Number(values.duration ?? 15);
const work = mkdtempSync(join(tmpdir(), 'biomirror-pdb-bench-'));

const GRAPHQL_FIELDS = `rcsb_id struct { title } exptl { method } rcsb_accession_info { initial_release_date deposit_date }
  rcsb_entry_info { resolution_combined deposited_atom_count polymer_entity_count molecular_weight experimental_method }
  rcsb_primary_citation { title }`;

/** The engine alone: every file gunzipped and parsed by Mol*, one after the other. */
async function engineRate(files: string[]): Promise<{ seconds: number; entriesPerSecond: number }> {
  const t0 = process.hrtime.bigint();
  for (const f of files) {
    const parsed = await CIF.parseText(gunzipSync(readFileSync(f)).toString('utf8')).run();
    if (parsed.isError) throw new Error(`${f}: ${parsed.message}`);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { seconds: round(seconds), entriesPerSecond: Math.round(files.length / seconds) };
}

/**
 * The load's own account of its time (the "took" line of `biomirror ingest`): entries read and
 * stored, then the finishing steps (search tables, MMseqs2, structure indexes).
 */
function stepsOf(out: string): { readSeconds?: number; entriesReadPerSecond?: number; finishSeconds?: number; steps?: string } {
  const m = /took [\d.]+ s: records read and written in ([\d.]+) s, then ([\d.]+) s of (.*) \(some steps/.exec(out);
  if (!m) {
    log(`the ingest printed no "took" line; its steps are not recorded:\n${out}`);
    return {};
  }
  const read = Number(m[1]);
  return { readSeconds: read, entriesReadPerSecond: Math.round(N / read), finishSeconds: Number(m[2]), steps: m[3] };
}

let revision = 0;

/** Gives 1 % of the entries a new title (a new file, size and time), spread over the archive. */
function reviseEntries(files: string[]): number {
  revision++;
  const every = 100;
  let n = 0;
  for (let i = revision % every; i < files.length; i += every) {
    const f = files[i] as string;
    const text = gunzipSync(readFileSync(f)).toString('utf8');
    const revised = text.replace(/^(_struct\.title\s+)'(.*)'$/m, (_, head: string, title: string) => `${head}'${title} (revised ${revision})'`);
    if (revised === text) continue;
    writeFileSync(f, gzipSync(revised));
    const later = new Date(Date.now() + 2000 * revision);
    utimesSync(f, later, later);
    n++;
  }
  return n;
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, dir: string, archive: { ids: string[]; files: string[] }) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;

  log(`[${dialect}] ingest ${N} entries`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'rcsb-data', dir, '--dataset', 'archive'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);

  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  try {
    const base = match[1] as string;
    const ids = archive.ids;
    const pick = () => ids[Math.floor(Math.random() * ids.length)] as string;
    // The baseline answers every request with a real entry document of this run, from memory.
    const sample = await (await fetch(`${base}/rcsb/data/rest/v1/core/entry/${ids[0]}`)).text();
    const body = join(work, `entry-${dialect}.json`);
    writeFileSync(body, sample);
    const bareProc = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'bare.js'), '0', body], process.env, /bare listening on (http:\/\/[\d.:]+)/);
    let bare;
    try {
      log(`[${dialect}] bare route`);
      bare = await cannon(bareProc.match[1] as string, () => `/studies/${pick()}`, DURATION);
    } finally {
      await stop(bareProc.child);
    }
    log(`[${dialect}] GET /rest/v1/core/entry/{id}`);
    const rest = await cannon(base, () => `/rcsb/data/rest/v1/core/entry/${pick()}`, DURATION);

    log(`[${dialect}] GraphQL, 100 entries x 10 fields`);
    const batches = Array.from({ length: 50 }, () => Array.from({ length: 100 }, pick));
    const queries = batches.map((b) => `/rcsb/data/graphql?query=${encodeURIComponent(`{ entries(entry_ids: ${JSON.stringify(b)}) { ${GRAPHQL_FIELDS} } }`)}`);
    const check = (await (await fetch(`${base}${queries[0]}`)).json()) as { data?: { entries?: unknown[] }; errors?: unknown };
    if (!check.data?.entries || check.errors) throw new Error(`GraphQL answered ${JSON.stringify(check).slice(0, 300)}`);
    let q = 0;
    const graphql = await cannon(base, () => queries[q++ % queries.length] as string, DURATION);
    await stop(child);

    const changed = reviseEntries(archive.files);
    log(`[${dialect}] mirror run, ${changed} entries changed`);
    const again = await timed(process.execPath, [CLI, 'ingest', 'rcsb-data', dir, '--dataset', 'archive'], env);
    if (again.code !== 0) throw new Error(`mirror run failed: ${again.stderr}`);
    return {
      ingest: { entries: N, seconds: round(ing.seconds), entriesPerSecond: Math.round(N / ing.seconds), peakRssMb: ing.peakRssMb, ...stepsOf(ing.stdout) },
      mirrorRun: { changed, seconds: round(again.seconds), ofFullLoad: round(again.seconds / ing.seconds), ...stepsOf(again.stdout) },
      entry: { biomirror: rest, bareFastify: bare, ratioToBare: round(rest.requestsPerSecond / bare.requestsPerSecond) },
      graphql100: graphql,
    };
  } finally {
    await stop(child);
  }
}

async function main() {
  log(`generating ${N} entries`);
  const dir = join(work, 'archive');
  const archive = await writeArchive(dir, N, 7);
  const sorted = [...archive.atoms].sort((a, b) => a - b);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: machine(),
    entries: N,
    atoms: { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1], total: sorted.reduce((s, x) => s + x, 0) },
    durationSeconds: DURATION,
  };
  try {
    log('engine alone: gunzip + Mol* parse of every file');
    results.engine = await engineRate(archive.files);
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, dir, archive));
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('pdb', results);
}

runMain(main);
