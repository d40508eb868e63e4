import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableSet } from '../src/core/ingest/dataset.js';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { runLoad } from '../src/core/ingest/load.js';
import { describeLoad } from '../src/core/ingest/report.js';
import { statusReport } from '../src/server/status.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { SIFTS_PREFIX, siftsOfEntry } from '../src/services/pdb/store/tables.js';
import { entryIdOf } from '../src/services/pdb/ingest/obsolete.js';
import type { TestApp } from './helpers/app.js';
import { COMPONENTS, DATA, DEMO_DIR, SIFTS, get, loadArchive, loadDemo, pdbApp } from './helpers/pdb.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

const REST = `${DATA}/rest/v1/core`;
const Q = '/rcsb/search/rcsbsearch/v2/query';

/** 0NA1 as a later week brings it: a new title. */
function retitled(): Buffer {
  const text = gunzipSync(readFileSync(join(DEMO_DIR, 'archive', 'na', '0na1.cif.gz'))).toString('utf8');
  return gzipSync(text.replace(/_struct\.title\s+(.+)/, "_struct.title 'WEEKLY UPDATED TITLE'"));
}

/** Files this process holds open that are residue spools of a load (test files run in processes of their own). */
function openSpools(): string[] {
  const fds = readdirSync('/proc/self/fd');
  return fds
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((l) => l.includes('.spool-residues'));
}

const OBSOLETE_DAT = [' LIST OF OBSOLETE COORDINATE ENTRIES AND SUCCESSORS', 'OBSLTE    31-JUL-94 116L     216L', 'OBSLTE    12-MAR-25 0NM1', ''].join('\n');

describe('PDB ids in the obsolete lists', () => {
  it('are the stored ids: classic upper-cased, extended ones of classic entries shortened', () => {
    expect(['116l', 'pdb_00001abc', 'PDB_00012345', 'x!'].map(entryIdOf)).toEqual(['116L', '1ABC', 'PDB_00012345', undefined]);
  });
});

for (const target of STORES) {
  describe(`RCSB PDB updates on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await pdbApp(s, [rcsbData, rcsbSearch]);
      await loadDemo(s, t.generations);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const status = async (id: string) => {
      t.generations.invalidate();
      return (await get(t.app, `${REST}/entry/${id}`)).status;
    };
    const search = async (attribute: string, words: string, returnType: string, service = 'text') => {
      const r = await t.app.inject({
        method: 'POST',
        url: Q,
        payload: {
          query: { type: 'terminal', service, parameters: { attribute, operator: 'contains_words', value: words } },
          return_type: returnType,
          request_options: { return_all_hits: true, results_verbosity: 'compact' },
        },
      });
      return r.statusCode === 204 ? [] : (r.json() as { result_set: string[] }).result_set;
    };
    const titled = (words: string) => search('struct.title', words, 'entry');

    it('applies a week: changed entries read again, obsolete ones removed, the search index rebuilt', async () => {
      const input = folderOf({ 'added-modified/na/0na1.cif.gz': retitled(), 'status/obsolete.dat': OBSOLETE_DAT });
      const r = await loadArchive(s, t.generations, input, { update: true });
      expect(r.changes?.parts.entry).toEqual({ added: 0, replaced: 1, deleted: 1 });
      expect(r.changes?.listedAbsent).toBe(1);
      expect(await status('0NM1')).toBe(404);
      expect(await status('4HHB')).toBe(200);
      expect((await get(t.app, `${REST}/entry/0NA1`)).body.struct.title).toBe('WEEKLY UPDATED TITLE');
      expect(await titled('weekly updated')).toEqual(['0NA1']);
      expect((await get(t.app, `${DATA}/rest/v1/holdings/current/entry_ids`)).body).not.toContain('0NM1');
      expect(describeLoad('rcsb-data/archive', r)).toEqual([
        `updated rcsb-data/archive: entries 0 added, 1 replaced, 1 deleted; now ${r.items} entries (generation ${r.gen})`,
        '  1 listed as deleted were not loaded',
        expect.stringMatching(/^ {2}started from 5 entries loaded .* from test \(generation \d+\)$/),
        expect.stringMatching(
          /^ {2}took [\d.]+ s: records read and written in [\d.]+ s, then [\d.]+ s of search tables [\d.]+ s, (sequence index \(MMseqs2\) [\d.]+ s, )?search table indexes [\d.]+ s, structure indexes [\d.]+ s \(some steps run side by side\)$/,
        ),
      ]);
      // The same figures in the status report (`biomirror status`), from the generation's details.
      const report = await statusReport({ generations: t.generations, storeDescription: 'test', db: s.db }, [rcsbData], 'http://localhost', true);
      const archive = report.services[0]?.datasets.find((d) => d.dataset === 'archive') as { readSeconds?: number; finishSeconds?: number; steps?: { step: string; seconds: number }[] };
      expect(archive.readSeconds).toBeGreaterThanOrEqual(0);
      expect(archive.finishSeconds).toBeGreaterThanOrEqual(0);
      expect(archive.steps?.map((x) => x.step).filter((x) => !x.startsWith('sequence index'))).toEqual(['search tables', 'search table indexes', 'structure indexes']);
    });

    it('takes an obsolete list alone, in the holdings JSON form', async () => {
      const input = folderOf({ 'all_removed_entries.json.gz': gzipSync(JSON.stringify({ pdb_00000nm1: { obsolete_date: '2025-03-12' }, '116L': {} })) });
      const r = await loadArchive(s, t.generations, input, { update: true });
      expect(r.read).toBe(0);
      expect(r.changes?.parts.entry?.deleted).toBe(1);
      expect(await status('0NM1')).toBe(404);
      expect(await status('0NA1')).toBe(200);
    });

    it('keeps what is served when an update stops part-way', async () => {
      const input = folderOf({ 'na/0na1.cif.gz': retitled(), 'hh/4hhb.cif.gz': readFileSync(join(DEMO_DIR, 'archive', 'hh', '4hhb.cif.gz')), 'obsolete.dat': OBSOLETE_DAT });
      await expect(loadArchive(s, t.generations, input, { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      // The stopped load let go of the residues it kept for the structure indexes (an unlinked
      // file whose space stays taken while it is open).
      expect(openSpools()).toEqual([]);
      expect(await status('0NM1')).toBe(200);
      expect((await get(t.app, `${REST}/entry/0NA1`)).body.struct.title).not.toBe('WEEKLY UPDATED TITLE');
    });

    it('replaces the SIFTS chains of the entries an update names', async () => {
      const lines = ['PDB\tCHAIN\tSP_PRIMARY\tRES_BEG\tRES_END\tPDB_BEG\tPDB_END\tSP_BEG\tSP_END', '4hhb\tA\tP69905\t1\t140\t1\t140\t2\t141', '4hhb\tB\tP68871\t1\t146\t1\t146\t2\t147'];
      const r = await runLoad(s.db, t.generations, SIFTS as never, folderOf({ 'pdb_chain_uniprot.tsv': lines.join('\n') + '\n' }), { update: true });
      expect(r.changes?.parts.entry).toEqual({ added: 0, replaced: 1, deleted: 0 });
      const rows = await siftsOfEntry(s.db, tableSet(SIFTS_PREFIX, r.gen), '4HHB');
      expect(rows.map((x) => [x.chain, x.res_end]).sort()).toEqual([
        ['A', 140],
        ['B', 146],
      ]);
      expect((await siftsOfEntry(s.db, tableSet(SIFTS_PREFIX, r.gen), '0NM1')).length).toBe(1);
    });

    it('replaces a chemical component the dictionary republishes, and its search entries', async () => {
      const block = gunzipSync(readFileSync(join(DEMO_DIR, 'components.cif.gz')))
        .toString('utf8')
        .split(/^(?=data_)/m)
        .find((b) => b.startsWith('data_ALA')) as string;
      const renamed = block.replace(/^_chem_comp\.name\s+ALANINE$/m, "_chem_comp.name 'ALANINE RENAMED'");
      expect(renamed).not.toBe(block);
      const r = await runLoad(s.db, t.generations, COMPONENTS as never, folderOf({ 'components.cif': renamed }), { update: true });
      expect(r.changes?.parts.component).toEqual({ added: 0, replaced: 1, deleted: 0 });
      t.generations.invalidate();
      expect((await get(t.app, `${REST}/chemcomp/ALA`)).body.chem_comp.name).toBe('ALANINE RENAMED');
      expect((await get(t.app, `${REST}/chemcomp/ARG`)).status).toBe(200);
      expect(await search('chem_comp.name', 'renamed', 'mol_definition', 'text_chem')).toEqual(['ALA']);
    });
  });
}
