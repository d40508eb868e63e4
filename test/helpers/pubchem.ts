/** Shared setup of the PubChem tests: the service with test budgets, demo loads and requests. */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { runLoad, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { createPubchemService } from '../../src/services/pubchem/index.js';
import type { PubchemOptions } from '../../src/services/pubchem/routes.js';
import type { ServiceModule } from '../../src/services/types.js';
import { makeApp, type TestApp } from './app.js';
import { afterAll, beforeAll } from 'vitest';
import type { OpenedStore, StoreTarget } from './stores.js';
import type { Config } from '../../src/server/config.js';

export const B = '/pubchem/rest/pug';
export const V = '/pubchem/rest/pug_view';

export function pubchemModule(opts: Partial<PubchemOptions> = {}): ServiceModule {
  return createPubchemService({ syncBudgetMs: 2000, maxSearchMs: 20_000, matchThreads: 1, ...opts });
}

export type DatasetName = 'compounds' | 'substances' | 'assays' | 'conformers';

export function dataset(m: ServiceModule, name: DatasetName) {
  const ds = m.datasets.find((d) => d.name === name);
  if (!ds) throw new Error(`no dataset ${name}`);
  return ds;
}

/** Loads the demo data of every dataset (or of the named ones). */
export async function loadDemo(store: OpenedStore, generations: Generations, m: ServiceModule, names: DatasetName[] = ['compounds', 'substances', 'assays', 'conformers']): Promise<LoadResult[]> {
  const out: LoadResult[] = [];
  for (const n of names) {
    const ds = dataset(m, n);
    out.push(await runLoad(store.db, generations, ds, ds.demo as string));
  }
  return out;
}

export async function pubchemApp(store: OpenedStore, opts: Partial<PubchemOptions> = {}, config: Partial<Config> = {}): Promise<{ t: TestApp; m: ServiceModule }> {
  const m = pubchemModule(opts);
  const t = await makeApp(store, { services: [m], prefixed: true, config });
  return { t, m };
}

export interface Res {
  status: number;
  headers: Record<string, unknown>;
  raw: string;
  body: Record<string, unknown>;
  rawPayload: Buffer;
}

export async function req(app: FastifyInstance, url: string, opts: Omit<InjectOptions, 'url'> = {}): Promise<Res> {
  const res = await app.inject({ method: 'GET', url, ...opts });
  let body: Record<string, unknown> = {};
  try {
    body = res.json() as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { status: res.statusCode, headers: res.headers, raw: res.body, body, rawPayload: res.rawPayload };
}

/** A POST with a form body, as pubchempy sends names and SMILES. */
export function post(app: FastifyInstance, url: string, form: Record<string, string>): Promise<Res> {
  return req(app, url, { method: 'POST', payload: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

export function fault(r: Res): { Code: string; Message: string; Details?: string[] } {
  return (r.body as { Fault: { Code: string; Message: string; Details?: string[] } }).Fault;
}

export interface DemoSuite {
  s: OpenedStore;
  t: TestApp;
  m: ServiceModule;
}

/**
 * For a describe block: a store and the service with every demo dataset loaded, opened before its
 * tests and closed after. The members are set once the suite's first hook has run.
 */
export function demoSuite(target: StoreTarget, opts: Partial<PubchemOptions> = {}, names?: DatasetName[]): DemoSuite {
  const suite = {} as DemoSuite;
  beforeAll(async () => {
    suite.s = await target.open();
    Object.assign(suite, await pubchemApp(suite.s, opts));
    await loadDemo(suite.s, suite.t.generations, suite.m, names);
  });
  afterAll(async () => {
    await suite.t.close();
    await suite.s.cleanup();
  });
  return suite;
}
