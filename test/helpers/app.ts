import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import { MemoryLimitStore } from '../../src/core/limits/memory.js';
import type { LimitStore } from '../../src/core/limits/policy.js';
import { Generations } from '../../src/core/store/generations.js';
import { migrate } from '../../src/core/store/migrations.js';
import { clinicaltrials } from '../../src/services/clinicaltrials/index.js';
import type { ServiceModule } from '../../src/services/types.js';
import { buildApp } from '../../src/server/app.js';
import { DEFAULT_CONFIG, type Config } from '../../src/server/config.js';
import type { Readiness } from '../../src/server/readiness.js';
import { generateStudy } from '../../synthetic/ct-generate.js';
import { tempDir, type OpenedStore } from './stores.js';

// Errors still reach stderr, so an unexpected 500 in a test shows its cause.
export const silent = pino({ level: 'error' });

export interface TestApp {
  app: FastifyInstance;
  generations: Generations;
  limitStore: LimitStore;
  close(): Promise<void>;
}

export async function makeApp(
  store: OpenedStore,
  opts: { config?: Partial<Config>; services?: ServiceModule[]; limitStore?: LimitStore; prefixed?: boolean; readiness?: Readiness } = {},
): Promise<TestApp> {
  const services = opts.services ?? [clinicaltrials];
  for (const s of services) await migrate(store.db, s.id, s.migrations);
  const generations = new Generations(store.db);
  const limitStore = opts.limitStore ?? new MemoryLimitStore();
  const config: Config = { ...DEFAULT_CONFIG, limits: false, ...opts.config };
  const deps = { config, db: store.db, generations, limitStore, log: silent, storeDescription: store.db.dialect, ...(opts.readiness ? { readiness: opts.readiness } : {}) };
  const app = await buildApp(deps, services, opts.prefixed ?? true);
  await app.ready();
  return {
    app,
    generations,
    limitStore,
    async close() {
      await app.close();
      await limitStore.close();
    },
  };
}

const ct = clinicaltrials.datasets[0];
if (!ct) throw new Error('clinicaltrials has no dataset');
export const CT_DATASET = ct;

export function loadStudies(store: OpenedStore, generations: Generations, input: string, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, CT_DATASET, input, opts);
}

/** Writes `n` synthetic studies as JSON lines and returns the file path. */
export function syntheticFile(n: number, opts: { seed?: number; start?: number; dir?: string } = {}): string {
  const dir = opts.dir ?? tempDir();
  const file = join(dir, `studies-${opts.seed ?? 1}-${opts.start ?? 0}-${n}.jsonl`);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify(generateStudy(i, { seed: opts.seed ?? 1, start: opts.start ?? 0 })));
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

export const DEMO = CT_DATASET.demo as string;

export async function getJson(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url });
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body: body as Record<string, unknown> & { studies?: Record<string, unknown>[] }, headers: res.headers, raw: res.body };
}
