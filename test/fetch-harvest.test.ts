/**
 * The harvesters against a biomirror server as their upstream: one serves the demo data, the
 * harvest loads what it gets into another database, and both must answer the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../src/cli/fetch/errors.js';
import { fetchAndLoad, type FetchRequest } from '../src/cli/fetch/run.js';
import { BX, BX_DEMO, bxApp, loadPreprints } from './helpers/biorxiv.js';
import { fetchRequest, upstreamAndMirror } from './helpers/fetch.js';
import { addClient, addUser, clientToken, loadProtocols, protoApp } from './helpers/protocols.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const saved = { retries: process.env.BIOMIRROR_FETCH_RETRIES, spacing: process.env.BIOMIRROR_HARVEST_SPACING_MS };
beforeAll(() => {
  process.env.BIOMIRROR_FETCH_RETRIES = '1';
  process.env.BIOMIRROR_HARVEST_SPACING_MS = '0';
});
afterAll(() => {
  for (const [k, v] of [
    ['BIOMIRROR_FETCH_RETRIES', saved.retries],
    ['BIOMIRROR_HARVEST_SPACING_MS', saved.spacing],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function request(s: OpenedStore, service: string, upstreams: string[], extra: Partial<FetchRequest> = {}): FetchRequest {
  return fetchRequest(s, upstreams, { service, ...extra });
}

for (const target of STORES) {
  describe(`harvesting on ${target.name}`, () => {
    it('bioRxiv: pages details and pubs month by month, resumes where it stopped, answers as its upstream, and later asks only for new days', () => {
      let failing = true;
      return upstreamAndMirror(
        target,
        bxApp,
        async ({ a, b, appA, appB, up }) => {
          await loadPreprints(a, appA.generations, BX_DEMO);
          const req = request(b, 'biorxiv', [`biorxiv=${up.url}${BX}`], { opts: { from: '2024-01-01', to: '2024-08-31' } });
          // The upstream fails in May: the harvest stops with what it has, and nothing is loaded.
          const err = await fetchAndLoad(b.db, appB.generations, req).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(FetchError);
          expect((err as Error).message).toMatch(/details\/biorxiv\/2024-05-01\/2024-05-31\/0\/json: the upstream answered 500/);
          expect(await appB.generations.served('biorxiv')).toEqual([]);
          const before = up.requests.length;
          failing = false;
          const load = await fetchAndLoad(b.db, appB.generations, request(b, 'biorxiv', [`biorxiv=${up.url}${BX}`]));
          const resumed = up.requests.slice(before).map((r) => r.path);
          expect(resumed[0]).toBe(`${BX}/details/biorxiv/2024-05-01/2024-05-31/0/json`);
          expect(resumed.filter((p) => p.includes('/details/biorxiv/2024-01-01/'))).toEqual([]);
          expect(load?.records).toBeGreaterThan(0);

          for (const path of [
            '/details/biorxiv/2024-01-01/2024-08-31/0',
            '/details/biorxiv/2024-02-01/2024-05-31/neuroscience',
            '/pubs/biorxiv/2024-01-01/2024-08-31/0',
            '/details/biorxiv/10.5555/2024.01.08.000101',
          ]) {
            const [x, y] = await Promise.all([appA.app.inject(`${BX}${path}`), appB.app.inject(`${BX}${path}`)]);
            expect(y.statusCode, path).toBe(200);
            expect(y.json(), path).toEqual(x.json());
          }
          const [served] = await appB.generations.served('biorxiv');
          expect(served?.source).toBe(`${up.url}${BX}/details/biorxiv and ${up.url}${BX}/pubs/biorxiv (harvested pages)`);

          // A later run asks only for the days after the last one harvested; with nothing new, nothing is reloaded.
          const mark = up.requests.length;
          const again = await fetchAndLoad(b.db, appB.generations, request(b, 'biorxiv', [`biorxiv=${up.url}${BX}`], { opts: { to: '2024-09-30' } }));
          expect(again).toBeUndefined();
          expect(up.requests.slice(mark).map((r) => r.path)).toEqual([`${BX}/details/biorxiv/2024-09-01/2024-09-30/0/json`, `${BX}/pubs/biorxiv/2024-09-01/2024-09-30/0/json`]);
          expect((await appB.generations.served('biorxiv'))[0]?.id).toBe(served?.id);
        },
        { fail: (_n, url) => failing && url.includes('/details/biorxiv/2024-05-01/') },
      );
    });

    it('protocols.io: lists public protocols with a token, fetches each once, answers as its upstream, and later stops at known ones', () =>
      upstreamAndMirror(
        target,
        (s) => protoApp(s),
        async ({ a, b, appA, appB, up }) => {
          await loadProtocols(a.db, appA.generations);
          await addUser(a.db, 'harvester');
          const token = await clientToken(a.db, (await addClient(a.db, 'harvester')).client);
          const upstreams = [`protocols=${up.url}/protocols`];

          const refused = await fetchAndLoad(b.db, appB.generations, request(b, 'protocols', upstreams, { opts: { token: 'not-a-token' } })).catch((e: unknown) => e);
          expect((refused as Error).message).toMatch(/answered 401 .*: the token was refused/);

          // At most two this time, the rest the next time.
          const some = await fetchAndLoad(b.db, appB.generations, request(b, 'protocols', upstreams, { opts: { token, limit: 2 } }));
          expect(some?.records).toBe(2);
          const all = await fetchAndLoad(b.db, appB.generations, request(b, 'protocols', upstreams, { opts: { token } }));
          const got = up.requests.filter((r) => /\/api\/v3\/protocols\/\d+$/.test(r.path)).map((r) => r.path);
          // Each public protocol fetched exactly once; the private ones never.
          expect(got.sort()).toEqual(['90001', '90002', '90003', '90004'].map((id) => `/protocols/api/v3/protocols/${id}`));
          expect(all?.records).toBe(4);
          expect(up.requests.every((r) => r.headers.authorization === `Bearer ${token}` || r.headers.authorization === 'Bearer not-a-token')).toBe(true);

          await addUser(b.db, 'reader');
          const tokenB = await clientToken(b.db, (await addClient(b.db, 'reader')).client);
          for (const id of ['90001', '90002', '90003', '90004']) {
            const [x, y] = await Promise.all([
              appA.app.inject({ url: `/protocols/api/v3/protocols/${id}`, headers: { authorization: `Bearer ${token}` } }),
              appB.app.inject({ url: `/protocols/api/v3/protocols/${id}`, headers: { authorization: `Bearer ${tokenB}` } }),
            ]);
            expect(y.statusCode, id).toBe(200);
            expect(y.json(), id).toEqual(x.json());
          }

          // Once a whole listing has been read, a later run stops at the first page of known protocols.
          const mark = up.requests.length;
          expect(await fetchAndLoad(b.db, appB.generations, request(b, 'protocols', upstreams, { opts: { token } }))).toBeUndefined();
          expect(up.requests.slice(mark).map((r) => r.path)).toEqual(['/protocols/api/v3/protocols?filter=public&order_field=date&order_dir=desc&page_size=100&page_id=1']);
        },
      ));
  });
}
