import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { describeLoad } from '../src/core/ingest/report.js';
import type { TestApp } from './helpers/app.js';
import { BX, BX_DEMO, bxApp, get, loadPreprints } from './helpers/biorxiv.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

const DOI = '10.5555/2024.01.11.000102';
const page = (collection: unknown[]) => JSON.stringify({ messages: [{ status: 'ok', cursor: 0, count: collection.length }], collection });

/** A later day's `details` page: the demo paper's first version corrected, and its second version. */
function laterPage(): string {
  const demo = JSON.parse(readFileSync(join(BX_DEMO, 'details-2024-01-01-2024-01-31.json'), 'utf8')) as { collection: Record<string, string>[] };
  const v1 = { ...(demo.collection.find((p) => p.doi === DOI && p.version === '1') as Record<string, string>), title: 'Corrected: long-read assembly' };
  const v2 = { ...v1, version: '2', date: '2024-06-15', title: 'Long-read assembly, second version' };
  return page([v1, v2]);
}

for (const target of STORES) {
  describe(`bioRxiv update on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await bxApp(s);
      await loadPreprints(s, t.generations, BX_DEMO);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const versions = async () => {
      t.generations.invalidate();
      return (await get(t.app, `${BX}/details/biorxiv/${DOI}`)).body.collection.map((p) => [p.version, p.title]);
    };

    it('adds a new version and replaces a corrected one; the date lists are numbered again', async () => {
      expect(await versions()).toEqual([['1', 'Demo: Long-read assembly of a model plant genome']]);
      const span = async () => (await get(t.app, `${BX}/details/biorxiv/2024-01-01/2024-12-31`)).body.messages[0] as { total: number; count_new_papers: string };
      const before = await span();
      const r = await loadPreprints(s, t.generations, folderOf({ 'details-2024-03-01-2024-03-01.json': laterPage() }), { update: true });
      expect(r.changes?.parts.paper).toEqual({ added: 1, replaced: 1, deleted: 0 });
      expect(await versions()).toEqual([
        ['1', 'Corrected: long-read assembly'],
        ['2', 'Long-read assembly, second version'],
      ]);
      const day = await get(t.app, `${BX}/details/biorxiv/2024-06-15/2024-06-15`);
      expect(day.body.collection.map((p) => [p.doi, p.version])).toEqual([[DOI, '2']]);
      // The whole span counts one more version, and no more new papers.
      expect(await span()).toMatchObject({ total: before.total + 1, count_new_papers: before.count_new_papers });
      expect(describeLoad('biorxiv/preprints', r)[0]).toBe(`updated biorxiv/preprints: paper versions 1 added, 1 replaced, 0 deleted; now ${r.items} paper versions (generation ${r.gen})`);
    });

    it('keeps what is served when an update stops part-way', async () => {
      await expect(loadPreprints(s, t.generations, folderOf({ 'details.json': laterPage() }), { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      expect(await versions()).toEqual([['1', 'Demo: Long-read assembly of a model plant genome']]);
    });
  });
}
