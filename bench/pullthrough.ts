/**
 * Pull-through benchmark: a kept answer's latency beside a loaded record's, same service, same run.
 * 400 generated ClinicalTrials.gov studies: server B loads the first 200, server A the other 200,
 * and B asks A on a miss. Each of A's studies is pulled through B once (the cold figure: A's answer
 * through the upstream client, kept), then served from B's kept answers with A gone; the loaded
 * figure is B's own 200 studies (documents of the same generator, so of like sizes). Requests go
 * over a socket with fetch, alternating kept and loaded.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/pullthrough.js [--runs 2000]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { generateStudy } from '../synthetic/ct-generate.js';
import { ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';

type Runtime = { db: unknown; generations: unknown; close(): Promise<void> };
const dist = (p: string) => import(join(ROOT, 'dist', p));
const { buildApp } = (await dist('server/app.js')) as { buildApp(deps: unknown, services: unknown, prefixed: boolean): Promise<FastifyInstance> };
const { resolveConfig } = (await dist('server/config.js')) as {
  resolveConfig(o: Record<string, unknown>, env?: Record<string, string>): Record<string, unknown> & { pullThrough: Record<string, unknown> };
};
const { openRuntime } = (await dist('server/serve.js')) as {
  openRuntime(config: unknown, services: unknown, log: unknown): Promise<Runtime>;
};
const { runLoad } = (await dist('core/ingest/load.js')) as { runLoad(db: unknown, gen: unknown, ds: unknown, input: string, o: unknown): Promise<unknown> };
const { clinicaltrials } = (await dist('services/clinicaltrials/index.js')) as { clinicaltrials: { datasets: unknown[] } };

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 2000);
const KEPT = 200;
const quiet = pino({ level: 'silent' });

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function server(dir: string, over: Record<string, unknown>) {
  const config = { ...resolveConfig({ dataDir: dir }, {}), ...over };
  const rt = await openRuntime(config, [clinicaltrials], quiet);
  const app = await buildApp({ ...rt, config, log: quiet }, [clinicaltrials], true);
  return { rt, app, config };
}

const pct = (xs: number[], p: number) => round(xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0);

async function timed(url: string): Promise<{ ms: number; source: string | null; status: number; bytes: number }> {
  const t0 = performance.now();
  const r = await fetch(url);
  const body = await r.arrayBuffer();
  return { ms: performance.now() - t0, source: r.headers.get('x-biomirror-source'), status: r.status, bytes: body.byteLength };
}

async function main(): Promise<void> {
  const dirA = mkdtempSync(join(tmpdir(), 'bm-bench-pt-a-'));
  const dirB = mkdtempSync(join(tmpdir(), 'bm-bench-pt-b-'));
  try {
    const studies = (from: number, dir: string) => {
      const file = join(dir, 'studies.jsonl');
      writeFileSync(file, Array.from({ length: KEPT }, (_, i) => JSON.stringify(generateStudy(from + i))).join('\n') + '\n');
      return file;
    };
    const a = await server(dirA, {});
    const fileA = studies(KEPT, dirA);
    await runLoad(a.rt.db, a.rt.generations, clinicaltrials.datasets[0], fileA, { source: fileA });
    const urlA = await listen(a.app);
    // B: its own studies loaded, A as its upstream, and no pause between upstream requests (the
    // pace toward a real host would only measure the queue).
    const b = await server(dirB, {});
    const fileB = studies(0, dirB);
    await runLoad(b.rt.db, b.rt.generations, clinicaltrials.datasets[0], fileB, { source: fileB });
    await b.app.close();
    await b.rt.close();
    const pulled = await server(dirB, { pullThrough: { ...b.config.pullThrough, enabled: true, upstream: urlA, rates: { 'clinicaltrials.gov': 10_000 } } });
    const urlB = await listen(pulled.app);
    const study = (i: number) => `${urlB}/clinicaltrials/api/v2/studies/NCT${String(90_000_000 + i).padStart(8, '0')}`;

    log(`pulling ${KEPT} generated studies through B from A`);
    const cold: number[] = [];
    const bytes: number[] = [];
    for (let i = 0; i < KEPT; i++) {
      const r = await timed(study(KEPT + i));
      if (r.status !== 200 || !r.source) throw new Error(`study ${i}: ${r.status} ${r.source}`);
      cold.push(r.ms);
      bytes.push(r.bytes);
    }
    await a.app.close();
    await a.rt.close();

    // Warm-up, then alternating kept and loaded answers from B alone.
    for (let i = 0; i < 200; i++) {
      await timed(study(KEPT + (i % KEPT)));
      await timed(study(i % KEPT));
    }
    const kept: number[] = [];
    const loaded: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const k = await timed(study(KEPT + (i % KEPT)));
      if (!k.source) throw new Error('a kept answer without its provenance');
      kept.push(k.ms);
      const l = await timed(study(i % KEPT));
      if (l.source) throw new Error('a loaded record answered from kept answers');
      loaded.push(l.ms);
    }
    const summary = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return { mean: round(s.reduce((t, x) => t + x, 0) / s.length), p50: pct(s, 50), p90: pct(s, 90), p99: pct(s, 99) };
    };
    await pulled.app.close();
    await pulled.rt.close();
    writeResults('pullthrough', {
      machine: machine(),
      runs: RUNS,
      keptStudies: KEPT,
      meanBytes: Math.round(bytes.reduce((t, x) => t + x, 0) / bytes.length),
      ms: { loadedRecord: summary(loaded), keptAnswer: summary(kept), firstPullFromUpstreamBiomirror: summary(cold) },
    });
  } finally {
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  }
}

runMain(main);
