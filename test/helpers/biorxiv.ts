import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { wellFormedXml } from './tools.js';
import { runLoad, type LoadOptions, type LoadResult } from '../../src/core/ingest/load.js';
import type { Generations } from '../../src/core/store/generations.js';
import { biorxiv } from '../../src/services/biorxiv/index.js';
import type { Config } from '../../src/server/config.js';
import { papers, paperCount, pubRecord, isPublished, writePages, type GenOptions } from '../../synthetic/biorxiv-generate.js';
import { makeApp, type TestApp } from './app.js';
import { tempDir, type OpenedStore } from './stores.js';

const ds = biorxiv.datasets[0];
if (!ds) throw new Error('biorxiv has no dataset');
export const BX_DATASET = ds;
export const BX_DEMO = ds.demo as string;
/** Where the service answers in tests (the shared port's mount). */
export const BX = '/biorxiv';

export type Envelope = { messages: Record<string, unknown>[]; collection: Record<string, unknown>[] };

export function bxApp(store: OpenedStore, opts: { config?: Partial<Config>; prefixed?: boolean } = {}): Promise<TestApp> {
  return makeApp(store, { services: [biorxiv], prefixed: opts.prefixed ?? true, ...(opts.config ? { config: opts.config } : {}) });
}

export function loadPreprints(store: OpenedStore, generations: Generations, input: string, opts: LoadOptions = {}): Promise<LoadResult> {
  return runLoad(store.db, generations, BX_DATASET, input, opts);
}

export async function get(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url });
  let body: unknown;
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body: body as Envelope, headers: res.headers, raw: res.body, bytes: res.rawPayload };
}

const scratchDirs: string[] = [];

/** A temporary folder, removed by `removeScratch`. */
export function scratch(): string {
  const dir = tempDir('biorxiv-test-');
  scratchDirs.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The first `n` generated version records as saved pages, plus the pubs page of their published papers. */
export function generatedInput(n: number, opts: GenOptions = {}): string {
  const dir = scratch();
  writePages(dir, 'details', papers(n, opts));
  const pubs = Array.from({ length: paperCount(n) }, (_, p) => p)
    .filter(isPublished)
    .map((p) => pubRecord(p, opts));
  writePages(dir, 'pubs', pubs);
  return dir;
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

/** Checks well-formedness (xmllint, or a strict parser where it is missing); returns the complaint, empty when well formed. */
export function xmllint(xml: string | Buffer): string {
  return wellFormedXml(xml);
}

/** The text of a PDF, by pdftotext. */
export function pdfText(pdf: Buffer): string {
  const r = spawnSync('pdftotext', ['-', '-'], { input: pdf });
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr.toString()}`);
  return r.stdout.toString('utf8');
}
