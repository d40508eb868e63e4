import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableSet, type TableSet } from '../src/core/ingest/dataset.js';
import { FormatError, LoadAborted } from '../src/core/ingest/errors.js';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import { ident } from '../src/core/store/db.js';
import { ZipWriter } from '../synthetic/zip.js';
import { generateStudy, nctFor } from '../synthetic/ct-generate.js';
import { CT_DATASET, DEMO, getJson, loadStudies, makeApp, syntheticFile, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const B = '/clinicaltrials/api/v2';

async function tableExists(s: OpenedStore, name: string): Promise<boolean> {
  const sql =
    s.db.dialect === 'sqlite' ? 'SELECT name FROM sqlite_master WHERE name = ?' : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?';
  return (await s.db.query(sql, [name])).length > 0;
}

/** Whether each table of a generation exists: the five both databases have, then the rest (PostgreSQL's per-area text). */
async function generationTablesExist(s: OpenedStore, t: TableSet): Promise<boolean[]> {
  const core = ['studies', 'docs', 'phases', 'aliases', 'text'];
  const found = await Promise.all(core.map((n) => tableExists(s, t.name(n))));
  const rest = await Promise.all(CT_DATASET.tables.filter((n) => !core.includes(n)).map((n) => tableExists(s, t.name(n))));
  // SQLite keeps all text in one FTS5 table; PostgreSQL has one table per area besides.
  expect(rest.every((x) => x === (s.db.dialect === 'postgres' && found[0] === true))).toBe(true);
  return found;
}

for (const target of STORES) {
  describe(`ClinicalTrials.gov ingest on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await makeApp(s);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const total = async () => (await getJson(t.app, `${B}/studies?pageSize=1`)).body.totalCount;

    it('loads the bulk zip, reporting and counting entries that are not studies', async () => {
      const dir = tempDir();
      const zip = join(dir, 'ctg-studies.json.zip');
      const w = new ZipWriter(zip);
      for (let i = 0; i < 40; i++) await w.add(`${nctFor(i)}.json`, JSON.stringify(generateStudy(i)));
      await w.add('NCT99999998.json', '{"protocolSection": ');
      await w.add('NCT99999999.json', JSON.stringify({ protocolSection: { identificationModule: { nctId: 'NCT123' } } }));
      await w.add('README.txt', 'not a study');
      await w.close();
      const skipped: [SkipPlace, string][] = [];
      const r = await loadStudies(s, t.generations, zip, { onSkip: (p, why) => skipped.push([p, why]), batchSize: 16 });
      expect(r.records).toBe(40);
      expect(r.skipped).toBe(2);
      expect(r.release).toBe('2026-11-01');
      expect(skipped.map(([p, why]) => [p.position, why.split(':')[0]])).toEqual([
        ['NCT99999998.json', 'invalid JSON'],
        ['NCT99999999.json', 'malformed nctId "NCT123"'],
      ]);
      expect(await total()).toBe(40);
      const one = await getJson(t.app, `${B}/studies/${nctFor(7)}`);
      expect(one.body).toEqual(generateStudy(7));
    });

    it('loads saved API pages, JSON arrays, gzipped JSON lines, and skips bad lines by number', async () => {
      const dir = tempDir();
      const studies = Array.from({ length: 12 }, (_, i) => generateStudy(i));
      writeFileSync(join(dir, 'page1.json'), JSON.stringify({ studies: studies.slice(0, 4), nextPageToken: 'abc', totalCount: 12 }));
      writeFileSync(join(dir, 'page2.json'), JSON.stringify({ totalCount: 12, studies: studies.slice(4, 6) }));
      writeFileSync(join(dir, 'array.json'), JSON.stringify(studies.slice(6, 8)));
      const lines = [...studies.slice(8, 10).map((x) => JSON.stringify(x)), '{broken', JSON.stringify(studies[10])];
      writeFileSync(join(dir, 'more.jsonl.gz'), gzipSync(lines.join('\n')));
      writeFileSync(join(dir, 'single.json'), JSON.stringify(studies[11]));
      writeFileSync(join(dir, 'notes.md'), '# not data');
      const skipped: [SkipPlace, string][] = [];
      const r = await loadStudies(s, t.generations, dir, { onSkip: (p, why) => skipped.push([p, why]) });
      expect(r.records).toBe(12);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]?.[0]).toEqual({ file: join(dir, 'more.jsonl.gz'), position: 'line 3' });
      expect(await total()).toBe(12);
    });

    it('skips a second record with the same NCT number as a duplicate', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'a.jsonl'), [generateStudy(1), generateStudy(2), generateStudy(1)].map((x) => JSON.stringify(x)).join('\n'));
      const skipped: string[] = [];
      const r = await loadStudies(s, t.generations, dir, { onSkip: (p, why) => skipped.push(`${p.position} ${why}`) });
      expect(r.records).toBe(2);
      expect(skipped).toEqual([expect.stringMatching(/^line 3 duplicate/)]);
    });

    it('fails fast, changing nothing, on input that is not study JSON', async () => {
      await loadStudies(s, t.generations, DEMO);
      const dir = tempDir();
      const csv = join(dir, 'studies.csv');
      writeFileSync(csv, 'NCT Number,Study Title\nNCT1,x\n');
      await expect(loadStudies(s, t.generations, csv)).rejects.toThrow(/studies\.csv: not ClinicalTrials\.gov study JSON/);
      const fake = join(dir, 'fake.json');
      writeFileSync(fake, 'NCT Number,Study Title\n');
      await expect(loadStudies(s, t.generations, fake)).rejects.toThrow(FormatError);
      const other = join(dir, 'other.jsonl');
      writeFileSync(other, Array.from({ length: 150 }, (_, i) => JSON.stringify({ rsId: `rs${i}` })).join('\n'));
      await expect(loadStudies(s, t.generations, other)).rejects.toThrow(/first 100 records are not ClinicalTrials\.gov studies/);
      await expect(loadStudies(s, t.generations, join(dir, 'missing.zip'))).rejects.toThrow(/no such file/);
      const empty = join(dir, 'empty');
      mkdirSync(empty);
      await expect(loadStudies(s, t.generations, empty)).rejects.toThrow(/no study files found/);
      expect(await total()).toBe(18);
      const loads = await t.generations.list('clinicaltrials');
      // Every attempt is on record, with its error.
      expect(loads.filter((l) => l.state === 'failed').map((l) => typeof l.error)).toEqual(Array(5).fill('string'));
    });

    it('keeps serving the previous data whole when a load fails part-way', async () => {
      await loadStudies(s, t.generations, DEMO);
      const dir = tempDir();
      // 300 good studies, then the array is cut off: the reader fails after several batches.
      const items = Array.from({ length: 300 }, (_, i) => JSON.stringify(generateStudy(i)));
      writeFileSync(join(dir, 'cut.json'), `[${items.join(',')},{"protocolSection":{"identif`);
      let gen: number | undefined;
      await expect(
        loadStudies(s, t.generations, join(dir, 'cut.json'), {
          batchSize: 50,
          onSkip: () => undefined,
        }).catch(async (err: unknown) => {
          const failed = (await t.generations.list('clinicaltrials')).at(-1);
          gen = failed?.id;
          expect(failed?.state).toBe('failed');
          expect(failed?.records).toBeGreaterThanOrEqual(250);
          throw err;
        }),
      ).rejects.toThrow(/cut\.json: damaged JSON/);
      expect(await total()).toBe(18);
      expect((await getJson(t.app, `${B}/studies/NCT02710084`)).status).toBe(200);
      expect((await getJson(t.app, `${B}/studies/${nctFor(1)}`)).status).toBe(404);
      expect(await generationTablesExist(s, tableSet('ct', gen as number))).toEqual([false, false, false, false, false]);
    });

    it('keeps the previous data when a load is stopped', async () => {
      await loadStudies(s, t.generations, DEMO);
      const controller = new AbortController();
      const file = syntheticFile(400);
      let batches = 0;
      await expect(
        loadStudies(s, t.generations, file, {
          batchSize: 50,
          signal: controller.signal,
          progress: {
            update: () => {
              if (++batches === 2) controller.abort();
            },
            done: () => undefined,
          },
        }),
      ).rejects.toThrow(LoadAborted);
      expect(await total()).toBe(18);
    });

    it('removes the tables a killed load left behind when the next load starts', async () => {
      await loadStudies(s, t.generations, DEMO);
      // What a process killed mid-load leaves: a generation in state "loading" with its tables.
      const dead = await t.generations.begin('clinicaltrials', 'studies', 'killed');
      // ...started on another host, so only its stale heartbeat tells that it is dead.
      await s.db.run('UPDATE bm_loads SET host = ? WHERE id = ?', ['another-host', dead]);
      const tables = tableSet('ct', dead);
      await CT_DATASET.create(s.db, tables);
      expect(await generationTablesExist(s, tables)).toEqual([true, true, true, true, true]);
      expect(await total()).toBe(18);
      await loadStudies(s, t.generations, syntheticFile(5), { abandonedAfterMs: 0 });
      expect(await generationTablesExist(s, tables)).toEqual([false, false, false, false, false]);
      const rec = (await t.generations.list('clinicaltrials')).find((l) => l.id === dead);
      expect(rec?.state).toBe('failed');
      expect(rec?.error).toMatch(/interrupted/);
      expect(await total()).toBe(5);
    });

    it('records provenance, shown at the status endpoint', async () => {
      const r = await loadStudies(s, t.generations, DEMO, { source: 'demo-folder' });
      const st = await getJson(t.app, '/status');
      const svc = (st.body.services as { id: string; datasets: Record<string, unknown>[]; baseUrls: Record<string, string> }[]).find((x) => x.id === 'clinicaltrials');
      expect(svc?.baseUrls.trials_base_url).toMatch(/\/clinicaltrials\/api\/v2$/);
      expect(svc?.datasets[0]).toMatchObject({ dataset: 'studies', generation: r.gen, source: 'demo-folder', release: '2023-10-06', records: 18, skipped: 0 });
      expect(typeof svc?.datasets[0]?.loadedAt).toBe('string');
    });

    it('replaces the data with each load, dropping the generation before the previous', async () => {
      const a = await loadStudies(s, t.generations, DEMO);
      const b = await loadStudies(s, t.generations, syntheticFile(3));
      const c = await loadStudies(s, t.generations, syntheticFile(4));
      expect(c.retired).toEqual([a.gen]);
      expect(await generationTablesExist(s, tableSet('ct', a.gen))).toEqual([false, false, false, false, false]);
      expect(await generationTablesExist(s, tableSet('ct', b.gen))).toEqual([true, true, true, true, true]);
      expect(await total()).toBe(4);
      const { n } = (await s.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ident(tableSet('ct', c.gen).name('studies'))}`)) as { n: number };
      expect(Number(n)).toBe(4);
    });
  });
}

describe('demo data', () => {
  it('is in the bulk format: one study per file named by its NCT number', () => {
    const doc = JSON.parse(readFileSync(join(DEMO, 'NCT02710084.json'), 'utf8')) as { protocolSection: { identificationModule: { nctId: string } } };
    expect(doc.protocolSection.identificationModule.nctId).toBe('NCT02710084');
  });
});
