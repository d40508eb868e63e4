/**
 * The coordinate engines of the RCSB Search API benchmark (bench/pdb-search.ts): an archive of
 * generated mmCIF entries (synthetic/pdb/archive.ts) loaded through the archive load, which builds the
 * structure-similarity prefilter and the structure-motif index; then, with `biomirror serve`:
 * - `structure`: the service beside TM-align alone, run on the same candidates with the same
 *   number of processes at once;
 * - `strucmotif`: the service beside the motif matcher called in-process on the same index (no
 *   HTTP, request reading, ranking or response).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startAndWait, stop } from '../lib/proc.js';
import { ROOT, log, round } from '../lib/harness.js';
import { writeArchive } from '../../synthetic/pdb/archive.js';

const run = promisify(execFile);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));
const Q = '/rcsb/search/rcsbsearch/v2/query';
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const overhead = (service: number[], engine: number[]) => ({
  serviceMeanMs: round(mean(service)),
  engineMeanMs: round(mean(engine)),
  overheadPercent: round(((mean(service) - mean(engine)) / mean(engine)) * 100),
});

/** The service and the engine timed in turns, so that both see the same load of a shared machine. */
async function timePairs(n: number, service: (i: number) => Promise<unknown>, engine: (i: number) => Promise<unknown>): Promise<[number[], number[]]> {
  const s: number[] = [];
  const e: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [fn, out] of [
      [service, s],
      [engine, e],
    ] as const) {
      const t0 = performance.now();
      await fn(i);
      out.push(performance.now() - t0);
    }
  }
  return [s, e];
}

async function post(base: string, body: unknown): Promise<Any> {
  const r = await fetch(base + Q, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (r.status !== 200 && r.status !== 204) throw new Error(`${r.status} ${await r.text()}`);
  return r.status === 204 ? undefined : r.json();
}

function pdbText(coords: Float32Array): string {
  const lines: string[] = [];
  const f = (v: number) => v.toFixed(3).padStart(8);
  for (let i = 0; i < coords.length / 3; i++) {
    lines.push(
      `ATOM  ${String(i + 1).padStart(5)}  CA  ALA A${String((i % 9999) + 1).padStart(4)}    ${f(coords[3 * i] as number)}${f(coords[3 * i + 1] as number)}${f(coords[3 * i + 2] as number)}  1.00  0.00           C`,
    );
  }
  return `${lines.join('\n')}\nEND\n`;
}

export interface CoordinateOptions {
  dialect: string;
  work: string;
  dataDir: string;
  databaseUrl: string | undefined;
  entries: number;
  /** The server's environment (data folder, database). */
  env: NodeJS.ProcessEnv;
}

export async function coordinateEngines(o: CoordinateOptions): Promise<Record<string, unknown>> {
  const { openStore } = await dist('core/store/open.js');
  const { Generations } = await dist('core/store/generations.js');
  const { runLoad } = await dist('core/ingest/load.js');
  const { migrate } = await dist('core/store/migrations.js');
  const { rcsbData } = await dist('services/pdb/data/index.js');
  const { scopeOf } = await dist('services/pdb/search/query/engine.js');
  const { coordIndexes } = await dist('services/pdb/search/build/engine-indexes.js');
  const { writeCoordIndexes } = await dist('services/pdb/search/build/coord-index.js');
  const { candidates } = await dist('services/pdb/search/query/structure.js');
  const { tracesOf } = await dist('services/pdb/search/build/structure-index.js');
  const { strucmotifTerminal } = await dist('services/pdb/search/query/strucmotif.js');
  const { dist: distance, residueAt } = await dist('services/pdb/search/build/motif-index.js');
  const archive = join(o.work, `archive-${o.dialect}`);
  log(`[${o.dialect}] write ${o.entries} generated mmCIF entries`);
  await writeArchive(archive, o.entries, 1);
  const db = await openStore({ dataDir: o.dataDir, databaseUrl: o.databaseUrl });
  await migrate(db, 'rcsb-data', rcsbData.migrations);
  const generations = new Generations(db);
  log(`[${o.dialect}] load them (the load builds the coordinate indexes)`);
  const t0 = performance.now();
  await runLoad(db, generations, rcsbData.datasets[0], archive, { source: 'bench' });
  const loadSeconds = round((performance.now() - t0) / 1000);
  const scope = await scopeOf(db, generations);
  // The same build the load ran, timed alone.
  const t1 = performance.now();
  const again = join(o.work, `coord-${o.dialect}`);
  mkdirSync(again);
  const built = await writeCoordIndexes(db, scope.archiveTables.entries, again);
  const buildSeconds = round((performance.now() - t1) / 1000);
  const idx = await coordIndexes(scope);

  const { child, match } = await startAndWait(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', '--no-demo'], o.env, /serving on (http:\/\/[\d.:]+)/);
  const base = match[1] as string;
  try {
    // Structure: the first chains of some entries, against chains.
    const chainIds: string[] = idx.structures.ids.filter((id: string, i: number) => idx.structures.assembly[i] === 0 && idx.structures.length[i] >= 60).slice(0, 40);
    const queries = [0, 10, 20, 30].map((k) => chainIds[k]).filter((x): x is string => x !== undefined);
    const body = (id: string) => {
      const [entry, asym] = id.split('.');
      return {
        query: { type: 'terminal', service: 'structure', parameters: { value: { entry_id: entry, asym_id: asym }, ptmscore_cutoff: 0.5, number_of_candidates: 100 } },
        return_type: 'polymer_instance',
      };
    };
    log(`[${o.dialect}] structure (TM-align)`);
    await post(base, body(queries[0] as string));
    const tm = join(o.work, `tm-${o.dialect}`);
    mkdirSync(tm);
    const parallel = Math.max(1, Math.min(4, availableParallelism()));
    const prepared = await Promise.all(
      queries.map(async (id, q) => {
        const i = idx.structures.byId.get(id);
        const [trace] = await tracesOf(idx.structures, [i]);
        const list: number[] = candidates(idx.structures, trace, false, 100);
        const traces: Float32Array[] = await tracesOf(idx.structures, list);
        writeFileSync(join(tm, `q${q}.pdb`), pdbText(trace));
        traces.forEach((t, k) => writeFileSync(join(tm, `q${q}-t${k}.pdb`), pdbText(t)));
        return traces.length;
      }),
    );
    const [structService, structEngine] = await timePairs(
      queries.length * 2,
      (k) => post(base, body(queries[k % queries.length] as string)),
      async (k) => {
        const q = k % queries.length;
        let next = 0;
        const worker = async () => {
          while (next < (prepared[q] as number)) await run('TMalign', [`q${q}.pdb`, `q${q}-t${next++}.pdb`], { cwd: tm });
        };
        await Promise.all(Array.from({ length: parallel }, worker));
      },
    );

    // Motifs: two residues 6–9 Å apart (Cα) in the first chain of some entries.
    const m = idx.motifs;
    const motifs: Any[] = [];
    for (let e = 0; e < m.entries.length && motifs.length < 4; e += Math.max(1, Math.floor(m.entries.length / 4))) {
      const from = m.entryStart[e] as number;
      const a = residueAt(m, from + 5);
      for (let j = from + 9; j < (m.entryStart[e + 1] as number); j++) {
        const b = residueAt(m, j);
        const d = distance(a.ca, b.ca);
        if (b.asym === a.asym && d > 6 && d < 9) {
          motifs.push({ value: { entry_id: m.entries[e], residue_ids: [a, b].map((r) => ({ label_asym_id: r.asym, label_seq_id: r.seq })) } });
          break;
        }
      }
    }
    const motifBody = (k: number) => ({
      query: { type: 'terminal', service: 'strucmotif', parameters: motifs[k % motifs.length] },
      return_type: 'entry',
      request_options: { paginate: { start: 0, rows: 10 } },
    });
    log(`[${o.dialect}] strucmotif (${motifs.length} motifs)`);
    const matcher = (k: number) => strucmotifTerminal({ type: 'terminal', service: 'strucmotif', node_id: 0, parameters: motifs[k % motifs.length] }, 'entry', scope);
    await post(base, motifBody(0));
    await matcher(0);
    const [motifService, motifEngine] = await timePairs(motifs.length * 5, (k) => post(base, motifBody(k)), matcher);
    return {
      entries: o.entries,
      chains: idx.structures.ids.filter((_: string, i: number) => idx.structures.assembly[i] === 0).length,
      residues: m.resSeq.length,
      loadSeconds,
      coordinateIndexBuildSeconds: buildSeconds,
      unreadableEntries: built.unreadable,
      structure: { candidatesPerQuery: round(mean(prepared)), parallelAlignments: parallel, ...overhead(structService, structEngine) },
      strucmotif: overhead(motifService, motifEngine),
    };
  } finally {
    await stop(child);
    await db.close();
  }
}
