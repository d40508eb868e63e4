/**
 * The PubChem 3D benchmark, on the demo compounds. Each figure is measured in the same run as its
 * baseline:
 * - reading: latency of `property/<the 14 3D properties>/JSON` for the compounds whose Compound_3D
 *   record is loaded, beside the same request for a 2D property (MolecularFormula) of the same
 *   compounds;
 * - computing: the same 3D request on a server where no Compound_3D file is loaded, so each
 *   compound's conformer is generated (OpenChemLib + MMFF94s) and its shape and features computed:
 *   first request (cold) and repeated (cached), for the six compounds with published values and for
 *   a sample of the other demo compounds; with how far the computed values land from the published ones.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/pubchem-3d.js [--repeats 50] [--others 20] [--postgres URL]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { percentile, startAndWait, stop, timed } from './lib/proc.js';
import { CLI, ROOT, log, machine, onEachDatabase, round, runMain, withSchema, writeResults } from './lib/harness.js';

const { values } = parseArgs({ options: { repeats: { type: 'string' }, others: { type: 'string' }, postgres: { type: 'string' }, keep: { type: 'boolean' } } });
const REPEATS = Number(values.repeats ?? 50);
/** How many of the other demo compounds get a computed conformer (every 10th, in file order). */
const OTHERS = Number(values.others ?? 20);
const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-pubchem3d-'));
const DEMO = join(ROOT, 'src', 'services', 'pubchem', 'demo');
const PROPS_3D = [
  'Volume3D',
  'XStericQuadrupole3D',
  'YStericQuadrupole3D',
  'ZStericQuadrupole3D',
  'FeatureCount3D',
  'FeatureAcceptorCount3D',
  'FeatureDonorCount3D',
  'FeatureAnionCount3D',
  'FeatureCationCount3D',
  'FeatureRingCount3D',
  'FeatureHydrophobeCount3D',
  'ConformerModelRMSD3D',
  'EffectiveRotorCount3D',
  'ConformerCount3D',
];

type Row = Record<string, number | string>;

/** CIDs and published values of the demo Compound_3D records. */
function published(): Map<number, { volume: number; quadrupoles: number[] }> {
  const text = gunzipSync(readFileSync(join(DEMO, 'conformers', 'Compound_3D_demo.sdf.gz'))).toString('utf8');
  const out = new Map<number, { volume: number; quadrupoles: number[] }>();
  for (const rec of text.split('$$$$\n')) {
    const tag = (name: string) => new RegExp(`> <${name}>\\n((?:.+\\n)+)`).exec(rec)?.[1]?.trim().split('\n');
    const cid = Number(tag('PUBCHEM_COMPOUND_CID')?.[0]);
    if (!cid) continue;
    out.set(cid, { volume: Number(tag('PUBCHEM_SHAPE_VOLUME')?.[0]), quadrupoles: (tag('PUBCHEM_SHAPE_MULTIPOLES') ?? []).slice(1, 4).map(Number) });
  }
  return out;
}

const demoCids = () =>
  readFileSync(join(DEMO, 'compounds', 'CID-Title'), 'utf8')
    .split('\n')
    .map((l) => Number(l.split('\t')[0]))
    .filter((n) => n > 0);

async function get(url: string): Promise<{ ms: number; rows: Row[]; computed: string | null; timedOut: boolean }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as { PropertyTable?: { Properties: Row[] } };
  const ms = performance.now() - t0;
  // A request that spends its whole computing budget answers 504, as PubChem's do past 30 s.
  if (res.status === 504) return { ms, rows: [], computed: null, timedOut: true };
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, rows: body.PropertyTable?.Properties ?? [], computed: res.headers.get('x-biomirror-computed-3d'), timedOut: false };
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: round(percentile(s, 50)), p90: round(percentile(s, 90)), max: round(s[s.length - 1] ?? NaN), mean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)) };
}

async function serve(dataDir: string, databaseUrl: string | undefined, datasets: string[]) {
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BIOMIRROR_LIMITS: 'off', PORT: '0', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  for (const d of datasets) {
    const r = await timed(process.execPath, [CLI, 'ingest', 'pubchem', join(DEMO, d), '--dataset', d], env);
    if (r.code !== 0) throw new Error(`ingest ${d} failed: ${r.stderr}`);
  }
  const { child, match } = await startAndWait(process.execPath, [CLI, 'serve', '--no-demo'], env, /serving on (http:\/\/[\d.:]+)/);
  return { child, base: `${match[1] as string}/pubchem/rest/pug/compound/cid` };
}

async function runOn(dialect: 'sqlite' | 'postgres', databaseUrl: string | undefined) {
  const known = published();
  const knownCids = [...known.keys()];
  const others = demoCids()
    .filter((c) => !known.has(c))
    .filter((_, i) => i % 10 === 0)
    .slice(0, OTHERS);
  const all3d = PROPS_3D.join(',');

  log(`[${dialect}] reading loaded Compound_3D records`);
  const loaded = await serve(join(work, `${dialect}-loaded`), databaseUrl, ['compounds', 'conformers']);
  const reading: Record<string, unknown> = {};
  try {
    const read: number[] = [];
    const twoD: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      for (const cid of knownCids) {
        const r = await get(`${loaded.base}/${cid}/property/${all3d}/JSON`);
        if (r.computed) throw new Error(`CID ${cid} was computed, not read`);
        read.push(r.ms);
        twoD.push((await get(`${loaded.base}/${cid}/property/MolecularFormula/JSON`)).ms);
      }
    }
    reading.threeDPropertiesMs = stats(read);
    reading.baselineTwoDPropertyMs = stats(twoD);
  } finally {
    await stop(loaded.child);
  }

  log(`[${dialect}] computing conformers (no Compound_3D file loaded)`);
  // A database of its own (on PostgreSQL a second schema), where only the compounds are loaded.
  const computing =
    databaseUrl && values.postgres ? await withSchema(values.postgres, (url) => computeOn(dialect, url, knownCids, others, all3d)) : await computeOn(dialect, undefined, knownCids, others, all3d);
  return { reading, computing };
}

async function computeOn(dialect: string, databaseUrl: string | undefined, knownCids: number[], others: number[], all3d: string): Promise<Record<string, unknown>> {
  const known = published();
  const bare = await serve(join(work, `${dialect}-computed`), databaseUrl, ['compounds']);
  const computing: Record<string, unknown> = {};
  try {
    const cold: number[] = [];
    const warm: number[] = [];
    const volumeError: number[] = [];
    const quadrupoleError: number[] = [];
    for (const cid of knownCids) {
      const r = await get(`${bare.base}/${cid}/property/${all3d}/JSON`);
      cold.push(r.ms);
      const row = r.rows[0];
      if (row?.Volume3D === undefined) continue;
      const p = known.get(cid) as { volume: number; quadrupoles: number[] };
      volumeError.push((100 * Math.abs(Number(row.Volume3D) - p.volume)) / p.volume);
      ['XStericQuadrupole3D', 'YStericQuadrupole3D', 'ZStericQuadrupole3D'].forEach((k, i) => quadrupoleError.push(Math.abs(Number(row[k]) - (p.quadrupoles[i] as number))));
      warm.push((await get(`${bare.base}/${cid}/property/${all3d}/JSON`)).ms);
    }
    computing.knownCompounds = {
      withComputedValues: volumeError.length,
      coldMs: stats(cold),
      cachedMs: stats(warm),
      volumeErrorPercent: { mean: round(volumeError.reduce((a, b) => a + b, 0) / volumeError.length), max: round(Math.max(...volumeError)) },
      quadrupoleErrorAbs: { mean: round(quadrupoleError.reduce((a, b) => a + b, 0) / quadrupoleError.length), max: round(Math.max(...quadrupoleError)) },
    };
    const otherCold: number[] = [];
    let withValues = 0;
    let timedOut = 0;
    for (const cid of others) {
      const r = await get(`${bare.base}/${cid}/property/${all3d}/JSON`);
      otherCold.push(r.ms);
      if (r.rows[0]?.Volume3D !== undefined) withValues++;
      if (r.timedOut) timedOut++;
    }
    computing.otherDemoCompounds = { coldMs: stats(otherCold), compounds: others.length, withComputedValues: withValues, answered504: timedOut };
  } finally {
    await stop(bare.child);
  }
  return computing;
}

async function main(): Promise<void> {
  const results: Record<string, unknown> = { machine: machine(), repeats: REPEATS };
  try {
    await onEachDatabase(results, values.postgres, runOn);
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
  writeResults('pubchem-3d', results);
}

runMain(main);
