/**
 * The structure indexes (similarity prefilter, motif pairs) of a load that carries entries over:
 * those entries are taken from the indexes of the generation served, not read from their files
 * again, and the folder comes out as one built from every file.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { derivedDirOf } from '../src/core/files/derived.js';
import { tableSet } from '../src/core/ingest/dataset.js';
import { CifPool } from '../src/core/mmcif/index.js';
import { ARCHIVE as ARCHIVE_NAME, ARCHIVE_PREFIX, SERVICE, archiveTables } from '../src/services/pdb/store/tables.js';
import { structuresHash, writeCoordIndexes } from '../src/services/pdb/search/build/coord-index.js';
import { indexStore } from '../src/services/pdb/search/build/index-store.js';
import type { TestApp } from './helpers/app.js';
import { copyArchive, globinVariant, loadArchive, pdbApp } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { folderOf } from './helpers/updates.js';

/** The files of an index folder, but for the stamps of its build and use. */
function contents(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const f of readdirSync(dir).sort()) if (f !== 'READY' && f !== 'USED') out[f] = readFileSync(join(dir, f));
  return out;
}

/** An entry file's bytes with its first atom moved by 1 Å (the row's first number of three decimals, Cartn_x). */
function shifted(gz: Buffer): Buffer {
  const text = gunzipSync(gz).toString('utf8');
  const row = /^ATOM .*$/m.exec(text);
  if (!row) throw new Error('the entry has no ATOM row');
  const changed = row[0].replace(/(-?\d+\.\d{3})/, (x) => (Number(x) + 1).toFixed(3));
  expect(changed).not.toBe(row[0]);
  return gzipSync(text.replace(row[0], changed));
}

/** The same in place, with a later time (an update run compares size and time). */
function moved(file: string): void {
  writeFileSync(file, shifted(readFileSync(file)));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
}

for (const target of STORES) {
  describe(`structure indexes of a load that carries entries over, on ${target.name}`, { timeout: 300_000 }, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await pdbApp(s);
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await t.close();
      await s.cleanup();
    });

    /** The folder of the structure indexes of the generation served. */
    async function servedFolder(): Promise<string> {
      t.generations.invalidate();
      const gen = await t.generations.active(SERVICE, ARCHIVE_NAME);
      if (gen === undefined) throw new Error('nothing served');
      const entries = archiveTables(tableSet(ARCHIVE_PREFIX, gen)).entries;
      const dir = await indexStore(derivedDirOf(s.db)).ready('structures', await structuresHash(s.db, entries));
      if (!dir) throw new Error('the served generation has no structure folder');
      return dir;
    }

    /** The served folder holds what a build from every stored file writes, byte for byte; its files. */
    async function expectSameAsRebuilt(): Promise<Record<string, Buffer>> {
      const served = contents(await servedFolder());
      t.generations.invalidate();
      const gen = (await t.generations.active(SERVICE, ARCHIVE_NAME)) as number;
      const scratch = tempDir();
      const built = await writeCoordIndexes(s.db, archiveTables(tableSet(ARCHIVE_PREFIX, gen)).entries, scratch);
      expect(built.reused).toBe(0);
      const rebuilt = contents(scratch);
      expect(Object.keys(served)).toEqual(Object.keys(rebuilt));
      for (const f of Object.keys(rebuilt)) expect(served[f]?.equals(rebuilt[f] as Buffer), f).toBe(true);
      return served;
    }

    /**
     * The demo archive with an entry of this run's own: index folders are named by what they hold
     * and shared by the stores of a process, so another target's folder would be found built.
     */
    function archive(): string {
      const dir = copyArchive();
      writeFileSync(
        join(dir, 'hh', '9hb2.cif.gz'),
        globinVariant('9HB2', { title: `OWN ENTRY OF A RUN ON ${target.name} ${randomUUID()}`, method: 'X-RAY DIFFRACTION', resolution: '2.0', released: '2021-01-01' }),
      );
      return dir;
    }

    /** Residue sets read from stored files while `load` runs. */
    async function filesReadDuring(load: () => Promise<unknown>): Promise<number> {
      const run = vi.spyOn(CifPool.prototype, 'run');
      try {
        await load();
        return run.mock.calls.filter(([kind]) => kind === 'residues').length;
      } finally {
        run.mockRestore();
      }
    }

    it('takes unchanged entries from the served indexes and builds the same folder as from every file', async () => {
      const dir = archive();
      expect(await filesReadDuring(() => loadArchive(s, t.generations, dir))).toBe(0);
      // A week later: one entry's coordinates changed, one removed, one added.
      moved(join(dir, 'hh', '4hhb.cif.gz'));
      rmSync(join(dir, 'nm', '0nm1.cif.gz'));
      writeFileSync(join(dir, 'hh', '9hb1.cif.gz'), globinVariant('9HB1', { title: 'GLOBIN VARIANT', method: 'X-RAY DIFFRACTION', resolution: '1.9', released: '2020-01-01' }));
      let second: Awaited<ReturnType<typeof loadArchive>> | undefined;
      // The changed and added entries come from the load's own parse, the others from the old folder.
      expect(await filesReadDuring(async () => (second = await loadArchive(s, t.generations, dir)))).toBe(0);
      expect(second?.skipped).toBe(0);
      const served = await expectSameAsRebuilt();
      const sources = JSON.parse((served['sources.json'] as Buffer).toString('utf8')) as { entries: [string, string, number, number][] };
      expect(sources.entries.map(([id]) => id)).toEqual(['0BG1', '0GL1', '0NA1', '4HHB', '9HB1', '9HB2']);
    });

    it('reads the files again where the served folder is damaged or its record unreadable, and an update names its entries alone', async () => {
      const dir = archive();
      await loadArchive(s, t.generations, dir);
      truncateSync(join(await servedFolder(), 'atom-xyz.f32'), 16);
      moved(join(dir, 'na', '0na1.cif.gz'));
      // Every entry with amino acids is read from its file again (0NA1, the changed one, is the load's own).
      expect(await filesReadDuring(() => loadArchive(s, t.generations, dir))).toBeGreaterThanOrEqual(4);
      await expectSameAsRebuilt();

      // A record of the sources that is not one: the load reads the files, it does not fail.
      writeFileSync(join(await servedFolder(), 'sources.json'), '{"entries": 7}');
      moved(join(dir, 'gl', '0gl1.cif.gz'));
      expect(await filesReadDuring(() => loadArchive(s, t.generations, dir))).toBeGreaterThanOrEqual(3);
      await expectSameAsRebuilt();

      // A weekly update (the changed file alone): the rest comes from the folder just built.
      const week = folderOf({ 'added-modified/hh/4hhb.cif.gz': shifted(readFileSync(join(dir, 'hh', '4hhb.cif.gz'))) });
      expect(await filesReadDuring(() => loadArchive(s, t.generations, week, { update: true }))).toBe(0);
      await expectSameAsRebuilt();
    });
  });
}
