import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/server/config.js';
import { alphafold } from '../src/services/alphafold/index.js';
import { makeApp } from './helpers/app.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { loadAf } from './alphafold-fixtures.js';

const target = STORES[0];
if (!target) throw new Error('no store');

describe('AlphaFold DB limits', () => {
  let store: OpenedStore;
  beforeAll(async () => {
    store = await target.open();
  });
  afterAll(async () => {
    await store.cleanup();
  });

  const burst = async (limits: Partial<Config>) => {
    const t = await makeApp(store, { services: [alphafold], config: limits });
    await loadAf(store, t.generations);
    try {
      // Each answer is held back 300 ms (a fault on demand), so all twelve are in flight at once.
      const slow = { 'x-biomirror-fault': 'slow;ms=300' };
      return await Promise.all(Array.from({ length: 12 }, () => t.app.inject({ method: 'GET', url: '/alphafold/api/prediction/P69905', remoteAddress: '10.0.0.7', headers: slow })));
    } finally {
      await t.close();
    }
  };

  it('answers 10 requests at once and refuses the ones past them with 429, Retry-After and its own body', async () => {
    const answers = await burst({ limits: true, faults: true });
    const ok = answers.filter((r) => r.statusCode === 200).length;
    expect(ok).toBe(10);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.json()).toEqual({ detail: 'Too Many Requests' });
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('frees a slot when an answer is out: requests one after another are never refused', async () => {
    const t = await makeApp(store, { services: [alphafold], config: { limits: true } });
    await loadAf(store, t.generations);
    try {
      for (let i = 0; i < 25; i++) expect((await t.app.inject({ method: 'GET', url: '/alphafold/api/prediction/P69905', remoteAddress: '10.0.0.8' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('refuses nothing when the limits are switched off, globally or for this service', async () => {
    for (const config of [
      { limits: false, faults: true },
      { limits: true, faults: true, services: { alphafold: { limits: 'off' as const } } },
    ]) {
      const answers = await burst(config);
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    }
  });
});
