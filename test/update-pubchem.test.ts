import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { runLoad, type LoadOptions } from '../src/core/ingest/load.js';
import { describeLoad } from '../src/core/ingest/report.js';
import type { ServiceModule } from '../src/services/types.js';
import type { TestApp } from './helpers/app.js';
import { B, dataset, loadDemo, pubchemApp, type DatasetName } from './helpers/pubchem.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

/** One SD record of the demo compounds, by CID, with its IUPAC name changed as a later deposition would. */
function renamedRecord(m: ServiceModule, cid: number, iupac: string): string {
  const sdf = gunzipSync(readFileSync(join(dataset(m, 'compounds').demo as string, 'Compound_demo.sdf.gz'))).toString('utf8');
  const rec = sdf.split(/(?<=\$\$\$\$\n)/).find((r) => r.includes(`<PUBCHEM_COMPOUND_CID>\n${cid}\n`)) as string;
  return rec.replace(/(> <PUBCHEM_IUPAC_NAME>\n)[^\n]*/, `$1${iupac}`);
}

for (const target of STORES) {
  describe(`PubChem updates on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let m: ServiceModule;
    beforeEach(async () => {
      s = await target.open();
      ({ t, m } = await pubchemApp(s));
      await loadDemo(s, t.generations, m);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const update = (name: DatasetName, input: string, opts: LoadOptions = {}) => runLoad(s.db, t.generations, dataset(m, name), input, { update: true, ...opts });
    const json = async (path: string) => {
      t.generations.invalidate();
      const r = await t.app.inject(`${B}${path}`);
      return { status: r.statusCode, body: r.statusCode === 200 ? (r.json() as Record<string, any>) : {} }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const prop = async (cid: number, name: string) => (await json(`/compound/cid/${cid}/property/${name}/JSON`)).body.PropertyTable?.Properties?.[0]?.[name];

    it('applies a daily folder: changed SD records, a newer title file, the killed-CIDs list', async () => {
      const synonyms = (await json('/compound/cid/2519/synonyms/JSON')).body;
      expect((await json('/compound/fastidentity/smiles/CCO/cids/JSON')).body).toEqual({ IdentifierList: { CID: [702] } });
      const input = folderOf({
        'SDF/Compound_002500001_002525000.sdf': renamedRecord(m, 2519, 'UPDATED IUPAC NAME'),
        'CID-Title': '2519\tCaffeine renamed by update\n',
        'killed-CIDs': '702\n99999999\n',
      });
      const r = await update('compounds', input);
      expect(r.changes?.parts).toMatchObject({ compound: { added: 0, replaced: 1, deleted: 1 }, title: { added: 0, replaced: 1 }, synonyms: { added: 0, replaced: 0 } });
      expect(r.changes?.listedAbsent).toBe(1);
      expect(await prop(2519, 'IUPACName')).toBe('UPDATED IUPAC NAME');
      expect(await prop(2519, 'Title')).toBe('Caffeine renamed by update');
      // Only the title was given: the synonyms stay, and still find the compound.
      expect((await json('/compound/cid/2519/synonyms/JSON')).body).toEqual(synonyms);
      expect((await json('/compound/name/guaranine/cids/JSON')).body).toEqual({ IdentifierList: { CID: [2519] } });
      expect((await json('/compound/name/caffeine%20renamed%20by%20update/cids/JSON')).body).toEqual({ IdentifierList: { CID: [2519] } });
      // The killed compound is gone from every part: record, title, synonyms, name lookup.
      expect((await json('/compound/cid/702/property/Title/JSON')).status).toBe(404);
      expect((await json('/compound/name/ethanol/cids/JSON')).status).toBe(404);
      expect(await prop(2244, 'Title')).toBe('Aspirin');
      // The structure search index is the new generation's: the killed structure is not found.
      expect(JSON.stringify((await json('/compound/fastidentity/smiles/CCO/cids/JSON')).body)).not.toContain('702');
      expect(describeLoad('pubchem/compounds', r)).toEqual([
        `updated pubchem/compounds: compounds 0 added, 1 replaced, 1 deleted; now ${r.items} compounds (generation ${r.gen})`,
        '  also replaced: title of 1, added to 0',
        '  1 listed as deleted were not loaded',
        expect.stringMatching(/^ {2}started from \d+ compounds loaded/),
      ]);
    });

    it('removes killed substances', async () => {
      const r = await update('substances', folderOf({ 'killed-SIDs': '900000001\n' }));
      expect(r.changes?.parts.substance?.deleted).toBe(1);
      expect((await json('/substance/sid/900000001/synonyms/JSON')).status).toBe(404);
      expect((await json('/substance/sid/900000002/synonyms/JSON')).status).toBe(200);
    });

    it('replaces an assay and its activity rows', async () => {
      const demo = dataset(m, 'assays').demo as string;
      const head = readFileSync(join(demo, 'bioactivities.tsv'), 'utf8').split('\n')[0];
      const rows = `${head}\n9000001\t900000001\t\t2244\tInactive\tIC50\t=\t99\tP23219\t5742\t9606\t\n`;
      const r = await update('assays', folderOf({ 'bioactivities.tsv': rows }));
      expect(r.changes?.parts.activity).toEqual({ added: 0, replaced: 1, deleted: 0 });
      const summary = (await json('/assay/aid/9000001/concise/JSON')).body;
      expect(JSON.stringify(summary)).toContain('Inactive');
      expect(JSON.stringify(summary)).not.toContain('"Active"');
    });

    it('keeps what is served when an update stops part-way', async () => {
      const input = folderOf({ 'CID-Title': '2519\tCaffeine renamed by update\n2244\tAspirin renamed\n' });
      await expect(update('compounds', input, stopAfterFirstBatch())).rejects.toThrow(LoadAborted);
      expect(await prop(2519, 'Title')).toBe('Caffeine');
    });
  });
}
