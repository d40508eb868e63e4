import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpdateRefused } from '../src/core/ingest/errors.js';
import { describeLoad } from '../src/core/ingest/report.js';
import { generateStudy, nctFor } from '../synthetic/ct-generate.js';
import { DEMO, getJson, loadStudies, makeApp, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const B = '/clinicaltrials/api/v2';

/** The demo's PALLAS study as a later download would bring it: a new acronym and title. */
function changedPallas(): Record<string, unknown> {
  const study = JSON.parse(readFileSync(join(DEMO, 'NCT02513394.json'), 'utf8')) as { protocolSection: { identificationModule: Record<string, unknown> } };
  const id = study.protocolSection.identificationModule;
  id.acronym = 'ZEBRAFINCH';
  id.briefTitle = 'Zebrafinch Collaborative Adjuvant Study';
  id.officialTitle = 'Zebrafinch: a randomised trial';
  return study;
}

function jsonl(dir: string, name: string, studies: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, studies.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

for (const target of STORES) {
  describe(`ClinicalTrials.gov update on ${target.name}`, () => {
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

    const total = async (q = '') => (await getJson(t.app, `${B}/studies?pageSize=1&countTotal=true${q}`)).body.totalCount;

    it('replaces a changed study and adds a new one, keeping the others, with the text index following', async () => {
      const base = await loadStudies(s, t.generations, DEMO);
      expect(await total('&query.titles=PALLAS')).toBe(1);
      const fresh = generateStudy(0, { start: 500 });
      const file = jsonl(tempDir(), 'changed.jsonl', [changedPallas(), fresh]);
      const r = await loadStudies(s, t.generations, file, { update: true });

      expect(r.mode).toBe('update');
      expect(r.changes?.parts.study).toEqual({ added: 1, replaced: 1, deleted: 0 });
      expect(r.records).toBe(19);
      expect(r.items).toBe(19);
      expect(await total()).toBe(19);
      const got = await getJson(t.app, `${B}/studies/NCT02513394`);
      expect(got.status).toBe(200);
      expect(JSON.stringify(got.body)).toContain('Zebrafinch Collaborative Adjuvant Study');
      expect((await getJson(t.app, `${B}/studies/${nctFor(0, 500)}`)).status).toBe(200);
      // The words of the replaced version left the index; the new ones are in it.
      expect(await total('&query.titles=PALLAS')).toBe(0);
      expect(await total('&query.term=PALLAS')).toBe(1);
      expect(await total('&query.term=ZEBRAFINCH')).toBe(1);
      expect(await total('&query.titles=Zebrafinch')).toBe(1);
      // An unchanged study is still found by its words.
      expect(await total('&query.term=NCT02710084')).toBe(1);

      expect(describeLoad('clinicaltrials/studies', r)).toEqual([
        `updated clinicaltrials/studies: studies 1 added, 1 replaced, 0 deleted; now 19 studies (generation ${r.gen})`,
        expect.stringMatching(new RegExp(`^  started from 18 studies loaded \\d{4}-\\d{2}-\\d{2} from ${DEMO.replace(/[/.]/g, '\\$&')}, release 2023-10-06 \\(generation ${base.gen}\\)$`)),
      ]);
      const st = await getJson(t.app, '/status');
      const ds = (st.body.services as { id: string; datasets: Record<string, unknown>[] }[]).find((x) => x.id === 'clinicaltrials')?.datasets[0];
      expect(ds).toMatchObject({ generation: r.gen, mode: 'update', records: 19, items: 19, noun: 'studies', changes: { base: base.gen, parts: { study: { added: 1, replaced: 1 } } } });
    });

    it('leaves what is served untouched when an update fails part-way', async () => {
      await loadStudies(s, t.generations, DEMO);
      const dir = tempDir();
      const good = [changedPallas(), ...Array.from({ length: 120 }, (_, i) => generateStudy(i, { start: 700 }))];
      writeFileSync(join(dir, 'cut.json'), `[${good.map((x) => JSON.stringify(x)).join(',')},{"protocolSection":{"identif`);
      await expect(loadStudies(s, t.generations, join(dir, 'cut.json'), { update: true, batchSize: 20 })).rejects.toThrow(/damaged JSON/);
      expect(await total()).toBe(18);
      expect(await total('&query.titles=PALLAS')).toBe(1);
      expect(await total('&query.term=ZEBRAFINCH')).toBe(0);
      const last = (await t.generations.list('clinicaltrials')).at(-1);
      expect(last?.state).toBe('failed');
    });

    it('refuses an update when nothing is loaded', async () => {
      const file = jsonl(tempDir(), 'one.jsonl', [changedPallas()]);
      await expect(loadStudies(s, t.generations, file, { update: true })).rejects.toThrow(UpdateRefused);
    });

    it('says what a full load replaced', async () => {
      const a = await loadStudies(s, t.generations, DEMO, { source: 'demo:clinicaltrials/studies' });
      const b = await loadStudies(s, t.generations, jsonl(tempDir(), 'one.jsonl', [changedPallas()]));
      const day = new Date().toISOString().slice(0, 10);
      expect(describeLoad('clinicaltrials/studies', b)).toEqual([`replaced clinicaltrials/studies: 18 studies loaded ${day} from demo, release 2023-10-06 (generation ${a.gen})`]);
      expect(await total()).toBe(1);
    });
  });
}
