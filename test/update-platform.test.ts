/**
 * What every dataset's updates rely on: tables of another layout are refused, and the SQLite file
 * gives the pages of dropped generations back (or says where an older file cannot).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from '../src/core/store/sqlite-driver.js';
import { describe, expect, it } from 'vitest';
import { tableSet } from '../src/core/ingest/dataset.js';
import { UpdateRefused } from '../src/core/ingest/errors.js';
import { spaceNote } from '../src/core/ingest/report.js';
import { Generations } from '../src/core/store/generations.js';
import { openStore } from '../src/core/store/open.js';
import { renumber } from '../src/core/store/tables.js';
import { ident } from '../src/core/store/db.js';
import { runLoad } from '../src/core/ingest/load.js';
import type { Db } from '../src/core/store/db.js';
import { CT_DATASET, loadStudies, syntheticFile } from './helpers/app.js';
import { STORES, tempDir } from './helpers/stores.js';

for (const target of STORES) {
  describe(`updates on ${target.name}`, () => {
    it('refuses to update tables laid out by an earlier version, changing nothing', async () => {
      const s = await target.open();
      try {
        const g = new Generations(s.db, 0);
        const base = await loadStudies(s, g, syntheticFile(5));
        // What an earlier version's generation looks like: a column this version writes is missing.
        await s.db.exec(`ALTER TABLE ${ident(tableSet('ct', base.gen).name('studies'))} DROP COLUMN version_holder`);
        await expect(loadStudies(s, g, syntheticFile(2, { start: 50 }), { update: true })).rejects.toThrow(UpdateRefused);
        await expect(loadStudies(s, g, syntheticFile(2, { start: 50 }), { update: true })).rejects.toThrow(/earlier version of biomirror.*load the full data once/);
        expect(await g.active('clinicaltrials', 'studies')).toBe(base.gen);
        // A full load is still taken, and updates apply to it.
        await loadStudies(s, g, syntheticFile(5));
        const r = await loadStudies(s, g, syntheticFile(2, { start: 50 }), { update: true });
        expect(r.records).toBe(7);
      } finally {
        await s.cleanup();
      }
    });

    it('closes the gaps of a dense number through negatives, without breaking a unique key', async () => {
      const s = await target.open();
      try {
        await s.db.exec('CREATE TABLE dense (ord INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
        await s.db.insertMany(
          'dense',
          ['ord', 'v'],
          [
            [1, 'a'],
            [3, 'b'],
            [4, 'c'],
            [9, 'd'],
          ],
        );
        await renumber(s.db, 'dense', 'ord');
        expect(await s.db.query('SELECT ord, v FROM dense ORDER BY ord')).toEqual([
          { ord: 1, v: 'a' },
          { ord: 2, v: 'b' },
          { ord: 3, v: 'c' },
          { ord: 4, v: 'd' },
        ]);
      } finally {
        await s.cleanup();
      }
    });
  });
}

describe('the SQLite file after loads that replace data', () => {
  const load = (db: Db, g: Generations, input: string) => runLoad(db, g, CT_DATASET, input);
  const size = (dir: string) => statSync(join(dir, 'biomirror.sqlite')).size;

  it('shrinks once the generation a smaller load replaced is dropped', async () => {
    const dataDir = tempDir();
    let db = await openStore({ dataDir });
    await load(db, new Generations(db), syntheticFile(3000, { seed: 2 }));
    await db.close();
    const big = size(dataDir);
    db = await openStore({ dataDir });
    const g = new Generations(db);
    await load(db, g, syntheticFile(10, { seed: 3 }));
    // The big generation is kept as the previous one until the next switch drops it.
    const last = await load(db, g, syntheticFile(10, { seed: 4 }));
    await db.close();
    expect(last.space?.freedBytes).toBeGreaterThan(big / 2);
    expect(size(dataDir)).toBeLessThan(big / 4);
  });

  it('says so when a file made without auto_vacuum keeps the dropped pages', async () => {
    const dataDir = tempDir();
    // A file an earlier version made: tables exist before biomirror opens it, auto_vacuum off.
    const raw = new Database(join(dataDir, 'biomirror.sqlite'));
    raw.exec('CREATE TABLE older (x INTEGER)');
    raw.close();
    const db = await openStore({ dataDir });
    const g = new Generations(db);
    await load(db, g, syntheticFile(3000, { seed: 2 }));
    await load(db, g, syntheticFile(10, { seed: 3 }));
    const last = await load(db, g, syntheticFile(10, { seed: 4 }));
    await db.close();
    expect(last.space?.freedBytes).toBe(0);
    expect(last.space?.keptBytes).toBeGreaterThan(1 << 20);
    // Below the note's threshold here; a real archive's dropped generation is far larger.
    expect(spaceNote({ ...last, space: { freedBytes: 0, keptBytes: 200 << 20 } }, 'data/biomirror.sqlite')).toMatch(/^200 MB of dropped data stay inside data\/biomirror\.sqlite/);
    expect(spaceNote(last, 'data/biomirror.sqlite')).toBeUndefined();
  });
});
