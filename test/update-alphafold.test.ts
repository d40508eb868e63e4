import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { describeLoad } from '../src/core/ingest/report.js';
import { entryFiles, generateEntry, syntheticSequence, type EntrySpec } from '../synthetic/alphafold-generate.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { stopAfterFirstBatch } from './helpers/updates.js';
import { AF_DATASET, VERS, loadAf, writeFixture } from './alphafold-fixtures.js';
import { alphafold } from '../src/services/alphafold/index.js';

const spec = (acc: string, seq: string, version: number): EntrySpec => ({
  accession: acc,
  uniprotId: `${acc}_GENERATED`,
  description: `Generated protein ${acc}`,
  gene: `GEN${acc.slice(-3)}`,
  taxId: 9606,
  organism: 'Homo sapiens',
  sequence: seq,
  version,
});

/** An update folder: version 5 of an entry the fixture has at versions 3 and 4, and a new entry. */
function laterFiles(): string {
  const dir = tempDir('biomirror-af-update-');
  for (const e of [generateEntry(spec(VERS, syntheticSequence(30, 5), 5)), generateEntry(spec('Q9ZZZ5', syntheticSequence(33, 9), 4))]) {
    for (const f of entryFiles(e)) writeFileSync(join(dir, f.name), f.bytes);
  }
  return dir;
}

for (const target of STORES) {
  describe(`AlphaFold DB update on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await makeApp(s, { services: [alphafold] });
      await loadAf(s, t.generations, writeFixture().dir);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const prediction = async (acc: string) => {
      t.generations.invalidate();
      const r = await t.app.inject(`/alphafold/api/prediction/${acc}`);
      return { status: r.statusCode, body: r.statusCode === 200 ? (r.json() as Record<string, unknown>[]) : [] };
    };

    it('adds a new version beside the older ones and a new entry', async () => {
      expect((await prediction(VERS)).body[0]).toMatchObject({ latestVersion: 4 });
      expect((await prediction('Q9ZZZ5')).status).toBe(404);
      const r = await loadAf(s, t.generations, laterFiles(), { update: true });
      expect(r.changes?.parts.model).toEqual({ added: 2, replaced: 0, deleted: 0 });
      const vers = (await prediction(VERS)).body[0] as { latestVersion: number; allVersions: number[] };
      expect(vers.latestVersion).toBe(5);
      expect(vers.allVersions).toEqual(expect.arrayContaining([3, 4, 5]));
      expect((await t.app.inject(`/alphafold/files/AF-${VERS}-F1-model_v4.cif`)).statusCode).toBe(200);
      expect((await t.app.inject(`/alphafold/files/AF-${VERS}-F1-model_v5.cif`)).statusCode).toBe(200);
      expect((await prediction('Q9ZZZ5')).status).toBe(200);
      expect(describeLoad(`alphafold/${AF_DATASET.name}`, r)[0]).toBe(`updated alphafold/${AF_DATASET.name}: models 2 added, 0 replaced, 0 deleted; now ${r.items} models (generation ${r.gen})`);
    });

    it('replaces a model loaded again with the same version', async () => {
      const dir = tempDir('biomirror-af-update-');
      for (const f of entryFiles(generateEntry(spec(VERS, syntheticSequence(36, 11), 4)))) writeFileSync(join(dir, f.name), f.bytes);
      const r = await loadAf(s, t.generations, dir, { update: true });
      expect(r.changes?.parts.model).toEqual({ added: 0, replaced: 1, deleted: 0 });
      const cif = await t.app.inject(`/alphafold/files/AF-${VERS}-F1-model_v4.cif`);
      expect(cif.body).toContain(syntheticSequence(36, 11).slice(0, 20));
    });

    it('adds the AlphaMissense table and MSA of an entry, and replaces one loaded again', async () => {
      const url = `/alphafold/files/AF-${VERS}-F1-hg38.csv`;
      expect((await t.app.inject(url)).statusCode).toBe(404);
      const dir = tempDir('biomirror-af-update-');
      writeFileSync(join(dir, `AF-${VERS}-F1-hg38.csv`), 'CHROM,POS\nchr1,1\n');
      writeFileSync(join(dir, `AF-${VERS}-F1-msa_v4.a3m`), '>101\nMKV\n');
      const r = await loadAf(s, t.generations, dir, { update: true });
      expect(r.changes?.parts.meta).toEqual({ added: 2, replaced: 0, deleted: 0 });
      t.generations.invalidate();
      expect((await t.app.inject(url)).body).toBe('CHROM,POS\nchr1,1\n');
      expect((await t.app.inject(`/alphafold/files/msa/AF-${VERS}-F1-msa_v4.a3m`)).body).toBe('>101\nMKV\n');
      expect((await prediction(VERS)).body[0]).toHaveProperty('amAnnotationsHg38Url');
      writeFileSync(join(dir, `AF-${VERS}-F1-hg38.csv`), 'CHROM,POS\nchr2,2\n');
      const again = await loadAf(s, t.generations, dir, { update: true });
      expect(again.changes?.parts.meta).toEqual({ added: 0, replaced: 2, deleted: 0 });
      t.generations.invalidate();
      expect((await t.app.inject(url)).body).toBe('CHROM,POS\nchr2,2\n');
    });

    it('keeps what is served when an update stops part-way', async () => {
      await expect(loadAf(s, t.generations, laterFiles(), { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      expect((await prediction(VERS)).body[0]).toMatchObject({ latestVersion: 4 });
      expect((await prediction('Q9ZZZ5')).status).toBe(404);
    });
  });
}
