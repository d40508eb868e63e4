/** Loading and reading the pharmacogenomics service in tests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { pgx } from '../../src/services/pgx/index.js';
import type { FastifyInstance } from 'fastify';
import { makeApp, type TestApp } from './app.js';
import type { OpenedStore } from './stores.js';

const ds = pgx.datasets[0];
if (!ds) throw new Error('pgx has no dataset');
export const PGX_DATASET = ds;
export const PGX_DEMO = ds.demo as string;
export const P = '/pgx/v1';

export function loadPgx(store: OpenedStore, generations: Generations, input: string, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, PGX_DATASET, input, opts);
}

export function pgxApp(store: OpenedStore, opts: Parameters<typeof makeApp>[1] = {}): Promise<TestApp> {
  return makeApp(store, { services: [pgx], prefixed: true, ...opts });
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  type: string;
  raw: string;
}

export async function get<T = unknown>(app: FastifyInstance, url: string): Promise<Answer<T>> {
  const res = await app.inject({ method: 'GET', url });
  let body: unknown = res.body;
  try {
    body = res.json();
  } catch {
    // not JSON: the raw text is in body
  }
  return { status: res.statusCode, body: body as T, type: String(res.headers['content-type'] ?? ''), raw: res.body };
}

/** Writes files (relative path → content) under `dir` and returns `dir`. */
export function writeTree(dir: string, files: Record<string, string>): string {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

/** A tab-separated table from a header and rows of cells. */
export function tsv(header: string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.join('\t')).join('\n') + '\n';
}
