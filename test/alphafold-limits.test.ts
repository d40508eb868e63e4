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
      return await Promise.all(Array.from({ length: 12 }, () => t.app.inject({ method: 'GET', url: '/alphafold/api/prediction/P69905', remoteAddress: '10.0.0.7' })));
    } finally {
      await t.close();
    }
  };

  it('answers 10 requests at once and refuses the ones past them with 429, Retry-After and its own body', async () => {
    const answers = await burst({ limits: true });
    // A budget refills one request per 100 ms: a slow machine may let one more through.
    const ok = answers.filter((r) => r.statusCode === 200).length;
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(ok).toBeLessThanOrEqual(11);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(12 - ok);
    expect(refused[0]?.json()).toEqual({ detail: 'Too Many Requests' });
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('refuses nothing when the limits are switched off, globally or for this service', async () => {
    for (const config of [{ limits: false }, { limits: true, services: { alphafold: { limits: 'off' as const } } }]) {
      const answers = await burst(config);
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    }
  });
});
