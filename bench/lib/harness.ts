/**
 * What every benchmark script shares: the load generator, the machine description, the built CLI,
 * a PostgreSQL schema of its own for a run, and where results go.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from '../../synthetic/root.js';

export { ROOT };

export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

export const round = (x: number) => Math.round(x * 100) / 100;

export function log(msg: string): void {
  process.stderr.write(`${msg}\n`);
}

export function machine() {
  return { cpus: availableParallelism(), model: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version };
}

export interface CannonResult {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  requests: number;
  failed: number;
}

/** autocannon for `seconds` with `connections` clients, each request's path from `paths`. */
export async function cannon(url: string, paths: () => string, seconds: number, connections = 10): Promise<CannonResult> {
  const r = await autocannon({ url, connections, duration: seconds, requests: [{ setupRequest: (req) => ({ ...req, path: paths() }) }] });
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    requests: r.requests.total,
    failed: r.non2xx + r.errors,
  };
}

/** The generation a dataset is served from, as `biomirror status` reports it. */
export function activeGeneration(env: NodeJS.ProcessEnv, service: string, dataset?: string): number {
  const out = execFileSync(process.execPath, [CLI, 'status', '--json'], { env, encoding: 'utf8' });
  const report = JSON.parse(out) as { services: { id: string; datasets: { dataset: string; generation: number }[] }[] };
  const ds = report.services.find((s) => s.id === service)?.datasets ?? [];
  return (dataset ? ds.find((d) => d.dataset === dataset) : ds[0])?.generation as number;
}

/** Runs `fn` with a URL whose connections use a fresh schema, dropped afterwards. */
export async function withSchema<T>(url: string, fn: (schemaUrl: string) => Promise<T>): Promise<T> {
  const schema = `bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    return await fn(`${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`);
  } finally {
    // BENCH_KEEP leaves the data for a look afterwards, as it leaves the work folder.
    if (process.env.BENCH_KEEP) log(`kept schema ${schema}`);
    else await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

/** Writes the results under bench/results/ and prints them. */
export function writeResults(name: string, results: unknown): void {
  const outDir = join(ROOT, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify(results, null, 2));
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  log(`results written to ${out}`);
}

/** Runs a benchmark's main, printing a failure and setting a non-zero exit code. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
}

/**
 * Runs a measurement on SQLite, then, when a PostgreSQL URL is given, on PostgreSQL in a schema of
 * its own; each result goes into `results` under the database's name.
 */
export async function onEachDatabase(
  results: Record<string, unknown>,
  postgres: string | undefined,
  run: (dialect: 'sqlite' | 'postgres', url: string | undefined) => Promise<unknown>,
): Promise<void> {
  results.sqlite = await run('sqlite', undefined);
  if (postgres) results.postgres = await withSchema(postgres, (url) => run('postgres', url));
}
