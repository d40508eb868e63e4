/**
 * Substructure search against archive size, on DISTINCT structures: GENERATED drug-like molecules
 * (synthetic/pubchem-generate.ts, the n-th under CID GENERATED_CID_BASE + n) written as Compound SD
 * files by `biomirror pubchem sdf` (every tag and the 881 substructure keys computed with RDKit,
 * listed in BIOMIRROR_COMPUTED; heavy-atom molfiles), 100,000 a file. The load benchmark's archive
 * repeats 1,328 real structures, so that at ten million compounds a search's first candidates are
 * thousands of copies of the same few; here no two compounds share a structure, as in PubChem.
 *
 * For each size (a prefix of the files, loaded from empty with `biomirror ingest pubchem`):
 * - benzoic acid (`fastsubstructure/smiles/OC(=O)c1ccccc1`, MaxRecords 2000), the common fragment:
 *   latency through HTTP, and how many CIDs it answered;
 * - a rare fragment (benzothiazole, about one compound in a thousand), MaxRecords 2000: every
 *   compound the screen passes is matched, so its time grows with the archive;
 * beside the smallest size in the same run (the scaling law: how time grows with size);
 * - with `--cold K`, at the largest size: the first benzoic-acid search after a server start, K
 *   times with the database's pages dropped from the page cache before the start (`dd iflag=nocache`;
 *   the key file stays cached), K times without, alternating: what reading the candidates' SMILES
 *   costs when the compounds table is not in memory, as at PubChem's size, where it cannot be.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json
 *   node dist-bench/bench/pubchem-substructure.js [--sizes 100000,300000,1000000] [--queries 10]
 *     [--sdf DIR (SD files kept there and reused; written there when missing)] [--dir scratch]
 *
 * Writing the SD files costs about 3.5 ms of RDKit a molecule (one process per core, a file each).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RARE_QUERY, moleculeFor } from '../synthetic/pubchem-generate.js';
import { GENERATED_CID_BASE } from '../synthetic/pubchem-keys-generate.js';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, log, machine, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    queries: { type: 'string' },
    sdf: { type: 'string' },
    dir: { type: 'string' },
    cold: { type: 'string' },
  },
});
const PER_FILE = 100_000;
const SIZES = (values.sizes ?? '100000,300000,1000000').split(',').map(Number);
if (SIZES.some((s) => !Number.isInteger(s) || s <= 0 || s % PER_FILE !== 0)) throw new Error(`--sizes: multiples of ${PER_FILE}, e.g. 100000,300000,1000000`);
const N = Math.max(...SIZES);
const QUERIES = Number(values.queries ?? 10);
const COLD = Number(values.cold ?? 0);
const work = mkdtempSync(join(values.dir ?? tmpdir(), 'biomirror-bench-pubchem-substructure-'));
const sdfDir = values.sdf ?? join(work, 'sdf');

const BENZOIC_ACID = 'OC(=O)c1ccccc1';

/** PubChem's file name for a CID range (nine digits each). */
const fileName = (first: number, last: number) => `Compound_${String(first).padStart(9, '0')}_${String(last).padStart(9, '0')}.sdf.gz`;

/** The k-th file: molecules k*PER_FILE+1 ... (k+1)*PER_FILE. */
function fileOf(k: number): { name: string; from: number; to: number } {
  const from = k * PER_FILE + 1;
  const to = from + PER_FILE;
  return { name: fileName(GENERATED_CID_BASE + from, GENERATED_CID_BASE + to - 1), from, to };
}

/** Writes the files not there yet, one `biomirror pubchem sdf` per core at a time. */
async function writeFiles(count: number): Promise<{ written: number; seconds: number }> {
  mkdirSync(sdfDir, { recursive: true });
  const todo = Array.from({ length: count }, (_, k) => fileOf(k)).filter((f) => !existsSync(join(sdfDir, f.name)));
  const t0 = Date.now();
  let next = 0;
  const lane = async (p: number) => {
    while (next < todo.length) {
      const f = todo[next++] as ReturnType<typeof fileOf>;
      const input = join(work, `CID-SMILES.${p}`);
      const lines: string[] = [];
      for (let i = f.from; i < f.to; i++) lines.push(`${GENERATED_CID_BASE + i}\t${moleculeFor(i)}`);
      writeFileSync(input, lines.join('\n') + '\n');
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(work, `sdf-store-${p}`), LOG_LEVEL: 'warn' };
      delete env.DATABASE_URL;
      // Written under a temporary name: a file that is there is whole.
      const part = join(sdfDir, `${f.name}.part.gz`);
      log(`writing ${f.name}`);
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'pubchem', 'sdf', input, part, 'heavy'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pubchem sdf ${f.name} exited with ${code}`))));
      });
      renameSync(part, join(sdfDir, f.name));
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), todo.length) }, (_, p) => lane(p)));
  return { written: todo.length, seconds: round((Date.now() - t0) / 1000) };
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p90: round(percentile(s, 90)), max: round(s[s.length - 1] ?? NaN), queries: s.length };
}

async function search(base: string, smiles: string): Promise<{ ms: number; hits: number }> {
  const t0 = performance.now();
  const r = await fetch(`${base}/fastsubstructure/smiles/${encodeURIComponent(smiles)}/cids/JSON?MaxRecords=2000`);
  const body = (await r.json()) as { IdentifierList?: { CID: number[] } };
  if (r.status !== 200) throw new Error(`substructure ${smiles}: ${r.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, hits: body.IdentifierList?.CID.length ?? 0 };
}

async function runSize(size: number): Promise<Record<string, unknown>> {
  // The first files, as a folder of their own (hard links: a load reads regular files only).
  const folder = join(work, `files-${size}`);
  mkdirSync(folder);
  for (let k = 0; k < size / PER_FILE; k++) {
    const [from, to] = [join(sdfDir, fileOf(k).name), join(folder, fileOf(k).name)];
    try {
      linkSync(from, to);
    } catch (err) {
      // --sdf on another file system than --dir: a copy.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      copyFileSync(from, to);
    }
  }
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(work, `data-${size}`), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.BIOMIRROR_INDEX_DIR;
  log(`ingest ${size} compounds (load average ${loadavg()[0]?.toFixed(1)})`);
  const ing = await timed(process.execPath, [CLI, 'ingest', 'pubchem', folder, '--dataset', 'compounds'], env);
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr}`);
  const serve = () => startAndWait(process.execPath, [CLI, 'serve', '--no-demo', '--port', '0'], env, /serving on (http:\/\/[\d.:]+)/);
  const { child, match } = await serve();
  const base = `${match[1] as string}/pubchem/rest/pug/compound`;
  let cold: Record<string, unknown> | undefined;
  try {
    // The first search opens the key file and starts the matching threads.
    await search(base, BENZOIC_ACID);
    const common: number[] = [];
    let commonHits = 0;
    for (let i = 0; i < QUERIES; i++) {
      const r = await search(base, BENZOIC_ACID);
      common.push(r.ms);
      commonHits = r.hits;
    }
    const rare: number[] = [];
    let rareHits = 0;
    for (let i = 0; i < Math.min(QUERIES, 3); i++) {
      const r = await search(base, RARE_QUERY);
      rare.push(r.ms);
      rareHits = r.hits;
    }
    await stop(child);
    if (COLD && size === N) cold = await firstAfterStart(serve, env.DATA_DIR as string);
    const row = {
      compounds: size,
      loadSeconds: round(ing.seconds),
      benzoicAcidFirst2000: { ...stats(common), hits: commonHits },
      rareFragment: { ...stats(rare), hits: rareHits },
      ...(cold ? { firstSearchAfterStart: cold } : {}),
      loadAverageAfter: round(loadavg()[0] ?? NaN),
    };
    log(JSON.stringify(row));
    return row;
  } finally {
    await stop(child);
    rmSync(env.DATA_DIR as string, { recursive: true, force: true });
  }
}

/** Drops a file's pages from the page cache (GNU dd: count=0 with nocache drops the whole file). */
function dropFromCache(file: string): void {
  const r = spawnSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`dd could not drop ${file} from the page cache`);
}

/** The first benzoic-acid search after a start, with the database's pages dropped or not, in turns. */
async function firstAfterStart(serve: () => ReturnType<typeof startAndWait>, dataDir: string): Promise<Record<string, unknown>> {
  const dbFiles = readdirSync(dataDir)
    .filter((f) => f.startsWith('biomirror.sqlite'))
    .map((f) => join(dataDir, f));
  const times: { dropped: number[]; cached: number[] } = { dropped: [], cached: [] };
  for (let i = 0; i < 2 * COLD; i++) {
    const drop = i % 2 === 0;
    if (drop) for (const f of dbFiles) dropFromCache(f);
    const { child, match } = await serve();
    try {
      const r = await search(`${match[1] as string}/pubchem/rest/pug/compound`, BENZOIC_ACID);
      (drop ? times.dropped : times.cached).push(r.ms);
    } finally {
      await stop(child);
    }
    log(`first search after a start, database ${drop ? 'dropped from' : 'left in'} the page cache: ${round(times[drop ? 'dropped' : 'cached'].at(-1) ?? NaN)} ms`);
  }
  return { dropped: stats(times.dropped), cached: stats(times.cached) };
}

async function main(): Promise<void> {
  log(`SD files of ${N} distinct generated molecules in ${sdfDir}`);
  const writing = await writeFiles(N / PER_FILE);
  const rows: Record<string, unknown>[] = [];
  try {
    for (const size of [...SIZES].sort((a, b) => a - b)) rows.push(await runSize(size));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const first = rows[0] as { benzoicAcidFirst2000: { p50: number }; rareFragment: { p50: number } };
  console.table(
    rows.map((r) => {
      const x = r as typeof first & { compounds: number; benzoicAcidFirst2000: { p90: number; hits: number }; rareFragment: { hits: number } };
      return {
        compounds: x.compounds,
        'benzoic acid p50 (ms)': x.benzoicAcidFirst2000.p50,
        p90: x.benzoicAcidFirst2000.p90,
        hits: x.benzoicAcidFirst2000.hits,
        '÷ smallest': round(x.benzoicAcidFirst2000.p50 / first.benzoicAcidFirst2000.p50),
        'rare p50 (ms)': x.rareFragment.p50,
        'rare hits': x.rareFragment.hits,
        'rare ÷ smallest': round(x.rareFragment.p50 / first.rareFragment.p50),
      };
    }),
  );
  writeResults('pubchem-substructure', { machine: machine(), sizes: SIZES, queries: QUERIES, filesWritten: writing, rows });
}

runMain(main);
