/**
 * The fuzz suite: seeded, bounded mutations of every service's known-good requests. Fails on any
 * 5xx other than the ones upstreams themselves send for a refusal (501 unimplemented, 503 busy, 504
 * a search past its time budget), on any answer without a request id, on a crash, and on any
 * known-good request that answers differently after the bad ones. `npm test` runs a quick pass;
 * FUZZ_RUNS and FUZZ_SEED make a long or different one (docs/operations.md).
 */
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoAccounts } from '../src/services/protocols/demo.js';
import { SERVICES } from '../src/services/registry.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { DEFAULT_CONFIG } from '../src/server/config.js';
import { KNOWN_GOOD, type Seed } from './fuzz/known-good.js';
import { PROTOTYPE_KEYS, apply, mutation, sweep, type Request } from './fuzz/mutations.js';
import { STORES, tempDir, type OpenedStore, type StoreTarget } from './helpers/stores.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REFUSALS = new Set([501, 503, 504]);

/** A server over every service on one of the test databases, its demo loaded. */
function fuzzTarget(target: StoreTarget) {
  const t = {} as { server: RunningServer; base: string; store: OpenedStore; baseline: Map<string, { status: number; body: string | undefined }> };
  t.baseline = new Map();
  beforeAll(async () => {
    t.store = await target.open();
    const o = t.store.options;
    const databaseUrl = o.databaseUrl ? `${o.databaseUrl}${o.databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${o.schema as string}`)}` : undefined;
    t.server = await startServer({ ...DEFAULT_CONFIG, port: 0, dataDir: tempDir(), databaseUrl, limits: false, logLevel: 'silent' }, SERVICES, pino({ level: 'silent' }));
    t.base = t.server.apps[0]?.url as string;
    // The demo client token the protocol seeds carry.
    await ensureDemoAccounts(t.server.runtime.db);
    for (const seeds of Object.values(KNOWN_GOOD)) {
      for (const s of seeds) {
        const a = await send(t.base, { ...s, headers: s.headers ?? {} });
        const b = await send(t.base, { ...s, headers: s.headers ?? {} });
        const [ta, tb] = [await a.text(), await b.text()];
        // Pages with one-time tokens differ between two asks: only their status is compared.
        t.baseline.set(key(s), { status: a.status, body: ta === tb ? ta : undefined });
      }
    }
  }, 120_000);
  afterAll(async () => {
    await t.server?.close();
    await t.store?.cleanup();
  });
  return t;
}

async function send(base: string, r: Request): Promise<Response> {
  const headers: Record<string, string> = { ...r.headers };
  if (r.type && r.body !== undefined) headers['content-type'] = r.type;
  return fetch(base + r.url, {
    method: r.method,
    headers,
    ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}),
    signal: AbortSignal.timeout(20_000),
  });
}

const key = (s: Seed) => `${s.method} ${s.url}`;

describe.each(STORES)('fuzz on $name', (target) => {
  const t = fuzzTarget(target);

  it('has known-good requests for every service in the registry', () => {
    expect(SERVICES.map((s) => s.id).filter((id) => !KNOWN_GOOD[id]?.length)).toEqual([]);
  });

  it('starts from known-good requests that answer 200', () => {
    const bad = [...t.baseline].filter(([, v]) => v.status !== 200).map(([k, v]) => `${v.status} ${k}`);
    expect(bad).toEqual([]);
  });

  for (const service of SERVICES) {
    it(`treats names of object members in every place of a ${service.id} request as unknown names`, async () => {
      const failures: string[] = [];
      for (const seed of KNOWN_GOOD[service.id] ?? []) {
        for (const req of sweep(seed, PROTOTYPE_KEYS)) {
          const r = await send(t.base, req);
          if (r.status >= 500 && !REFUSALS.has(r.status)) failures.push(`${r.status} ${req.method} ${req.url}`);
          await r.arrayBuffer();
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);

    it(`answers every odd request to ${service.id} without a server error`, async () => {
      const seeds = KNOWN_GOOD[service.id] ?? [];
      if (!seeds.length) return;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (seed, ms) => {
          let req: Request = { method: seed.method, url: seed.url, body: seed.body, type: seed.type, headers: { ...seed.headers } };
          for (const m of ms)
            req = apply(
              { method: req.method as Seed['method'], url: req.url, ...(req.body !== undefined ? { body: req.body } : {}), ...(req.type ? { type: req.type } : {}), headers: req.headers },
              m,
            );
          const r = await send(t.base, req);
          const body = await r.text();
          const what = `${req.method} ${req.url.slice(0, 300)} -> ${r.status} ${body.slice(0, 200)}`;
          if (r.status >= 500 && !REFUSALS.has(r.status)) throw new Error(`server error: ${what}`);
          if (!r.headers.get('x-request-id')) throw new Error(`no request id: ${what}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }, 300_000);
  }

  it('still answers every known-good request as before', async () => {
    const changed: string[] = [];
    for (const seeds of Object.values(KNOWN_GOOD)) {
      for (const s of seeds) {
        const r = await send(t.base, { ...s, headers: s.headers ?? {} });
        const text = await r.text();
        const before = t.baseline.get(key(s));
        if (r.status !== before?.status || (before.body !== undefined && text !== before.body)) changed.push(`${r.status} ${key(s)}`);
      }
    }
    expect(changed).toEqual([]);
  }, 120_000);
});
