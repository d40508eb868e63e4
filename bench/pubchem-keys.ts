/**
 * PubChem's 881-bit substructure keys at PubChem's size: the key file (src/services/pubchem/search/
 * keyfile) over N GENERATED compounds (synthetic/pubchem-keys-generate.ts; CIDs past any PubChem
 * has issued). Each figure beside its baseline, in the same run:
 * - writing: records/s of generate + write, beside generating alone;
 * - similarity at Threshold 90 and 80 (queries: the keys of compounds drawn at random from the
 *   file), p50/p99, reading the cells the segment bound keeps (the default), beside the popcount
 *   bound alone and a plain scan of every record; the WebAssembly kernel beside the plain
 *   JavaScript one, two threads beside one; read sizes (records a chunk);
 * - the substructure screen's time to its first 2,000 candidates for a common fragment (benzene),
 *   and for a rare one;
 * - resident memory (rss, and VmHWM of the search phase), the page cache's share of the file, and
 *   cold queries (the file's pages dropped with `dd iflag=nocache`) beside warm ones.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/pubchem-keys.js --compounds N
 *     [--queries 100] [--plain 10] [--dir DIR (for the file: 13.9 GB at 120M, twice that while written)]
 *     [--file PATH (reuse a file kept by an earlier run)] [--keep] [--threads 2] [--chunk 4096]
 *     [--skip-cold] [--skip-kernels] (leave out the cold reads, or the kernel and chunk comparisons)
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fragmentKeys, generateKeys, rng } from '../synthetic/pubchem-keys-generate.js';
import { percentile } from './lib/proc.js';
import { ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';

const { values } = parseArgs({
  options: {
    compounds: { type: 'string' },
    queries: { type: 'string' },
    plain: { type: 'string' },
    dir: { type: 'string' },
    file: { type: 'string' },
    keep: { type: 'boolean' },
    threads: { type: 'string' },
    chunk: { type: 'string' },
    'skip-cold': { type: 'boolean' },
    'skip-kernels': { type: 'boolean' },
  },
});
const N = Number(values.compounds ?? 1_000_000);
const Q = Number(values.queries ?? 100);
const PLAIN = Number(values.plain ?? 10);
const THREADS = Number(values.threads ?? 2);
const CHUNK = Number(values.chunk ?? 4096);
const KEY_BYTES = 112;
const HEADER_BYTES = 8192;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
// The built modules (run `npm run build` first): benchmarks run what the server runs.
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));

const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p90: round(percentile(s, 90)),
    p99: round(percentile(s, 99)),
    max: round(s[s.length - 1] ?? NaN),
    mean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
  };
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** The share of the file in the page cache (fincore, util-linux), or undefined without it. */
function cached(path: string): number | undefined {
  try {
    const out = execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES,SIZE', path], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    return round((out[0] as number) / (out[1] as number));
  } catch {
    return undefined;
  }
}

/** Drops the file's pages from the page cache (GNU dd's nocache flag); false where that fails. */
function dropCache(path: string): boolean {
  try {
    execFileSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
    return (cached(path) ?? 1) < 0.01;
  } catch {
    return false;
  }
}

/** Reads the whole file once (into the page cache), returning GB/s. */
function readAll(path: string): number {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(16 << 20);
  const t0 = performance.now();
  let pos = 0;
  let n: number;
  while ((n = readSync(fd, buf, 0, buf.length, pos)) > 0) pos += n;
  closeSync(fd);
  return round(pos / 1e9 / ((performance.now() - t0) / 1000));
}

async function write(path: string, keyfile: Any): Promise<Record<string, unknown>> {
  // Baseline: the generator alone, on up to a million compounds.
  const sample = Math.min(N, 1_000_000);
  let t0 = performance.now();
  let x = 0;
  for (const g of generateKeys(sample)) x ^= g.keys[7] as number;
  const generateRate = sample / ((performance.now() - t0) / 1000);
  log(`generating alone: ${Math.round(generateRate)} compounds/s (${x})`);

  const w = new keyfile.KeyFileWriter(path);
  t0 = performance.now();
  let n = 0;
  for (const g of generateKeys(N)) {
    w.add(g.cid, g.keys);
    if (++n % 10_000_000 === 0) log(`  ${n} compounds added, ${round((performance.now() - t0) / 1000)} s`);
  }
  const added = (performance.now() - t0) / 1000;
  const st = await w.finish();
  const total = (performance.now() - t0) / 1000;
  const rate = N / total;
  const bands: number[] = Array.from(st.bands as Float64Array);
  const quantile = (f: number) => {
    let acc = 0;
    return bands.findIndex((c) => (acc += c) >= f * N);
  };
  const popcount = { p1: quantile(0.01), p5: quantile(0.05), p50: quantile(0.5), p95: quantile(0.95), p99: quantile(0.99), max: bands.findLastIndex((c) => c > 0) };
  return {
    seconds: round(total),
    addSeconds: round(added),
    assembleSeconds: round(total - added),
    recordsPerSecond: Math.round(rate),
    generateAlonePerSecond: Math.round(generateRate),
    writerShareOfTime: round(1 - rate / generateRate),
    fileGb: round(st.bytes / 1e9),
    cells: st.cells,
    peakRssMb: round(status('VmHWM')),
    popcount,
  };
}

/** `n` compounds' keys drawn at random from the file (111 bytes each). */
function drawQueries(path: string, count: number, n: number): Uint8Array[] {
  const r = rng(4242);
  const fd = openSync(path, 'r');
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const b = Buffer.alloc(KEY_BYTES);
    readSync(fd, b, 0, KEY_BYTES, HEADER_BYTES + Math.floor(r() * count) * KEY_BYTES);
    out.push(b.subarray(0, 111));
  }
  closeSync(fd);
  return out;
}

async function timeQueries(s: Any, queries: Uint8Array[], t: number, opts: Record<string, unknown> = {}) {
  const ms: number[] = [];
  const hits: number[] = [];
  const read: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const h = await s.similar(q, t, undefined, opts);
    ms.push(performance.now() - t0);
    hits.push(h.length);
    read.push(s.lastScan.records);
  }
  return { ms, hits, read };
}

async function main(): Promise<void> {
  const keyfile = await dist('services/pubchem/search/keyfile/index.js');
  const results: Record<string, unknown> = { machine: machine(), loadAverage: loadavg().map(round), compounds: N, data: "generated (synthetic/pubchem-keys-generate.ts), not PubChem's" };
  const dir = values.dir ?? tmpdir();
  mkdirSync(dir, { recursive: true });
  const work = values.file ? undefined : mkdtempSync(join(dir, 'biomirror-bench-pubchem-keys-'));
  const path = values.file ?? join(work as string, `keys-${N}.bin`);
  try {
    if (!values.file || !existsSync(path)) {
      log(`writing ${N} generated compounds' keys to ${path}`);
      results.write = await write(path, keyfile);
      log(JSON.stringify(results.write));
    }
    // From here on, the search phase's own peak (VmHWM reset where the kernel allows it).
    let hwmReset = true;
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      hwmReset = false;
    }
    const s = keyfile.KeyFileSearcher.open(path, { threads: THREADS, chunkRecords: CHUNK });
    const count: number = s.count;
    const queries = drawQueries(path, count, Q + 3);
    const warmup = queries.splice(0, 3);
    results.file = { gb: round(statSync(path).size / 1e9), records: count, cells: s.header.cellCount, pageCacheShareAfterWrite: cached(path) };

    // Cold: the file's pages dropped before each query (the first queries after a boot or a load).
    const cold: Record<string, unknown> = {};
    const coldMs: number[] = [];
    for (const q of values['skip-cold'] ? [] : warmup) {
      if (!dropCache(path)) break;
      const t0 = performance.now();
      await s.similar(q, 0.9);
      coldMs.push(round(performance.now() - t0));
    }
    cold.threshold90Ms = coldMs.length ? coldMs : values['skip-cold'] ? 'skipped (--skip-cold)' : 'not measured (dd iflag=nocache unavailable or ineffective)';
    cold.readWholeFileGbPerSecond = !values['skip-cold'] && dropCache(path) ? readAll(path) : undefined;
    cold.warmReadWholeFileGbPerSecond = readAll(path);
    results.cold = cold;
    results.pageCacheShareBeforeQueries = cached(path);
    for (const q of warmup) await s.similar(q, 0.9);

    log(`similarity: ${Q} queries at 0.9 and 0.8, ${PLAIN} plain scans`);
    const sim: Record<string, unknown> = {};
    const summary = (r: Awaited<ReturnType<typeof timeQueries>>) => ({
      ms: stats(r.ms),
      meanHits: round(mean(r.hits)),
      medianHits: percentile(
        [...r.hits].sort((a, b) => a - b),
        50,
      ),
      meanShareRead: round(mean(r.read) / count),
      meanGbRead: round((mean(r.read) * KEY_BYTES) / 1e9),
    });
    for (const t of [0.9, 0.8]) {
      // The segment bound (default) and the popcount bound alone, in turns on the same queries.
      const seg = { ms: [] as number[], hits: [] as number[], read: [] as number[] };
      const pop = { ms: [] as number[], hits: [] as number[], read: [] as number[] };
      for (const q of queries) {
        for (const [out, bound] of [
          [seg, 'segments'],
          [pop, 'popcount'],
        ] as const) {
          const r = await timeQueries(s, [q], t, { bound });
          out.ms.push(r.ms[0] as number);
          out.hits.push(r.hits[0] as number);
          out.read.push(r.read[0] as number);
        }
      }
      sim[`threshold${t * 100}`] = { segmentBound: summary(seg), popcountBoundOnly: summary(pop), speedupOverPopcountBound: round(mean(pop.ms) / mean(seg.ms)) };
      log(`  ${t}: ${JSON.stringify(sim[`threshold${t * 100}`])}`);
    }
    // The baseline, in turns with the default scan on the same queries.
    const bounded: number[] = [];
    const plain: number[] = [];
    for (const q of queries.slice(0, PLAIN)) {
      bounded.push((await timeQueries(s, [q], 0.9)).ms[0] as number);
      plain.push((await timeQueries(s, [q], 0.9, { bound: 'none' })).ms[0] as number);
    }
    sim.plainScanBaseline = {
      threshold90Ms: stats(bounded),
      threshold90PlainScanMs: stats(plain),
      speedup: round(mean(plain) / mean(bounded)),
      plainGbPerSecond: round((count * KEY_BYTES) / 1e9 / (mean(plain) / 1000)),
    };
    log(`  plain: ${JSON.stringify(sim.plainScanBaseline)}`);
    results.similarity = sim;

    // Read sizes: records per chunk (a chunk is one positioned read, scanned while in cache).
    const chunkSizes: Record<string, unknown> = {};
    for (const chunk of values['skip-kernels'] ? [] : [1024, 4096, 16384]) {
      const k = keyfile.KeyFileSearcher.open(path, { threads: THREADS, chunkRecords: chunk });
      try {
        const few = queries.slice(0, 20);
        await k.similar(few[0], 0.9);
        const r = await timeQueries(k, few, 0.9);
        const p = await timeQueries(k, few.slice(0, 3), 0.9, { bound: 'none' });
        chunkSizes[String(chunk)] = { threshold90Ms: stats(r.ms), plainScanGbPerSecond: round((count * KEY_BYTES) / 1e9 / (mean(p.ms) / 1000)) };
      } finally {
        await k.close();
      }
      log(`  chunk ${chunk}: ${JSON.stringify(chunkSizes[String(chunk)])}`);
    }
    results.chunkRecords = chunkSizes;

    // Kernels and threads, on the same few queries with every record scanned (so the kernel and
    // the reads are all there is); and the reads alone, the ceiling any kernel or prefilter has.
    const few = queries.slice(0, 3);
    const kernels: Record<string, unknown> = {};
    const configs = [
      ['wasm, 2 threads', { threads: THREADS, kernel: 'wasm' }],
      ['wasm, 1 thread', { threads: 1, kernel: 'wasm' }],
      ['js, 2 threads', { threads: THREADS, kernel: 'js' }],
      ['js, 1 thread', { threads: 1, kernel: 'js' }],
      ['reads only (no kernel), 2 threads', { threads: THREADS, kernel: 'none' }],
      ['reads only (no kernel), 1 thread', { threads: 1, kernel: 'none' }],
    ] as const;
    if (!values['skip-kernels']) {
      const searchers = configs.map(([, opts]) => keyfile.KeyFileSearcher.open(path, { ...opts, chunkRecords: CHUNK }));
      try {
        // One round to warm each (threads start, code is compiled), then rounds in turns, so that
        // each configuration sees the same load of a shared machine.
        const ms: number[][] = configs.map(() => []);
        for (let turn = -1; turn < few.length; turn++) {
          for (let c = 0; c < configs.length; c++) {
            const r = await timeQueries(searchers[c], [few[Math.max(0, turn)] as Uint8Array], 0.9, { bound: 'none' });
            if (turn >= 0) ms[c]?.push(r.ms[0] as number);
          }
        }
        configs.forEach(([name], c) => {
          const m = ms[c] as number[];
          kernels[name] = { plainScanMs: stats(m), millionRecordsPerSecond: round(count / 1e6 / (mean(m) / 1000)), gbPerSecond: round((count * KEY_BYTES) / 1e9 / (mean(m) / 1000)) };
          log(`  ${name}: ${JSON.stringify(kernels[name])}`);
        });
      } finally {
        await Promise.all(searchers.map((k) => k.close()));
      }
    }
    results.kernels = kernels;

    log('screen: first 2,000 candidates');
    const screen: Record<string, unknown> = {};
    // A common fragment, two rarer ones, and a combination few compounds have (so the screen reads
    // every cell with room for its bits: the worst case).
    const union = (names: string[]) => names.map(fragmentKeys).reduce((a, b) => a.map((x, i) => x | (b[i] as number)));
    const screenQueries: [string, Uint8Array][] = [
      ['benzene', fragmentKeys('benzene')],
      ['tetrazole', fragmentKeys('tetrazole')],
      ['steroid', fragmentKeys('steroid')],
      ['steroid + tetrazole + iodo (rare)', union(['steroid', 'tetrazole', 'iodo'])],
    ];
    for (const [frag, q] of screenQueries) {
      const ms: number[] = [];
      let found = 0;
      let read = 0;
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        found = (await s.screen(q, 2000)).length;
        ms.push(performance.now() - t0);
        read = s.lastScan.records;
      }
      screen[frag] = { ms: stats(ms), candidates: found, recordsRead: read, shareRead: round(read / count) };
      log(`  ${frag}: ${JSON.stringify(screen[frag])}`);
    }
    results.screen = screen;

    results.memory = { rssMb: mb(process.memoryUsage().rss), searchPhaseVmHWMMb: hwmReset ? round(status('VmHWM')) : undefined, processVmHWMMb: hwmReset ? undefined : round(status('VmHWM')) };
    results.loadAverageAfter = loadavg().map(round);
    await s.close();
  } finally {
    if (values.keep || values.file) log(`kept ${path}`);
    else if (work) rmSync(work, { recursive: true, force: true });
  }
  writeResults('pubchem-keys', results);
}

runMain(main);
