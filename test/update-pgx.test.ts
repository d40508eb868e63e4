import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { describeLoad } from '../src/core/ingest/report.js';
import type { TestApp } from './helpers/app.js';
import { get, loadPgx, P, PGX_DEMO, pgxApp } from './helpers/pgx.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

type Gene = { id: string; symbol: string; name: string };

/** The demo's genes.tsv with CYP2D6 renamed and one gene added, as a later release would bring it. */
function laterGenes(): string {
  const [header, ...rows] = readFileSync(join(PGX_DEMO, 'genes.tsv'), 'utf8').trimEnd().split('\n');
  const cyp = (rows.find((r) => r.startsWith('PA128\t')) as string).split('\t');
  cyp[4] = 'renamed test enzyme';
  const added = [...cyp];
  [added[0], added[1], added[4], added[5]] = ['PA999999', '999999', 'a gene added by the update', 'NEWGENEX'];
  return [header, cyp.join('\t'), added.join('\t')].join('\n') + '\n';
}

for (const target of STORES) {
  describe(`pharmacogenomics update on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await pgxApp(s);
      await loadPgx(s, t.generations, PGX_DEMO);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const genes = async () => {
      t.generations.invalidate();
      return (await get<{ data: Gene[] }>(t.app, `${P}/data/gene`)).body.data;
    };

    it('replaces the records a later release changes and adds new ones; the served documents are derived again', async () => {
      const before = await genes();
      const r = await loadPgx(s, t.generations, folderOf({ 'genes.tsv': laterGenes() }), { update: true });
      expect(r.changes?.parts.record).toEqual({ added: 1, replaced: 1, deleted: 0 });
      const after = await genes();
      expect(after.length).toBe(before.length + 1);
      expect(after.find((g) => g.symbol === 'CYP2D6')?.name).toBe('renamed test enzyme');
      expect(after.find((g) => g.symbol === 'NEWGENEX')?.id).toBe('PA999999');
      // Everything else derived from the other files is still there (the annotations of CYP2D6).
      const ann = await get<{ data: unknown[] }>(t.app, `${P}/data/clinicalAnnotation?location.genes.symbol=CYP2D6`);
      expect(ann.status).toBe(200);
      expect(ann.body.data.length).toBeGreaterThan(0);
      expect(describeLoad('pgx/pharmgkb', r)[0]).toMatch(/^updated pgx\/pharmgkb: records 1 added, 1 replaced, 0 deleted; now \d+ records/);
    });

    it('keeps what is served when an update stops part-way', async () => {
      const before = await genes();
      await expect(loadPgx(s, t.generations, folderOf({ 'genes.tsv': laterGenes() }), { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      expect(await genes()).toEqual(before);
    });
  });
}
