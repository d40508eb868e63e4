import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureRules, perIp } from '../src/core/limits/limiter.js';
import { resolveConfig } from '../src/server/config.js';
import { MemoryLimitStore } from '../src/core/limits/memory.js';
import type { Draw, LimitStore } from '../src/core/limits/policy.js';
import { RedisLimitStore } from '../src/core/limits/redis.js';
import { DEMO, getJson, loadStudies, makeApp, type TestApp } from './helpers/app.js';
import { REDIS_URL, STORES, type OpenedStore } from './helpers/stores.js';

const draw = (key: string, limit: number, windowMs: number): Draw => ({ key, limit, windowMs, cost: 1 });

interface StoreKind {
  name: string;
  make(): LimitStore;
  /** A second process's view of the same budgets. */
  peer?(): LimitStore;
}

const prefix = `biomirror-test:${randomBytes(4).toString('hex')}:`;
const KINDS: StoreKind[] = [{ name: 'memory', make: () => new MemoryLimitStore() }];
if (REDIS_URL) {
  const url = REDIS_URL;
  KINDS.push({
    name: 'redis',
    make: () => new RedisLimitStore(url, prefix),
    peer: () => new RedisLimitStore(url, prefix),
  });
}

for (const kind of KINDS) {
  describe(`rate-limit store: ${kind.name}`, () => {
    let store: LimitStore;
    beforeAll(() => {
      store = kind.make();
    });
    afterAll(async () => {
      await store.close();
    });

    it('allows a burst of the limit, then refuses with the wait until the next slot', async () => {
      const key = `burst-${Math.random()}`;
      for (let i = 0; i < 5; i++) expect((await store.take([draw(key, 5, 1000)])).allowed).toBe(true);
      const refused = await store.take([draw(key, 5, 1000)]);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(200);
      await new Promise((r) => setTimeout(r, refused.retryAfterMs + 30));
      expect((await store.take([draw(key, 5, 1000)])).allowed).toBe(true);
    });

    it('takes several budgets together or not at all', async () => {
      const perSecond = `s-${Math.random()}`;
      const perMinute = `m-${Math.random()}`;
      for (let i = 0; i < 3; i++) expect((await store.take([draw(perSecond, 10, 1000), draw(perMinute, 3, 60_000)])).allowed).toBe(true);
      const refused = await store.take([draw(perSecond, 10, 1000), draw(perMinute, 3, 60_000)]);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterMs).toBeGreaterThan(15_000);
      // The refused request did not use the per-second budget: 7 more fit in it.
      for (let i = 0; i < 7; i++) expect((await store.take([draw(perSecond, 10, 1000)])).allowed).toBe(true);
      expect((await store.take([draw(perSecond, 10, 1000)])).allowed).toBe(false);
    });

    it('keeps running-time budgets: a check costs nothing, charges fill it, a spent budget refuses', async () => {
      const key = `time-${Math.random()}`;
      const check = { key, limit: 1000, windowMs: 60_000, cost: 0 };
      const first = await store.take([check]);
      expect(first.allowed).toBe(true);
      expect(first.usage?.[0]).toBe(0);
      await store.charge([{ ...check, cost: 600 }]);
      const half = await store.take([check]);
      expect(half.allowed).toBe(true);
      expect(half.usage?.[0]).toBeCloseTo(0.6, 1);
      await store.charge([{ ...check, cost: 600 }]);
      const spent = await store.take([check]);
      expect(spent.allowed).toBe(false);
      expect(spent.retryAfterMs).toBeGreaterThan(5_000);
    });

    if (kind.peer) {
      it('shares one budget between processes', async () => {
        const other = kind.peer?.() as LimitStore;
        try {
          const key = `shared-${Math.random()}`;
          for (let i = 0; i < 4; i++) {
            expect((await store.take([draw(key, 8, 60_000)])).allowed).toBe(true);
            expect((await other.take([draw(key, 8, 60_000)])).allowed).toBe(true);
          }
          expect((await other.take([draw(key, 8, 60_000)])).allowed).toBe(false);
          expect((await store.take([draw(key, 8, 60_000)])).allowed).toBe(false);
        } finally {
          await other.close();
        }
      });
    }

    it('holds at most the limit of in-flight slots per key, frees a slot on release and when its lease lapses', async () => {
      const key = `inflight-${randomBytes(3).toString('hex')}`;
      const a = await store.acquire(key, 2, 60_000);
      const b = await store.acquire(key, 2, 60_000);
      expect(a).toBeDefined();
      expect(b).toBeDefined();
      expect(await store.acquire(key, 2, 60_000)).toBeUndefined();
      await store.release(key, a as string);
      const c = await store.acquire(key, 2, 60_000);
      expect(c).toBeDefined();
      expect(await store.acquire(`${key}-other`, 2, 60_000)).toBeDefined();
      const lapsing = `lapse-${randomBytes(3).toString('hex')}`;
      expect(await store.acquire(lapsing, 1, 50)).toBeDefined();
      expect(await store.acquire(lapsing, 1, 50)).toBeUndefined();
      await new Promise((r) => setTimeout(r, 120));
      expect(await store.acquire(lapsing, 1, 50)).toBeDefined();
    });
  });
}

describe('rate limits when Redis is unreachable', () => {
  it('let requests through rather than fail them', async () => {
    const warnings: string[] = [];
    const store = new RedisLimitStore('redis://127.0.0.1:1', prefix, (m) => warnings.push(m));
    try {
      const d = await store.take([draw('x', 1, 1000)]);
      expect(d.allowed).toBe(true);
      expect(warnings.join(' ')).toMatch(/not enforced|redis/);
    } finally {
      await store.close();
    }
  });
});

describe('limit configuration', () => {
  const defaults = [perIp('per-ip', 50, 60_000)];
  it('follows the master switch unless a service says otherwise, and numbers can be overridden', () => {
    expect(configureRules(defaults, undefined, true)).toMatchObject({ enabled: true, rules: [{ limit: 50, windowMs: 60_000 }] });
    expect(configureRules(defaults, undefined, false).enabled).toBe(false);
    expect(configureRules(defaults, 'off', true).enabled).toBe(false);
    expect(configureRules(defaults, 'on', false).enabled).toBe(true);
    expect(configureRules(defaults, { 'per-ip': { limit: 5, windowSeconds: 1 } }, true).rules[0]).toMatchObject({ limit: 5, windowMs: 1000 });
    expect(configureRules(defaults, { 'per-ip': { limit: 5 } }, false).enabled).toBe(true);
  });

  it('is off by default: a private mirror promises no public limits; --limits on reproduces them', () => {
    expect(resolveConfig({}, {}).limits).toBe(false);
    expect(resolveConfig({ limits: 'on' }, {}).limits).toBe(true);
    expect(resolveConfig({}, { BIOMIRROR_LIMITS: 'on' }).limits).toBe(true);
  });
});

const B = '/clinicaltrials/api/v2';

for (const kind of KINDS) {
  const target = STORES[0] as (typeof STORES)[number];
  describe(`ClinicalTrials.gov limit of ~50 requests per minute per IP (${kind.name})`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await makeApp(s, { config: { limits: true }, limitStore: kind.make() });
      await loadStudies(s, t.generations, DEMO);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('answers the 51st request in a minute with 429, Retry-After and the registry error body', async () => {
      const ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      for (let i = 0; i < 50; i++) {
        const r = await t.app.inject({ url: `${B}/studies/NCT02710084?fields=NCTId`, remoteAddress: ip });
        expect(r.statusCode, `request ${i + 1}`).toBe(200);
      }
      const r = await t.app.inject({ url: `${B}/studies?pageSize=1`, remoteAddress: ip });
      expect(r.statusCode).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/Too many requests.*50 requests per minute/) } });
      // Another client is not affected.
      const other = await t.app.inject({ url: `${B}/studies?pageSize=1`, remoteAddress: '10.9.9.9' });
      expect(other.statusCode).toBe(200);
    });
  });
}

describe('limits switched off', () => {
  it('never answer 429', async () => {
    const s = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await makeApp(s, { config: { limits: false } });
    try {
      for (let i = 0; i < 70; i++) expect((await getJson(t.app, `${B}/studies?pageSize=1`)).status).toBe(200);
    } finally {
      await t.close();
      await s.cleanup();
    }
  });

  it('per service by configuration, with other numbers for a rule', async () => {
    const s = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await makeApp(s, { config: { limits: true, services: { clinicaltrials: { limits: { 'per-ip': { limit: 2, windowSeconds: 60 } } } } } });
    try {
      expect((await getJson(t.app, `${B}/studies?pageSize=1`)).status).toBe(200);
      expect((await getJson(t.app, `${B}/studies?pageSize=1`)).status).toBe(200);
      expect((await getJson(t.app, `${B}/studies?pageSize=1`)).status).toBe(429);
    } finally {
      await t.close();
      await s.cleanup();
    }
  });
});

describe('running-time and looked-up budgets through the server', () => {
  it('charges handling time after the answer and refuses once it is spent', async () => {
    const s = await (STORES[0] as (typeof STORES)[number]).open();
    const { clinicaltrials } = await import('../src/services/clinicaltrials/index.js');
    const keys: string[] = [];
    const svc = {
      ...clinicaltrials,
      limits: [
        { name: 'time', limit: 30, windowMs: 60_000, unit: 'ms' as const, key: async () => 'everyone' },
        { name: 'per-user', limit: 100, windowMs: 60_000, key: async (x: { headers: Record<string, unknown> }) => (keys.push(String(x.headers['x-user'])), String(x.headers['x-user'])) },
      ],
      limitHeaders: (usage: { rule: { name: string }; fraction: number }[]) => ({
        'x-usage': usage.map((u) => `${u.rule.name}=${Math.round(u.fraction * 100)}`).join(','),
      }),
      routes(app: import('fastify').FastifyInstance) {
        app.get('/slow', async () => {
          await new Promise((r) => setTimeout(r, 20));
          return { ok: true };
        });
      },
    };
    const t = await makeApp(s, { config: { limits: true }, services: [svc] });
    try {
      const first = await t.app.inject({ url: '/clinicaltrials/slow', headers: { 'x-user': 'ann' } });
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-usage']).toBe('time=0,per-user=1');
      await t.app.inject({ url: '/clinicaltrials/slow', headers: { 'x-user': 'ann' } });
      // Two answers of ~20 ms spent the 30 ms budget; the charge lands just after each answer.
      await new Promise((r) => setTimeout(r, 20));
      const refused = await t.app.inject({ url: '/clinicaltrials/slow', headers: { 'x-user': 'ann' } });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: { code: 429 } });
      expect(keys).toEqual(['ann', 'ann', 'ann']);
    } finally {
      await t.close();
      await s.cleanup();
    }
  });
});

describe('in-flight budgets through the server', () => {
  it('answers 429 past the concurrent requests a client may have, and frees the slot when an answer is out', async () => {
    const s = await (STORES[0] as (typeof STORES)[number]).open();
    const { clinicaltrials } = await import('../src/services/clinicaltrials/index.js');
    let open = 0;
    const gate: (() => void)[] = [];
    const svc = {
      ...clinicaltrials,
      limits: [{ name: 'concurrent', limit: 2, windowMs: 60_000, unit: 'concurrent' as const, key: (x: { ip: string }) => `ip:${x.ip}` }],
      routes(app: import('fastify').FastifyInstance) {
        app.get('/hold', async () => {
          open++;
          await new Promise<void>((r) => gate.push(r));
          open--;
          return { ok: true };
        });
        app.get('/quick', async () => ({ ok: true }));
      },
    };
    const t = await makeApp(s, { config: { limits: true }, services: [svc] });
    try {
      const held = [t.app.inject({ url: '/clinicaltrials/hold' }), t.app.inject({ url: '/clinicaltrials/hold' })];
      while (open < 2) await new Promise((r) => setTimeout(r, 5));
      const third = await t.app.inject({ url: '/clinicaltrials/quick' });
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('1');
      gate.splice(0).forEach((r) => r());
      expect((await Promise.all(held)).map((r) => r.statusCode)).toEqual([200, 200]);
      for (let i = 0; i < 5; i++) expect((await t.app.inject({ url: '/clinicaltrials/quick' })).statusCode).toBe(200);
    } finally {
      await t.close();
      await s.cleanup();
    }
  });
});
