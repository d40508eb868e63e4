import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { gwas } from '../../src/services/gwas/index.js';
import { ssfMeta, writeSsf, type SsfOptions } from '../../synthetic/gwas-generate.js';
import { makeApp, type TestApp } from './app.js';
import type { OpenedStore } from './stores.js';

const [catalogDs, sumstatsDs] = gwas.datasets;
if (!catalogDs || !sumstatsDs) throw new Error('gwas has two datasets');
export const CATALOG_DS = catalogDs;
export const SUMSTATS_DS = sumstatsDs;
export const CATALOG_DEMO = catalogDs.demo as string;
export const SUMSTATS_DEMO = sumstatsDs.demo as string;

export const API = '/gwas/rest/api';
export const SS = '/gwas/summary-statistics/api';

export function gwasApp(store: OpenedStore): Promise<TestApp> {
  return makeApp(store, { services: [gwas], prefixed: true });
}

export function loadCatalog(store: OpenedStore, generations: Generations, input = CATALOG_DEMO, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, CATALOG_DS, input, opts);
}

export function loadSumstats(store: OpenedStore, generations: Generations, input = SUMSTATS_DEMO, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, SUMSTATS_DS, input, opts);
}

/** A generated study in `dir`: `<acc>.tsv[.gz]` and its metadata YAML. */
export async function ssfStudy(dir: string, acc: string, n: number, opts: SsfOptions & { traits?: string[]; gz?: boolean } = {}): Promise<string> {
  const file = join(dir, `${acc}.tsv${opts.gz ? '.gz' : ''}`);
  await writeSsf(file, n, opts);
  writeFileSync(`${file}-meta.yaml`, ssfMeta(acc, opts.traits ?? ['EFO_0000001'], `${acc}.tsv`));
  return file;
}

export type Json = Record<string, unknown>;

export async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  let body: Json = {};
  try {
    body = res.json() as Json;
  } catch {
    body = {};
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.body };
}

/** The path and query of a link, to request it with inject (links carry the full URL). */
export function local(href: string): string {
  const u = new URL(href);
  return u.pathname + u.search;
}
