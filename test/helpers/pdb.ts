import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { rcsbData } from '../../src/services/pdb/data/index.js';
import { makeApp, type TestApp } from './app.js';
import { tempDir, type OpenedStore, type StoreTarget } from './stores.js';

export const DATA = '/rcsb/data';

const [ARCHIVE, COMPONENTS, SIFTS] = rcsbData.datasets;
if (!ARCHIVE || !COMPONENTS || !SIFTS) throw new Error('rcsb-data lacks its datasets');
export { ARCHIVE, COMPONENTS, SIFTS };
export const DEMO_DIR = ARCHIVE.demo as string;

export async function pdbApp(store: OpenedStore, services = [rcsbData]): Promise<TestApp> {
  return makeApp(store, { services });
}

/** For the calling describe: an app of `services` on a fresh database with the demo loaded, handed to `use` with its store, closed after. */
export function withDemoPdb(target: StoreTarget, use: (t: TestApp, store: OpenedStore) => void, services = [rcsbData]): void {
  let store: OpenedStore | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, services);
    await loadDemo(store, t.generations);
    use(t, store);
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    await store?.cleanup();
  });
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

/**
 * A generated variant of the real 4HHB entry (test-only ids such as 9HB1, never shipped): the same
 * chains, with another title, method, resolution and release date, so that queries have
 * something to tell apart.
 */
export function globinVariant(id: string, o: { title: string; method: string; resolution: string; released: string }): Buffer {
  let text = gunzipSync(readFileSync(join(DEMO_DIR, 'archive/hh/4hhb.cif.gz'))).toString('utf8');
  text = text
    .replaceAll('4HHB', id)
    .replaceAll('4hhb', id.toLowerCase())
    .replaceAll('1984-07-17', o.released)
    .replace(/^_struct\.title .*$/m, `_struct.title '${o.title}'`)
    .replace(/^_exptl\.method .*$/m, `_exptl.method '${o.method}'`)
    .replace(/^_refine\.ls_d_res_high .*$/m, `_refine.ls_d_res_high ${o.resolution}`);
  return gzipSync(text);
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

/** The Search API's query path on the shared port. */
export const SEARCH_QUERY = '/rcsb/search/rcsbsearch/v2/query';

/** A search request that must succeed: its body, or {} for 204 (no hits). */
export async function search(app: FastifyInstance, body: Json): Promise<Json> {
  const r = await app.inject({ method: 'POST', url: SEARCH_QUERY, payload: body });
  if (r.statusCode !== 200 && r.statusCode !== 204) throw new Error(`search answered ${r.statusCode}: ${r.body}`);
  return (r.statusCode === 204 ? {} : r.json()) as Json;
}

export async function graphql(app: FastifyInstance, query: string, variables?: Json): Promise<{ status: number; body: Json }> {
  const r = await app.inject({ method: 'POST', url: `${DATA}/graphql`, payload: { query, variables } });
  return { status: r.statusCode, body: r.json() };
}

/** A JSON POST to an app (a Search API query): status, parsed body ({} for a 204) and raw text. */
export async function postJson(app: FastifyInstance, url: string, body: unknown): Promise<{ status: number; body: Json; raw: string }> {
  const r = await app.inject({ method: 'POST', url, payload: body as Json });
  let json: Json = {};
  try {
    json = r.json();
  } catch {
    // 204 has no body.
  }
  return { status: r.statusCode, body: json, raw: r.body };
}

/** Every identifier a Search API query returns (all hits, compact); [] for a 204, and any other status fails the test. */
export async function searchIds(app: FastifyInstance, query: unknown, return_type = 'entry', options: Json = {}): Promise<string[]> {
  const r = await postJson(app, SEARCH_QUERY, { query, return_type, request_options: { return_all_hits: true, results_verbosity: 'compact', ...options } });
  if (r.status === 204) return [];
  expect(r.status, r.raw).toBe(200);
  return r.body.result_set as string[];
}
