/**
 * The update benchmark, on ClinicalTrials.gov's generated studies. Each figure beside its baseline
 * in the same run, on each database:
 * - a full load of N studies (`biomirror ingest clinicaltrials`), the baseline;
 * - an update of K studies, half of them changed versions of loaded ones and half new
 *   (`ingest --update`: the served generation copied by the database, the K applied, the indexes
 *   and text index built again), as a share of the full load's time;
 * - a second update, when the first generation is dropped: on SQLite, the file's size after each
 *   step (it holds two generations at most, and shrinks back when one is dropped).
 *
 *   npx tsc -p tsconfig.build.json && npx tsc -p tsconfig.bench.json &&
 *   node dist-bench/bench/update.js [--studies 100000] [--changed 1000] [--postgres URL] [--keep]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateStudy } from '../synthetic/ct-generate.js';
import { timed } from './lib/proc.js';
import { CLI, log, machine, onEachDatabase, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    studies: { type: 'string' },
    changed: { type: 'string' },
    postgres: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.studies ?? 100_000);
const K = Number(values.changed ?? 1000);
const work = mkdtempSync(join(tmpdir(), 'biomirror-update-bench-'));

function jsonLines(file: string, studies: Iterable<Record<string, unknown>>): string {
  const out: string[] = [];
  for (const s of studies) out.push(JSON.stringify(s));
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

/** K studies: the last K/2 loaded ones generated again with another seed (changed), and K/2 new. */
function* changes(from: number): Generator<Record<string, unknown>> {
  for (let i = 0; i < K; i++) yield generateStudy(from + i, { seed: 2 });
}

async function ingest(args: string[], env: NodeJS.ProcessEnv) {
  const r = await timed(process.execPath, [CLI, 'ingest', 'clinicaltrials', ...args], env);
  if (r.code !== 0) throw new Error(`ingest failed: ${r.stderr}`);
  return { seconds: round(r.seconds), peakRssMb: r.peakRssMb };
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined, full: string, update1: string, update2: string) {
  const dataDir = join(work, dialect);
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const size = () => (dialect === 'sqlite' ? Math.round(statSync(join(dataDir, 'biomirror.sqlite')).size / 2 ** 20) : undefined);

  log(`[${dialect}] full load of ${N.toLocaleString('en-US')} studies`);
  const load = await ingest([full], env);
  const afterLoad = size();
  log(`[${dialect}] update of ${K.toLocaleString('en-US')} studies`);
  const first = await ingest([update1, '--update'], env);
  const afterFirst = size();
  log(`[${dialect}] a second update (the full load's generation is dropped)`);
  const second = await ingest([update2, '--update'], env);
  const afterSecond = size();
  return {
    fullLoad: { ...load, studiesPerSecond: Math.round(N / load.seconds) },
    update: { ...first, shareOfFullLoad: round(first.seconds / load.seconds) },
    secondUpdate: { ...second, shareOfFullLoad: round(second.seconds / load.seconds) },
    ...(dialect === 'sqlite' ? { fileMb: { afterFullLoad: afterLoad, afterUpdate: afterFirst, afterSecondUpdate: afterSecond } } : {}),
  };
}

async function main(): Promise<void> {
  const full = jsonLines(
    join(work, 'full.jsonl'),
    (function* () {
      for (let i = 0; i < N; i++) yield generateStudy(i);
    })(),
  );
  const update1 = jsonLines(join(work, 'update1.jsonl'), changes(N - K / 2));
  const update2 = jsonLines(join(work, 'update2.jsonl'), changes(N));
  const results: Record<string, unknown> = { machine: machine(), loadAverage: loadavg().map((x) => round(x)), studies: N, changed: K };
  try {
    await onEachDatabase(results, values.postgres, (dialect, url) => runOn(dialect, url, full, update1, update2));
    results.loadAverageAfter = loadavg().map((x) => round(x));
    writeResults('update', results);
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
}

runMain(main);
