/** `biomirror cache ...`, the pull-through flags, and a load dropping a service's kept answers. */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cacheCommand } from '../src/cli/cache.js';
import { configFrom } from '../src/cli/flags.js';
import { ingestCommand } from '../src/cli/ingest.js';
import { KeptStore, type KeptAnswer } from '../src/core/pullthrough/store.js';
import { openStore } from '../src/core/store/open.js';
import { ConfigError, resolveConfig } from '../src/server/config.js';
import { DEMO } from './helpers/app.js';
import { tempDir } from './helpers/stores.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

function answer(service: string, key: string, body: string): KeptAnswer {
  return {
    key,
    service,
    request: `GET ${service} https://example.org/${key}`,
    status: 200,
    contentType: 'application/json',
    headers: {},
    body: Buffer.from(body),
    upstream: 'example.org',
    fetchedAt: new Date().toISOString(),
  };
}

async function seed(dir: string, answers: KeptAnswer[]): Promise<void> {
  const db = await openStore({ dataDir: dir });
  const store = await KeptStore.open(db);
  for (const a of answers) await store.put(a);
  await db.close();
}

async function kept(dir: string) {
  const db = await openStore({ dataDir: dir });
  try {
    return await (await KeptStore.open(db)).summary();
  } finally {
    await db.close();
  }
}

describe('biomirror cache', () => {
  let out: string[];
  beforeEach(() => {
    out = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => vi.restoreAllMocks());

  it('lists, exports, imports and clears kept answers per service', async () => {
    const a = tempDir();
    await seed(a, [answer('clinicaltrials', 'k1', '{"a":1}'), answer('clinicaltrials', 'k2', '{"b":2}'), answer('pubchem', 'k3', 'x')]);
    expect(await cacheCommand(['list'], { 'data-dir': a })).toBe(0);
    expect(out.join('')).toMatch(/clinicaltrials\t2\t14 B\t\d{4}-/);
    expect(out.join('')).toMatch(/pubchem\t1\t1 B/);

    const file = join(tempDir(), 'ct.jsonl');
    expect(await cacheCommand(['export', 'clinicaltrials'], { 'data-dir': a, out: file })).toBe(0);
    const b = tempDir();
    expect(await cacheCommand(['import', file], { 'data-dir': b })).toBe(0);
    expect((await kept(b)).map((k) => [k.service, k.count, k.bytes])).toEqual([['clinicaltrials', 2, 14]]);

    expect(await cacheCommand(['clear', 'pubchem'], { 'data-dir': a })).toBe(0);
    expect((await kept(a)).map((k) => k.service)).toEqual(['clinicaltrials']);
    expect(await cacheCommand(['clear'], { 'data-dir': a })).toBe(0);
    expect(await kept(a)).toEqual([]);
  });

  it('refuses a file that is not an export, an unknown service, and export without --out', async () => {
    const dir = tempDir();
    const notExport = join(dir, 'lines.jsonl');
    writeFileSync(notExport, '{"key":"k"}\n');
    expect(await cacheCommand(['import', notExport], { 'data-dir': dir })).toBe(2);
    expect(await cacheCommand(['import', DEMO], { 'data-dir': dir })).toBe(2);
    expect(await cacheCommand(['import', join(dir, 'missing.jsonl')], { 'data-dir': dir })).toBe(2);
    expect(await cacheCommand(['list', 'nonesuch'], { 'data-dir': dir })).toBe(2);
    expect(await cacheCommand(['export'], { 'data-dir': dir })).toBe(2);
    expect(await cacheCommand(['shrink'], { 'data-dir': dir })).toBe(2);
  });

  it('drops the kept answers of a service when its dataset is loaded again, and only of that one', async () => {
    const dir = tempDir();
    await seed(dir, [answer('clinicaltrials', 'k1', '{}'), answer('pubchem', 'k2', '{}')]);
    expect(await ingestCommand(['clinicaltrials', DEMO], { 'data-dir': dir })).toBe(0);
    expect((await kept(dir)).map((k) => k.service)).toEqual(['pubchem']);
  });
});

describe('pull-through settings', () => {
  it('reads the flags and the environment, and refuses what cannot be', () => {
    const c = resolveConfig({ pullThrough: true, upstream: 'http://127.0.0.1:9000/', upstreamTimeout: '2.5' }, { NCBI_API_KEY: 'k' });
    expect(c.pullThrough).toMatchObject({ enabled: true, upstream: 'http://127.0.0.1:9000', timeoutMs: 2500, ncbiApiKey: 'k', retries: 2 });
    expect(resolveConfig({}, { BIOMIRROR_PULL_THROUGH: 'on' }).pullThrough.enabled).toBe(true);
    expect(resolveConfig({}, {}).pullThrough.enabled).toBe(false);
    expect(() => resolveConfig({ upstream: 'not a url' }, {})).toThrow(ConfigError);
    expect(() => resolveConfig({ upstreamTimeout: '0' }, {})).toThrow(ConfigError);
    expect(() => configFrom({ 'pull-through': true, offline: true })).toThrow(ConfigError);
  });

  it.runIf(existsSync(CLI))('names the flags and the cache commands in --help', () => {
    const r = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout).toContain('--pull-through');
    expect(r.stdout).toContain('--offline');
    expect(r.stdout).toContain('--upstream URL');
    expect(r.stdout).toContain('biomirror cache list [service]');
  });
});
