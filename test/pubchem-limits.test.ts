import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLimitStore } from '../src/core/limits/memory.js';
import type { LimitStore } from '../src/core/limits/policy.js';
import { RedisLimitStore } from '../src/core/limits/redis.js';
import { B, fault, loadDemo, pubchemModule, req, type Res } from './helpers/pubchem.js';
import { REDIS_URL, STORES, type OpenedStore } from './helpers/stores.js';
import { makeApp, type TestApp } from './helpers/app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const throttle = (r: Res) => String(r.headers['x-throttling-control'] ?? '');
const HEADER = /^Request Count status: (Green|Yellow|Red|Black) \((\d+)%\), Request Time status: (Green|Yellow|Red|Black) \((\d+)%\), Service status: (Green|Yellow|Red) \((\d+)%\)/;

const KINDS: { name: string; make(): LimitStore }[] = [{ name: 'memory', make: () => new MemoryLimitStore() }];
if (REDIS_URL) {
  const url = REDIS_URL;
  KINDS.push({ name: 'redis', make: () => new RedisLimitStore(url, `biomirror-test:${randomBytes(4).toString('hex')}:`) });
}

for (const target of STORES) {
  for (const kind of KINDS) {
    describe(`PubChem limits on ${target.name} with ${kind.name} budgets`, () => {
      let s: OpenedStore;
      let t: TestApp | undefined;
      beforeAll(async () => {
        s = await target.open();
        const m = pubchemModule();
        const setup = await makeApp(s, { services: [m] });
        await loadDemo(s, setup.generations, m, ['compounds']);
        await setup.close();
      });
      afterEach(async () => {
        await t?.close();
        t = undefined;
      });
      afterAll(async () => {
        await s.cleanup();
      });

      it('allows 5 requests a second, then answers 503 PUGREST.ServerBusy with Retry-After and the throttling state', async () => {
        const a = await makeApp(s, { services: [pubchemModule()], config: { limits: true }, limitStore: kind.make() });
        t = a;
        // Seven requests at once: the budget holds a burst of five.
        const burst = await Promise.all(Array.from({ length: 7 }, () => req(a.app, `${B}/compound/cid/2244/property/MolecularWeight/JSON`)));
        const ok = burst.filter((r) => r.status === 200);
        const refusedAll = burst.filter((r) => r.status === 503);
        expect(ok).toHaveLength(5);
        expect(refusedAll).toHaveLength(2);
        const counts = ok.map((r) => {
          const m = HEADER.exec(throttle(r));
          expect(m, throttle(r)).not.toBeNull();
          return [m?.[1], Number(m?.[2])] as const;
        });
        // Each request takes a fifth of the per-second budget; the colour follows the share: Green below 50%,
        // Yellow below 75%, Red above.
        for (const [colour, pct] of counts) expect(colour).toBe(pct < 50 ? 'Green' : pct < 75 ? 'Yellow' : 'Red');
        expect(Math.min(...counts.map(([, p]) => p))).toBeLessThanOrEqual(25);
        expect(Math.max(...counts.map(([, p]) => p))).toBeGreaterThanOrEqual(75);
        const refused = refusedAll[0] as Res;
        expect(fault(refused)).toMatchObject({ Code: 'PUGREST.ServerBusy', Message: 'Too many requests or server too busy' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(throttle(refused)).toMatch(/^Request Count status: Black \(100%\).*too many requests per second or blacklisted$/);
        // A second later the budget is back; XML requests are refused with an XML fault.
        await sleep(1100);
        const xmlBurst = await Promise.all(Array.from({ length: 7 }, () => req(a.app, `${B}/compound/cid/2244/property/MolecularWeight/XML`)));
        expect(xmlBurst.filter((r) => r.status === 200)).toHaveLength(5);
        const xml = xmlBurst.find((r) => r.status === 503) as Res;
        expect(xml.headers['content-type']).toMatch(/^application\/xml/);
        expect(xml.raw).toMatch(/<Fault[\s\S]*<Code>PUGREST.ServerBusy<\/Code>[\s\S]*<Message>Too many requests or server too busy<\/Message>/);
      });

      it('charges running time: a client past its budget is refused until it recovers', async () => {
        // 40 ms of running time per minute: one depiction spends it.
        const a = await makeApp(s, { services: [pubchemModule({ runningTimeMs: 40 })], config: { limits: true }, limitStore: kind.make() });
        t = a;
        let refused: Res | undefined;
        for (let i = 0; i < 5 && !refused; i++) {
          const r = await req(a.app, `${B}/compound/cid/5291/PNG?image_size=1500x1500`);
          if (r.status === 503) refused = r;
          else expect(r.status).toBe(200);
        }
        expect(refused, 'a request past the running-time budget').toBeDefined();
        expect(fault(refused as Res).Code).toBe('PUGREST.ServerBusy');
        expect(throttle(refused as Res)).toMatch(/Request Time status: Black/);
      });

      it('charges the running time of searches that continue under a list key', async () => {
        // A search that runs 800 ms in the background against a budget of 100 ms; the per-request budget
        // stays at PubChem's 300 s, so only the background work can exceed it.
        const m = pubchemModule({ syncBudgetMs: 0, runningTimeMs: 100, maxSearchMs: 800 });
        const a = await makeApp(s, { services: [m], config: { limits: true, services: { pubchem: { limits: { 'running-time': { limit: 300_000 } } } } }, limitStore: kind.make() });
        t = a;
        const started = await req(a.app, `${B}/compound/substructure/smarts/${encodeURIComponent('[#6].[#6].[#6].[#6].[#6].[#6].[#6;R]')}/cids/JSON`);
        expect(started.status).toBe(202);
        const key = (started.body.Waiting as { ListKey: string }).ListKey;
        let last: Res | undefined;
        for (let i = 0; i < 40; i++) {
          await sleep(250);
          last = await req(a.app, `${B}/compound/listkey/${key}/cids/JSON`);
          if (last.status !== 202) break;
        }
        expect(last?.status, last?.raw).toBe(503);
        expect(throttle(last as Res)).toMatch(/Request Time status: Black/);
        expect(fault(last as Res).Details?.[0]).toMatch(/running time of this client's searches/);
      });

      it('reports Green when limits are switched off, on every answer, errors included', async () => {
        const a = await makeApp(s, { services: [pubchemModule()], config: { limits: false } });
        t = a;
        for (const url of [`${B}/compound/cid/2244/property/MolecularWeight/JSON`, `${B}/compound/cid/x/JSON`, '/pubchem/nowhere']) {
          const r = await req(a.app, url);
          expect(throttle(r), url).toMatch(HEADER);
        }
        for (let i = 0; i < 8; i++) expect((await req(a.app, `${B}/compound/cid/2244/cids/JSON`)).status).toBe(200);
      });
    });
  }
}
