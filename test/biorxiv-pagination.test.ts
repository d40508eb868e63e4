import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublished, paperCount, papers, pubRecord } from '../synthetic/biorxiv-generate.js';
import { BX, bxApp, generatedInput, get, loadPreprints, removeScratch } from './helpers/biorxiv.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';

const N = 700;
const OPTS = { perDay: 4, start: '2021-03-01' };
const D = `${BX}/details/biorxiv`;
type Rec = Record<string, string>;

// The oracle: the generator's records in page order (date, DOI, version), independent of the store.
const ALL: Rec[] = [...papers(N, OPTS)].sort((a, b) => (a.date! < b.date! ? -1 : a.date! > b.date! ? 1 : a.doi! < b.doi! ? -1 : a.doi! > b.doi! ? 1 : Number(a.version) - Number(b.version)));
const PUBS: Rec[] = Array.from({ length: paperCount(N) }, (_, p) => p)
  .filter(isPublished)
  .map((p) => pubRecord(p, OPTS))
  .sort((a, b) => (a.published_date! < b.published_date! ? -1 : a.published_date! > b.published_date! ? 1 : a.preprint_doi! < b.preprint_doi! ? -1 : 1));
const key = (r: Record<string, unknown>) => `${r.doi as string} v${r.version as string}`;
const within = (from: string, to: string) => ALL.filter((r) => r.date! >= from && r.date! <= to);

/** Follows the cursor in steps of 100 until a page comes back short; returns what it saw. */
async function walk(t: TestApp, base: string, suffix = '') {
  const seen: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  for (let cursor = 0; ; cursor += 100) {
    const r = await get(t.app, `${base}/${cursor}${suffix}`);
    expect(r.status, r.raw).toBe(200);
    const m = r.body.messages[0] as Record<string, unknown>;
    messages.push(m);
    expect(m.cursor).toBe(cursor);
    expect(m.count).toBe(r.body.collection.length);
    seen.push(...r.body.collection);
    if (r.body.collection.length < 100) break;
    expect(cursor).toBeLessThan(10_000);
  }
  return { seen, messages };
}

for (const target of STORES) {
  describe(`bioRxiv pages on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await bxApp(s);
      await loadPreprints(s, t.generations, generatedInput(N, OPTS));
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
      removeScratch();
    });

    it('walks a date range of more than 100 records by cursor, each record once, in order', async () => {
      const { seen, messages } = await walk(t, `${D}/2021-01-01/2022-12-31`);
      expect(seen.map(key)).toEqual(ALL.map(key));
      expect(messages.length).toBe(Math.ceil(N / 100) + (N % 100 === 0 ? 1 : 0));
      for (const m of messages) {
        expect(m.total).toBe(N);
        expect(m.count_new_papers).toBe(String(ALL.filter((r) => r.version === '1').length));
      }
      expect(messages.at(-1)?.status).toBe(N % 100 === 0 ? 'no posts found' : 'ok');
    });

    it('pages a sub-range from any cursor, not only multiples of 100', async () => {
      const range = within('2021-03-20', '2021-05-10');
      expect(range.length).toBeGreaterThan(150);
      const r = await get(t.app, `${D}/2021-03-20/2021-05-10/37/json`);
      expect(r.body.collection.map(key)).toEqual(range.slice(37, 137).map(key));
      expect(r.body.messages[0]).toMatchObject({ cursor: 37, count: 100, total: range.length });
      const tail = await get(t.app, `${D}/2021-03-20/2021-05-10/${range.length - 3}`);
      expect(tail.body.collection.map(key)).toEqual(range.slice(-3).map(key));
    });

    it('walks a category, and the last N records, by cursor', async () => {
      const cat = ALL.filter((r) => r.category === 'genomics');
      const c = await get(t.app, `${D}/2021-01-01/2022-12-31/genomics`);
      expect(c.body.collection.map(key)).toEqual(cat.map(key));
      const c2 = await get(t.app, `${D}/2021-01-01/2022-12-31/5/json?category=genomics`);
      expect(c2.body.collection.map(key)).toEqual(cat.slice(5).map(key));
      expect(c2.body.messages[0]).toMatchObject({ total: cat.length, count_new_papers: String(cat.filter((r) => r.version === '1').length) });

      const { seen, messages } = await walk(t, `${D}/250`, '/json');
      expect(seen.map(key)).toEqual(ALL.slice(-250).map(key));
      expect(messages.every((m) => m.total === 250)).toBe(true);
    });

    it('walks pubs by publication date', async () => {
      expect(PUBS.length).toBeGreaterThan(100);
      const { seen, messages } = await walk(t, `${BX}/pubs/biorxiv/2021-01-01/2022-12-31`, '/json');
      expect(seen).toEqual(PUBS);
      expect(messages.every((m) => m.total === PUBS.length)).toBe(true);
    });
  });
}
