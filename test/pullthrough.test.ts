/**
 * Pull-through: biomirror B, empty, asks biomirror A (demo data) on a miss, answers as A does,
 * keeps the answer and serves it once A is gone, also after a restart; a fake upstream checks the
 * pace toward a host, the 429/503/timeout answers, and that private requests never leave.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCifPool } from '../src/core/mmcif/index.js';
import { KeptStore } from '../src/core/pullthrough/store.js';
import { exportKept, importKept } from '../src/core/pullthrough/transfer.js';
import { publicTarget } from '../src/core/pullthrough/upstreams.js';
import { requestKey } from '../src/core/pullthrough/keys.js';
import { Generations } from '../src/core/store/generations.js';
import { migrate } from '../src/core/store/migrations.js';
import { type Config } from '../src/server/config.js';
import { SERVICES } from '../src/services/registry.js';
import type { ServiceModule } from '../src/services/types.js';
import { DEMO, loadStudies } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { serveOn, type Running } from './helpers/pullthrough.js';

const IDS = ['clinicaltrials', 'eutils', 'datasets', 'pubchem', 'protocols', 'gwas', 'biorxiv', 'pgx', 'rcsb-data', 'rcsb-search', 'rcsb-files', 'rcsb-www', 'alphafold'];
const services = SERVICES.filter((s) => IDS.includes(s.id));
const service = (id: string) => SERVICES.find((s) => s.id === id) as ServiceModule;

/** One biomirror on a free port over `store` (the shared-port layout). */
const serve = (store: OpenedStore, opts: { demo?: boolean; pullThrough?: Partial<Config['pullThrough']>; list?: ServiceModule[] } = {}): Promise<Running> =>
  serveOn(store, opts.list ?? services, opts);

interface Answer {
  status: number;
  type: string | null;
  body: string;
  source: string | null;
  headers: Headers;
}

async function ask(base: string, req: Example): Promise<Answer> {
  const r = await fetch(`${base}${req.path}`, {
    method: req.method ?? 'GET',
    ...(req.body !== undefined ? { body: req.body, headers: { 'content-type': req.type ?? 'application/json', ...req.headers } } : { headers: req.headers ?? {} }),
  });
  return { status: r.status, type: r.headers.get('content-type'), body: await r.text(), source: r.headers.get('x-biomirror-source'), headers: r.headers };
}

/** A body as compared: the Search API's query_id is new with every answer, upstream as here. */
const same = (body: string | undefined) => body?.replace(/"query_id":"[0-9a-f-]{36}"/, '"query_id":"…"');

interface Example {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  type?: string;
  headers?: Record<string, string>;
}

/** A README example of every read-only service, and the query POSTs. */
const EXAMPLES: Example[] = [
  { path: '/clinicaltrials/api/v2/studies/NCT02513394' },
  { path: '/pubchem/rest/pug/compound/name/aspirin/property/MolecularFormula,MolecularWeight,IsomericSMILES/JSON' },
  { path: '/eutils/esummary.fcgi?db=gene&id=672&retmode=json' },
  { path: '/rcsb/data/rest/v1/core/entry/4HHB' },
  { path: '/alphafold/api/prediction/P69905' },
  { path: '/gwas/rest/api/studies/GCST000392' },
  { path: '/biorxiv/details/biorxiv/2024-01-01/2024-01-31' },
  { path: '/pgx/v1/gene/CYP2D6' },
  { path: '/datasets/v2alpha/gene/id/672' },
  { path: '/rcsb/data/graphql', method: 'POST', body: JSON.stringify({ query: '{ entry(entry_id: "4HHB") { struct { title } } }' }) },
  { path: '/eutils/esummary.fcgi', method: 'POST', body: 'db=gene&id=672&retmode=json', type: 'application/x-www-form-urlencoded' },
  {
    path: '/rcsb/search/rcsbsearch/v2/query',
    method: 'POST',
    body: JSON.stringify({ query: { type: 'terminal', service: 'text', parameters: { attribute: 'exptl.method', operator: 'exact_match', value: 'X-RAY DIFFRACTION' } }, return_type: 'entry' }),
  },
  { path: '/rcsb/files/download/4hhb.cif' },
  { path: '/rcsb/www/fasta/entry/4hhb' },
  { path: '/gwas/summary-statistics/api/studies' },
];

describe('pull-through keys and upstream addresses', () => {
  it('maps a service path to the real URL, once, and keys requests without the caller identity', () => {
    expect(publicTarget(service('eutils'), '/esummary.fcgi')?.publicUrl.href).toBe('https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esummary.fcgi');
    expect(publicTarget(service('eutils'), '/entrez/eutils/esummary.fcgi')?.publicUrl.href).toBe('https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esummary.fcgi');
    expect(publicTarget(service('clinicaltrials'), '/api/v2/studies/NCT1')?.publicUrl.href).toBe('https://clinicaltrials.gov/api/v2/studies/NCT1');
    expect(publicTarget(service('biorxiv'), '/content/10.1101/x')?.host).toBe('www.biorxiv.org');
    expect(publicTarget(service('biorxiv'), '/details/biorxiv/10.1101/x')?.host).toBe('api.biorxiv.org');
    expect(publicTarget(service('alphafold'), '/api/prediction/P1')?.publicUrl.href).toBe('https://alphafold.ebi.ac.uk/api/prediction/P1');
    expect(publicTarget(service('gwas'), '/summary-statistics/api/studies')?.publicUrl.href).toBe('https://www.ebi.ac.uk/gwas/summary-statistics/api/studies');
    expect(publicTarget(service('exec'), '/api/skills')).toBeUndefined();
    const u = new URL('https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esummary.fcgi');
    const a = requestKey('GET', 'eutils', u, [
      ['id', '2'],
      ['db', 'gene'],
      ['id', '1'],
      ['api_key', 'secret'],
      ['email', 'a@b'],
    ]);
    const b = requestKey('GET', 'eutils', u, [
      ['db', 'gene'],
      ['id', '2'],
      ['tool', 'x'],
      ['id', '1'],
    ]);
    expect(a.key).toBe(b.key);
    expect(a.text).not.toContain('secret');
    expect(
      requestKey('GET', 'eutils', u, [
        ['db', 'gene'],
        ['id', '1'],
        ['id', '2'],
      ]).key,
    ).not.toBe(a.key);
    const j1 = requestKey('POST', 'rcsb-data', u, [], { type: 'json', value: { a: 1, b: [1, 2] } });
    const j2 = requestKey('POST', 'rcsb-data', u, [], { type: 'json', value: { b: [1, 2], a: 1 } });
    expect(j1.key).toBe(j2.key);
  });
});

for (const target of STORES) {
  describe(`pull-through from another biomirror (${target.name})`, () => {
    const opened: OpenedStore[] = [];
    let storeB: OpenedStore;
    let a: Running;
    const fromA: Answer[] = [];
    const open = async () => {
      const s = await target.open();
      opened.push(s);
      return s;
    };

    beforeAll(async () => {
      a = await serve(await open(), { demo: true });
      for (const e of EXAMPLES) fromA.push(await ask(a.url, e));
      storeB = await open();
    }, 180_000);

    afterAll(async () => {
      await a.close().catch(() => undefined);
      await closeCifPool();
      for (const s of opened) await s.cleanup();
    });

    it('answers as the upstream does, keeps it, and serves it once the upstream is gone and after a restart', async () => {
      for (const [i, e] of EXAMPLES.entries()) expect(fromA[i]?.status, e.path).toBe(200);
      let b = await serve(storeB, { pullThrough: { enabled: true, upstream: a.url } });
      try {
        for (const [i, e] of EXAMPLES.entries()) {
          const got = await ask(b.url, e);
          const want = fromA[i] as Answer;
          expect({ status: got.status, type: got.type, body: same(got.body) }, e.path).toEqual({ status: want.status, type: want.type, body: same(want.body) });
          expect(got.source, e.path).toMatch(/^upstream 127\.0\.0\.1:\d+ \d{4}-\d\d-\d\dT/);
        }
        const status = (await (await fetch(`${b.url}/status`)).json()) as { services: { id: string; pullThrough: { count: number; bytes: number; oldest: string | null } }[] };
        const ct = status.services.find((s) => s.id === 'clinicaltrials')?.pullThrough;
        expect(ct?.count).toBe(1);
        expect(ct?.bytes).toBeGreaterThan(100);
        expect(ct?.oldest).toMatch(/^\d{4}-/);
        expect(status.services.find((s) => s.id === 'eutils')?.pullThrough.count).toBe(2);
      } finally {
        await b.close();
      }
      await a.close();
      // Restarted offline (no pull-through), with the upstream gone: the kept answers still answer.
      b = await serve(storeB);
      try {
        for (const [i, e] of EXAMPLES.entries()) {
          const got = await ask(b.url, e);
          expect({ status: got.status, type: got.type, body: same(got.body) }, e.path).toEqual({ status: fromA[i]?.status, type: fromA[i]?.type, body: same(fromA[i]?.body) });
          expect(got.source, e.path).toMatch(/^upstream /);
        }
        // Something never kept is still the local "no data loaded" answer.
        const miss = await ask(b.url, { path: '/clinicaltrials/api/v2/studies/NCT00000001' });
        expect(miss.status).toBe(404);
        expect(miss.body).toMatch(/No data is loaded/);
      } finally {
        await b.close();
      }
    }, 120_000);

    it('exports kept answers that another biomirror imports and serves offline; clear empties it', async () => {
      const file = join(tempDir(), 'kept.jsonl.gz');
      const n = await exportKept(await KeptStore.open(storeB.db), file);
      expect(n).toBe(EXAMPLES.length);
      const storeC = await open();
      const c = await serve(storeC);
      try {
        const kept = await KeptStore.open(storeC.db);
        expect(await importKept(kept, file)).toBe(EXAMPLES.length);
        for (const [i, e] of EXAMPLES.entries()) {
          const got = await ask(c.url, e);
          expect({ status: got.status, body: same(got.body) }, e.path).toEqual({ status: fromA[i]?.status, body: same(fromA[i]?.body) });
        }
        expect(await kept.clear('clinicaltrials')).toBe(1);
        expect((await ask(c.url, EXAMPLES[0] as Example)).status).toBe(404);
        expect((await ask(c.url, EXAMPLES[3] as Example)).status).toBe(200);
        await kept.clear();
        expect(await kept.summary()).toEqual([]);
      } finally {
        await c.close();
      }
    });
  });
}

/** A stand-in upstream: records what reached it, answers by path. */
class Fake {
  readonly seen: { path: string; at: number; headers: IncomingMessage['headers'] }[] = [];
  private server: Server | undefined;
  url = '';
  constructor(private readonly handle: (req: IncomingMessage, res: ServerResponse) => void) {}
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.seen.push({ path: req.url ?? '', at: Date.now(), headers: req.headers });
      this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe('pull-through toward a fake upstream', () => {
  const fake = new Fake((req, res) => {
    const path = req.url ?? '';
    if (path.startsWith('/eutils/esummary.fcgi?db=gene&id=42')) {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' }).end('slow down');
    } else if (path.startsWith('/eutils/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path }));
    } else if (path.startsWith('/pubchem/')) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
    } else if (path.startsWith('/gwas/')) {
      // Never answers.
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }
  });
  let store: OpenedStore;
  let b: Running;
  beforeAll(async () => {
    await fake.start();
    store = await (STORES[0] as (typeof STORES)[number]).open();
    // ClinicalTrials.gov has data here: its loaded records must win over the upstream.
    for (const s of services) await migrate(store.db, s.id, s.migrations);
    await loadStudies(store, new Generations(store.db), DEMO);
    b = await serve(store, { pullThrough: { enabled: true, upstream: fake.url, retries: 1, maxRetryWaitMs: 3000, timeoutMs: 600 } });
  });
  afterAll(async () => {
    await b.close();
    await fake.stop();
    await store.cleanup();
  });

  it('spaces requests toward a host at its rate (E-utilities without a key: 3 per second)', async () => {
    const ids = [101, 102, 103, 104];
    const t0 = Date.now();
    const answers = await Promise.all(ids.map((id) => ask(b.url, { path: `/eutils/esummary.fcgi?db=gene&id=${id}&api_key=callers` })));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200]);
    const at = fake.seen.filter((s) => /id=10[1-4]/.test(s.path)).map((s) => s.at);
    expect(at).toHaveLength(4);
    // Sent 333 ms apart; seen on arrival, where a busy machine can delay one more than the next.
    for (let i = 1; i < at.length; i++) expect((at[i] as number) - (at[i - 1] as number)).toBeGreaterThanOrEqual(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    // The caller's key is neither forwarded nor kept; biomirror names itself.
    expect(fake.seen.some((s) => s.path.includes('callers'))).toBe(false);
    expect(fake.seen[0]?.headers['user-agent']).toMatch(/^biomirror\/\d/);
    const again = await ask(b.url, { path: '/eutils/esummary.fcgi?db=gene&id=101' });
    expect(again.source).toMatch(/^upstream /);
    expect(fake.seen.filter((s) => s.path.includes('id=101'))).toHaveLength(1);
  });

  it('answers 503 in the service error shape after a 429 with Retry-After, retried once', async () => {
    const t0 = Date.now();
    const r = await ask(b.url, { path: '/eutils/esummary.fcgi?db=gene&id=42' });
    expect(r.status).toBe(503);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(fake.seen.filter((s) => s.path.includes('id=42'))).toHaveLength(2);
    const shape = service('eutils').errors.badRequest('x', 503, '/eutils/esummary.fcgi');
    expect(r.type).toBe(shape.contentType);
    expect(r.body).toMatch(/upstream eutils\.ncbi\.nlm\.nih\.gov .*answered 429/);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.source).toBeNull();
  });

  it('answers 503 after upstream 503s and 504 when the upstream never answers, neither kept', async () => {
    const busy = await ask(b.url, { path: '/pubchem/rest/pug/compound/cid/2244/JSON' });
    expect(busy.status).toBe(503);
    expect(busy.type).toBe(service('pubchem').errors.badRequest('x', 503, '/').contentType);
    expect(busy.body).toMatch(/answered 503/);
    const t0 = Date.now();
    const hung = await ask(b.url, { path: '/gwas/rest/api/studies/GCST000001' });
    expect(hung.status).toBe(504);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(hung.type).toBe(service('gwas').errors.badRequest('x', 504, '/').contentType);
    expect(hung.body).toMatch(/did not answer within 0\.6 s/);
    const kept = await (await KeptStore.open(store.db)).summary();
    expect(kept.map((k) => k.service)).toEqual(['eutils']);
  });

  it('never forwards nor keeps private requests of the protocol service, nor answers naming expiring state', async () => {
    const before = fake.seen.length;
    await ask(b.url, { path: '/protocols/api/v3/protocols/private-one', headers: { authorization: 'Bearer secret' } });
    await ask(b.url, { path: '/protocols/api/v3/oauth/token', method: 'POST', body: 'grant_type=password&username=a&password=b', type: 'application/x-www-form-urlencoded' });
    await ask(b.url, { path: '/protocols/login' });
    expect(fake.seen.slice(before).filter((s) => s.path.startsWith('/protocols'))).toEqual([]);
    // Forwarded, not kept: a WebEnv names the upstream history server's state.
    const r = await ask(b.url, { path: '/eutils/esummary.fcgi?db=gene&query_key=1&WebEnv=MCID_1' });
    expect(r.status).toBe(200);
    const kept = await (await KeptStore.open(store.db)).summary();
    expect(kept.find((k) => k.service === 'protocols')).toBeUndefined();
    expect(kept.find((k) => k.service === 'eutils')?.count).toBe(4);
  });

  it('never replaces a loaded record, and asks the upstream for a record the loaded data lacks', async () => {
    const loaded = await ask(b.url, { path: '/clinicaltrials/api/v2/studies/NCT02513394' });
    expect(loaded.status).toBe(200);
    expect(loaded.source).toBeNull();
    const search = await ask(b.url, { path: '/clinicaltrials/api/v2/studies?query.cond=melanoma' });
    expect(search.status).toBe(200);
    expect(search.source).toBeNull();
    expect(fake.seen.filter((s) => s.path.startsWith('/clinicaltrials/'))).toEqual([]);
    const missing = await ask(b.url, { path: '/clinicaltrials/api/v2/studies/NCT99999999' });
    expect(missing.status).toBe(200);
    expect(missing.body).toBe('{}');
    expect(missing.source).toMatch(/^upstream 127\.0\.0\.1:/);
    expect(fake.seen.map((s) => s.path)).toContain('/clinicaltrials/api/v2/studies/NCT99999999');
  });
});

for (const target of STORES) {
  describe(`pull-through pace shared by the servers of one database (${target.name})`, () => {
    it('spaces the requests of two servers toward one host at its rate, as one queue', async () => {
      const fake = new Fake((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })));
      await fake.start();
      const store = await target.open();
      const list = [service('eutils')];
      // Two servers over one database: what two processes of `serve --workers 2` are.
      const one = await serveOn(store, list, { pullThrough: { enabled: true, upstream: fake.url } });
      const two = await serveOn(store, list, { pullThrough: { enabled: true, upstream: fake.url } });
      try {
        const ids = [301, 302, 303, 304];
        const answers = await Promise.all(ids.map((id, i) => ask((i % 2 ? two : one).url, { path: `/eutils/esummary.fcgi?db=gene&id=${id}` })));
        expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200]);
        const at = fake.seen.map((s) => s.at).sort((x, y) => x - y);
        expect(at).toHaveLength(4);
        // E-utilities without a key: 3 a second, 333 ms apart, whichever server sent them (each
        // server alone pacing itself would send its first requests at the same moment).
        for (let i = 1; i < at.length; i++) expect((at[i] as number) - (at[i - 1] as number)).toBeGreaterThanOrEqual(200);
      } finally {
        await one.close();
        await two.close();
        await fake.stop();
        await store.cleanup();
      }
    });
  });
}

describe('pull-through of an answer too large to keep', () => {
  it('passes it on as it arrives, whole, and keeps nothing of it', async () => {
    const first = randomBytes(3 << 20);
    const last = randomBytes(1 << 20);
    let received = 0;
    let release: () => void = () => undefined;
    const clientHasFirst = new Promise<void>((resolve) => (release = resolve));
    let waitedOut = false;
    // The upstream holds back the end of its body until the client has the start: an answer held
    // whole before being passed on would never arrive (and the wait would run out).
    const fake = new Fake((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(first);
      const timeout = new Promise<void>((resolve) => setTimeout(() => ((waitedOut = true), resolve()), 8000));
      void Promise.race([clientHasFirst, timeout]).then(() => res.end(last));
    });
    await fake.start();
    const store = await (STORES[0] as (typeof STORES)[number]).open();
    const b = await serveOn(store, [service('alphafold')], { pullThrough: { enabled: true, upstream: fake.url, maxKeptBytes: 1 << 20 } });
    try {
      const path = '/alphafold/files/AF-P69905-F1-model_v6.cif';
      const r = await fetch(`${b.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-biomirror-source')).toMatch(/^upstream 127\.0\.0\.1:\d+ /);
      const parts: Buffer[] = [];
      for await (const chunk of r.body as AsyncIterable<Uint8Array>) {
        parts.push(Buffer.from(chunk));
        received += chunk.byteLength;
        if (received >= first.length) release();
      }
      expect(waitedOut).toBe(false);
      expect(Buffer.concat(parts).equals(Buffer.concat([first, last]))).toBe(true);
      expect(await (await KeptStore.open(store.db)).summary()).toEqual([]);
      // Not kept: asked again of the upstream.
      const again = await fetch(`${b.url}${path}`);
      expect((await again.arrayBuffer()).byteLength).toBe(first.length + last.length);
      expect(fake.seen).toHaveLength(2);
    } finally {
      release();
      await b.close();
      await fake.stop();
      await store.cleanup();
    }
  }, 60_000);
});
