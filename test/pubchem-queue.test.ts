/**
 * Non-fast structure searches on the shared queue (BullMQ on Redis): the process that takes the
 * request enqueues, any process runs it, and a search waits in the queue, not lost, while no
 * process can take it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQueue } from '../src/services/pubchem/search/queue.js';
import type { TestApp } from './helpers/app.js';
import { silent } from './helpers/app.js';
import { B, fault, loadDemo, pubchemApp, req } from './helpers/pubchem.js';
import { REDIS_URL, STORES, type OpenedStore } from './helpers/stores.js';

const reason = REDIS_URL ? '' : ' (skipped: needs Redis, TEST_REDIS_URL)';
if (!REDIS_URL && process.env.BIOMIRROR_REQUIRE_REDIS) throw new Error('BIOMIRROR_REQUIRE_REDIS is set but TEST_REDIS_URL is not');

const search = (smiles: string) => `${B}/compound/substructure/smiles/${encodeURIComponent(smiles)}/cids/JSON`;

async function poll(app: TestApp['app'], key: string, ms: number) {
  const until = Date.now() + ms;
  let r = await req(app, `${B}/compound/listkey/${key}/cids/JSON`);
  while (r.status === 202 && Date.now() < until) {
    await new Promise((res) => setTimeout(res, 50));
    r = await req(app, `${B}/compound/listkey/${key}/cids/JSON`);
  }
  return r;
}

describe.skipIf(!REDIS_URL).each(STORES)(`PubChem searches on a shared queue on $name${reason}`, (target) => {
  let store: OpenedStore;
  let front: TestApp;
  let worker: TestApp | undefined;
  const prefix = `bmtest${randomBytes(4).toString('hex')}`;
  const config = { redisUrl: REDIS_URL };

  beforeAll(async () => {
    store = await target.open();
    // The front process only enqueues; the searches run elsewhere.
    const a = await pubchemApp(store, { queuePrefix: prefix, queueWorkers: 0, syncBudgetMs: 300 }, config);
    front = a.t;
    await loadDemo(store, front.generations, a.m);
  });
  afterAll(async () => {
    await front?.close();
    await worker?.close();
    await store?.cleanup();
  });

  it('keeps a search waiting under its list key while no process takes it, then another process answers it', async () => {
    const r = await req(front.app, search('C(=O)O'));
    expect(r.status).toBe(202);
    const key = (r.body.Waiting as { ListKey: string }).ListKey;
    expect((await poll(front.app, key, 600)).status).toBe(202);
    worker = (await pubchemApp(store, { queuePrefix: prefix, syncBudgetMs: 300 }, config)).t;
    const done = await poll(front.app, key, 20_000);
    expect(done.status).toBe(200);
    expect((done.body.IdentifierList as { CID: number[] }).CID).toContain(2244);
  });

  it('answers a query the queue’s worker finds unreadable within the budget with its fault at once', async () => {
    const r = await req(front.app, `${B}/compound/substructure/smiles/${encodeURIComponent('C1CC(')}/cids/JSON`);
    expect(r.status).toBe(400);
    expect(fault(r).Code).toBe('PUGREST.BadRequest');
  });

  it('reads the list at any process', async () => {
    const r = await req(front.app, search('c1ccccc1'));
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const key = (r.body.Waiting as { ListKey: string }).ListKey;
    const there = await poll((worker as TestApp).app, key, 20_000);
    expect(there.status).toBe(200);
  });
});

describe.skipIf(!REDIS_URL)(`the search queue${reason}`, () => {
  it('takes list keys of every size, small ones that read as integers included', async () => {
    const q = new SearchQueue({ redisUrl: REDIS_URL as string, prefix: `bmtest${randomBytes(4).toString('hex')}`, concurrency: 1, lockMs: 30_000 }, silent);
    try {
      const spec = { kind: 'substructure' as const, input: 'smiles' as const, value: 'C', fast: false, threshold: 0.9, maxRecords: 10, maxMs: 1000, identityType: 'same_stereo_isotope' };
      for (const key of ['123', '4611686018427387904']) await expect(q.add({ key, spec, deadlineAt: Date.now() + 1000, client: 'test' })).resolves.toBeUndefined();
    } finally {
      await q.close();
    }
  });

  it('runs a search again at another process when the process that took it is killed mid-search, once', async () => {
    const taker = new URL('./helpers/queue-taker.mjs', import.meta.url);
    if (!existsSync(new URL('../dist/services/pubchem/search/queue.js', import.meta.url))) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    const prefix = `bmtest${randomBytes(4).toString('hex')}`;
    const lockMs = 1500;
    const child = spawn(process.execPath, [taker.pathname, REDIS_URL as string, prefix, String(lockMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const producer = new SearchQueue({ redisUrl: REDIS_URL as string, prefix, concurrency: 1, lockMs }, silent);
    let survivor: SearchQueue | undefined;
    try {
      const taken = new Promise<string>((res) => child.stdout.on('data', (d: Buffer) => res(d.toString().trim())));
      const spec = { kind: 'substructure' as const, input: 'smiles' as const, value: 'C', fast: false, threshold: 0.9, maxRecords: 10, maxMs: 1000, identityType: 'same_stereo_isotope' };
      await producer.add({ key: '777', spec, deadlineAt: Date.now() + 60_000, client: 'test' });
      expect(await taken).toBe('taken 777');
      child.kill('SIGKILL');
      await new Promise((res) => child.once('exit', res));

      const runs: string[] = [];
      survivor = new SearchQueue({ redisUrl: REDIS_URL as string, prefix, concurrency: 1, lockMs }, silent);
      survivor.consume(async (job) => {
        runs.push(job.key);
      });
      const until = Date.now() + 20_000;
      while (runs.length === 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 100));
      expect(runs).toEqual(['777']);
      // Done once: the job is not handed out again.
      await new Promise((res) => setTimeout(res, 2 * lockMs));
      expect(runs).toEqual(['777']);
    } finally {
      child.kill('SIGKILL');
      await survivor?.close();
      await producer.close();
    }
  }, 40_000);
});
