/**
 * The RCSB file-host benchmark, on a 2,500-atom and a ~100,000-atom GENERATED entry (99,996 atoms:
 * the largest single-chain entry the legacy format still holds). Each figure beside its baseline in
 * the same run and process:
 * - `.cif`: requests/s inflating the stored gzip, beside a bare Fastify route sending the same
 *   inflated bytes from memory; and passing the stored gzip through with Content-Encoding: gzip,
 *   beside a bare route sending the same gzip bytes;
 * - `.bcif` and `.pdb`: the first request (conversion on the worker pool) in ms, then requests/s
 *   from the cache.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/pdb-files.js [--duration 10]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { generatedEntry } from '../synthetic/pdb-generate.js';
import { startAndWait, stop } from './lib/proc.js';
import { ROOT, cannon, log, machine, round, runMain, writeResults, type CannonResult } from './lib/harness.js';

const { values } = parseArgs({ options: { duration: { type: 'string' } } });
const DURATION = Number(values.duration ?? 10);
const ENTRIES = { '9ZB1': 2_500, '9ZB2': 99_996 } as const;

async function cannonWith(url: string, path: string, headers: Record<string, string>): Promise<CannonResult> {
  const r = await autocannon({ url: url + path, connections: 10, duration: DURATION, headers });
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    requests: r.requests.total,
    failed: r.non2xx + r.errors,
  };
}

async function once(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const r = await fetch(url);
  const body = new Uint8Array(await r.arrayBuffer());
  return { ms: round(performance.now() - t0), status: r.status, bytes: body.byteLength };
}

runMain(async () => {
  const work = mkdtempSync(join(tmpdir(), 'biomirror-pdb-bench-'));
  const results: Record<string, unknown> = { machine: machine(), durationSeconds: DURATION };
  try {
    for (const [id, atoms] of Object.entries(ENTRIES)) {
      const text = generatedEntry(id, atoms);
      writeFileSync(join(work, `${id.toLowerCase()}.cif.gz`), gzipSync(text));
      results[`${id}-sizes`] = { atoms, cifBytes: text.length };
    }
    const { child, match } = await startAndWait(process.execPath, [join(ROOT, 'dist-bench', 'bench', 'pdb-files-server.js'), work], process.env, /pdb files listening on (http:\/\/[\d.:]+)/);
    const url = match[1] as string;
    try {
      for (const [id, atoms] of Object.entries(ENTRIES)) {
        const lower = id.toLowerCase();
        log(`${id} (${atoms} atoms): bare route, .cif inflated, .cif gzip pass-through`);
        const bare = await cannon(url, () => `/bare/${id}`, DURATION);
        const inflate = await cannon(url, () => `/rcsb/files/download/${lower}.cif`, DURATION);
        const bareGz = await cannonWith(url, `/bare-gz/${id}`, { 'accept-encoding': 'gzip' });
        const passThrough = await cannonWith(url, `/rcsb/files/download/${lower}.cif`, { 'accept-encoding': 'gzip' });
        log(`${id}: .bcif and .pdb first conversion, then cached`);
        const conversions: Record<string, unknown> = {};
        // A conversion of another kind first, so the worker thread's start is not in the figures.
        await once(`${url}/rcsb/files/download/${lower}-assembly1.cif`);
        for (const ext of ['bcif', 'pdb']) {
          const first = await once(`${url}/rcsb/files/download/${lower}.${ext}`);
          const second = await once(`${url}/rcsb/files/download/${lower}.${ext}`);
          const cached = await cannon(url, () => `/rcsb/files/download/${lower}.${ext}`, DURATION);
          conversions[ext] = { firstRequestMs: first.ms, status: first.status, bytes: first.bytes, secondRequestMs: second.ms, cached };
        }
        results[id] = {
          atoms,
          cif: {
            bareRoute: bare,
            inflated: inflate,
            inflatedRatioToBare: round(inflate.requestsPerSecond / bare.requestsPerSecond),
            bareGzipRoute: bareGz,
            gzipPassThrough: passThrough,
            passThroughRatioToBareGzip: round(passThrough.requestsPerSecond / bareGz.requestsPerSecond),
          },
          ...conversions,
        };
      }
    } finally {
      await stop(child);
    }
    writeResults('pdb-files', results);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
