import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { rcsbData } from '../../src/services/pdb/index.js';
import { makeApp, type TestApp } from './app.js';
import { tempDir, type OpenedStore } from './stores.js';

export const DATA = '/rcsb/data';

const [ARCHIVE, COMPONENTS, SIFTS] = rcsbData.datasets;
if (!ARCHIVE || !COMPONENTS || !SIFTS) throw new Error('rcsb-data lacks its datasets');
export { ARCHIVE, COMPONENTS, SIFTS };
export const DEMO_DIR = ARCHIVE.demo as string;

export async function pdbApp(store: OpenedStore, services = [rcsbData]): Promise<TestApp> {
  return makeApp(store, { services });
}

/** Loads the demo archive, dictionary and SIFTS mapping through the ingest path. */
export async function loadDemo(store: OpenedStore, generations: Generations): Promise<void> {
  for (const ds of [ARCHIVE, COMPONENTS, SIFTS]) {
    if (!ds) continue;
    await runLoad(store.db, generations, ds, ds.demo as string, { source: 'test' });
  }
}

export function loadArchive(store: OpenedStore, generations: Generations, input: string, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, ARCHIVE as never, input, opts);
}

/** A copy of the demo archive's entry files in a fresh folder (to change, add or remove entries). */
export function copyArchive(): string {
  const dir = tempDir();
  const src = join(DEMO_DIR, 'archive');
  for (const sub of readdirSync(src)) {
    mkdirSync(join(dir, sub), { recursive: true });
    cpSync(join(src, sub), join(dir, sub), { recursive: true });
  }
  return dir;
}

export function writeFile(dir: string, rel: string, bytes: Buffer | string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, bytes);
  return p;
}

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function get(app: FastifyInstance, url: string): Promise<{ status: number; body: Json; type: string | undefined; raw: string }> {
  const r = await app.inject({ method: 'GET', url });
  let body: Json;
  try {
    body = r.json();
  } catch {
    body = {};
  }
  return { status: r.statusCode, body, type: r.headers['content-type'] as string | undefined, raw: r.body };
}

export async function graphql(app: FastifyInstance, query: string, variables?: Json): Promise<{ status: number; body: Json }> {
  const r = await app.inject({ method: 'POST', url: `${DATA}/graphql`, payload: { query, variables } });
  return { status: r.statusCode, body: r.json() };
}
