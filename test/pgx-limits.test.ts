/**
 * The spec's limit for the pharmacogenomics service: at most 2 requests per second, excess answered
 * with 429 and the service's error body. On each database, with the memory budget store and (when
 * configured) Redis.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLimitStore } from '../src/core/limits/memory.js';
import type { LimitStore } from '../src/core/limits/policy.js';
import { RedisLimitStore } from '../src/core/limits/redis.js';
import type { TestApp } from './helpers/app.js';
import { loadPgx, P, PGX_DEMO, pgxApp } from './helpers/pgx.js';
import { REDIS_URL, STORES, type OpenedStore } from './helpers/stores.js';

const KINDS: { name: string; make(): LimitStore }[] = [{ name: 'memory', make: () => new MemoryLimitStore() }];
if (REDIS_URL) {
  const url = REDIS_URL;
  KINDS.push({ name: 'redis', make: () => new RedisLimitStore(url, `biomirror-test:pgx:${randomBytes(4).toString('hex')}:`) });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const target of STORES) {
  for (const kind of KINDS) {
    describe(`pharmacogenomics limit of 2 requests per second on ${target.name} (${kind.name})`, () => {
      let s: OpenedStore;
      let t: TestApp;
      beforeAll(async () => {
        s = await target.open();
        t = await pgxApp(s, { config: { limits: true }, limitStore: kind.make() });
        await loadPgx(s, t.generations, PGX_DEMO);
      });
      afterAll(async () => {
        await t.close();
        await s.cleanup();
      });

      it('answers the third request within a second with 429, Retry-After and the error body', async () => {
        const ip = `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
        const hit = (url: string, remoteAddress = ip) => t.app.inject({ url: `${P}${url}`, remoteAddress });
        expect((await hit('/gene/CYP2D6')).statusCode).toBe(200);
        expect((await hit('/geneDrugPair?gene=CYP2D6')).statusCode).toBe(200);
        const refused = await hit('/clinicalAnnotation?gene=CYP2D6');
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['content-type']).toMatch(/^application\/json/);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(refused.json()).toEqual({ error: 'Too Many Requests', message: expect.stringMatching(/2 requests per second/) });
        // Errors count too, and another client has its own budget.
        expect((await hit('/gene/NOPE')).statusCode).toBe(429);
        expect((await hit('/gene/CYP2D6', '10.8.8.8')).statusCode).toBe(200);
        // The budget refills one request every 500 ms.
        await sleep(550);
        expect((await hit('/gene/CYP2D6')).statusCode).toBe(200);
        expect((await hit('/gene/CYP2D6')).statusCode).toBe(429);
      });
    });
  }
}
