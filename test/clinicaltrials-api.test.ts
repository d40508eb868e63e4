import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, getJson, loadStudies, makeApp, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const B = '/clinicaltrials/api/v2';
type Study = { protocolSection: Record<string, Record<string, unknown>>; hasResults?: boolean; resultsSection?: unknown };
const ids = (studies: unknown[] | undefined) => (studies as Study[]).map((s) => s.protocolSection.identificationModule?.nctId as string);
const demoStudy = (id: string) => JSON.parse(readFileSync(join(DEMO, `${id}.json`), 'utf8')) as Study;

for (const target of STORES) {
  describe(`ClinicalTrials.gov API on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await makeApp(s);
      await loadStudies(s, t.generations, DEMO);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    describe('GET /studies/{nctId}', () => {
      it('returns the study exactly as loaded, results included', async () => {
        const r = await getJson(t.app, `${B}/studies/NCT02513394`);
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        expect(r.body).toEqual(demoStudy('NCT02513394'));
        expect(r.body.hasResults).toBe(true);
        expect(Object.keys(r.body.resultsSection as object)).toContain('participantFlowModule');
      });

      it('accepts NCT numbers in lower case and without leading zeros', async () => {
        const r = await getJson(t.app, `${B}/studies/nct2710084`);
        expect(r.status).toBe(200);
        expect((r.body as unknown as Study).protocolSection.identificationModule?.nctId).toBe('NCT02710084');
      });

      it('answers 404 for an unknown study and 400 for a malformed number', async () => {
        const nf = await getJson(t.app, `${B}/studies/NCT09999999`);
        expect(nf.status).toBe(404);
        expect(nf.body).toEqual({ error: { code: 404, message: 'Study NCT09999999 not found' } });
        for (const bad of ['NCTX', '12345678', 'NCT123456789', 'NCT00000000']) {
          const r = await getJson(t.app, `${B}/studies/${bad}`);
          expect(r.status, bad).toBe(400);
          expect((r.body.error as { code: number; message: string }).code).toBe(400);
          expect((r.body.error as { message: string }).message).toContain(bad);
        }
      });

      it('prunes with fields, keeping the structure', async () => {
        const r = await getJson(t.app, `${B}/studies/NCT02576665?fields=NCTId,OverallStatus,Location*`);
        expect(r.status).toBe(200);
        const p = (r.body as unknown as Study).protocolSection;
        expect(Object.keys(p).sort()).toEqual(['contactsLocationsModule', 'identificationModule', 'statusModule']);
        expect(p.identificationModule).toEqual({ nctId: 'NCT02576665' });
        expect(p.statusModule).toEqual({ overallStatus: 'TERMINATED' });
        expect((p.contactsLocationsModule?.locations as unknown[]).length).toBe(3);
        expect(r.body.hasResults).toBeUndefined();
      });

      it('serves one CSV row under the header', async () => {
        const res = await t.app.inject(`${B}/studies/NCT02710084?format=csv`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/csv/);
        const lines = res.body.trimEnd().split('\r\n');
        expect(lines).toHaveLength(2);
        expect(lines[0]?.startsWith('NCT Number,Study Title,Study URL,Acronym,Study Status,')).toBe(true);
        expect(lines[0]?.split(',')).toHaveLength(30);
        expect(lines[1]).toContain('NCT02710084,Piloting Treatment With Intranasal Oxytocin in Phelan-McDermid Syndrome,https://clinicaltrials.gov/study/NCT02710084');
      });

      it('refuses formats it does not serve', async () => {
        const r = await getJson(t.app, `${B}/studies/NCT02710084?format=xml`);
        expect(r.status).toBe(400);
        expect((r.body.error as { message: string }).message).toMatch(/format.*json, csv/);
      });
    });

    describe('GET /studies', () => {
      it('lists every loaded study with totalCount and the default page size of 10', async () => {
        const r = await getJson(t.app, `${B}/studies`);
        expect(r.status).toBe(200);
        expect(r.body.totalCount).toBe(18);
        expect(r.body.studies).toHaveLength(10);
        expect(typeof r.body.nextPageToken).toBe('string');
        expect(r.body.pageToken).toBe(r.body.nextPageToken);
      });

      it('searches conditions as words and phrases, case-insensitively', async () => {
        const words = await getJson(t.app, `${B}/studies?query.cond=phelan%20mcdermid&pageSize=100&fields=NCTId,Condition`);
        const phrase = await getJson(t.app, `${B}/studies?query.cond=%22PHELAN-MCDERMID%20SYNDROME%22&pageSize=100&fields=NCTId`);
        expect(words.body.totalCount).toBe(9);
        expect(new Set(ids(phrase.body.studies))).toEqual(new Set(ids(words.body.studies)));
        for (const st of words.body.studies as Study[]) {
          expect((st.protocolSection.conditionsModule?.conditions as string[]).join(' ')).toMatch(/phelan/i);
        }
      });

      it('searches interventions, sponsors, locations and all text', async () => {
        const intr = await getJson(t.app, `${B}/studies?query.intr=oxytocin&fields=NCTId`);
        expect(ids(intr.body.studies)).toEqual(['NCT02710084']);
        const spons = await getJson(t.app, `${B}/studies?query.spons=Pfizer&fields=NCTId`);
        expect(ids(spons.body.studies)).toEqual(['NCT02513394']);
        const locn = await getJson(t.app, `${B}/studies?query.locn=Houston&fields=NCTId`);
        expect(ids(locn.body.studies)).toContain('NCT02576665');
        const term = await getJson(t.app, `${B}/studies?query.term=palbociclib&fields=NCTId`);
        expect(ids(term.body.studies)[0]).toBe('NCT02513394');
        const prefix = await getJson(t.app, `${B}/studies?query.term=oxyto*&fields=NCTId`);
        expect(ids(prefix.body.studies)).toContain('NCT02710084');
        const none = await getJson(t.app, `${B}/studies?query.term=zzzyxq`);
        expect(none.body).toEqual({ studies: [], totalCount: 0 });
      });

      it('combines terms with AND, OR, NOT and parentheses', async () => {
        const or = await getJson(t.app, `${B}/studies?query.cond=melanoma%20OR%20%22breast%20cancer%22&pageSize=100&fields=NCTId`);
        const mel = await getJson(t.app, `${B}/studies?query.cond=melanoma&pageSize=100&fields=NCTId`);
        const breast = await getJson(t.app, `${B}/studies?query.cond=%22breast%20cancer%22&pageSize=100&fields=NCTId`);
        expect(new Set(ids(or.body.studies))).toEqual(new Set([...ids(mel.body.studies), ...ids(breast.body.studies)]));
        const not = await getJson(t.app, `${B}/studies?query.cond=phelan%20NOT%20autism&pageSize=100&fields=NCTId,Condition`);
        expect(not.body.totalCount).toBeGreaterThan(0);
        for (const st of not.body.studies as Study[]) {
          expect((st.protocolSection.conditionsModule?.conditions as string[]).join(' ')).not.toMatch(/autism/i);
        }
        const onlyNot = await getJson(t.app, `${B}/studies?query.cond=NOT%20phelan&pageSize=100&fields=NCTId`);
        expect(onlyNot.body.totalCount).toBe(18 - 9);
        const grouped = await getJson(t.app, `${B}/studies?query.term=(oxytocin%20OR%20palbociclib)%20AND%20phase&pageSize=100&fields=NCTId`);
        expect(new Set(ids(grouped.body.studies))).toEqual(new Set(['NCT02710084', 'NCT02513394']));
      });

      it('searches the other areas: ids, titles, outcomes, lead sponsor', async () => {
        // NCT02513394's organisation study id is AFT-05 and one of its secondary ids BIG 14-03.
        expect(ids((await getJson(t.app, `${B}/studies?query.id=AFT-05&fields=NCTId`)).body.studies)).toEqual(['NCT02513394']);
        expect(ids((await getJson(t.app, `${B}/studies?query.id=%22BIG%2014-03%22&fields=NCTId`)).body.studies)).toEqual(['NCT02513394']);
        expect(ids((await getJson(t.app, `${B}/studies?query.id=NCT02710084&fields=NCTId`)).body.studies)).toEqual(['NCT02710084']);
        expect(ids((await getJson(t.app, `${B}/studies?query.titles=PALbociclib&fields=NCTId`)).body.studies)).toEqual(['NCT02513394']);
        const outc = await getJson(t.app, `${B}/studies?query.outc=%22invasive%20disease%20free%20survival%22&fields=NCTId`);
        expect(ids(outc.body.studies)).toEqual(['NCT02513394']);
        // Pfizer collaborates on PALLAS but does not lead it.
        expect((await getJson(t.app, `${B}/studies?query.lead=Pfizer`)).body.totalCount).toBe(0);
        expect(ids((await getJson(t.app, `${B}/studies?query.lead=%22Alliance%20Foundation%22&fields=NCTId`)).body.studies)).toEqual(['NCT02513394']);
      });

      it('ANDs several query parameters', async () => {
        const r = await getJson(t.app, `${B}/studies?query.cond=phelan&query.intr=oxytocin&fields=NCTId`);
        expect(ids(r.body.studies)).toEqual(['NCT02710084']);
      });

      it('filters by status, phase and ids', async () => {
        const st = await getJson(t.app, `${B}/studies?filter.overallStatus=RECRUITING,NOT_YET_RECRUITING&pageSize=100&fields=NCTId,OverallStatus`);
        expect(st.body.totalCount).toBe(6);
        for (const x of st.body.studies as Study[]) expect(['RECRUITING', 'NOT_YET_RECRUITING']).toContain(x.protocolSection.statusModule?.overallStatus);
        const ph = await getJson(t.app, `${B}/studies?filter.phase=PHASE1&pageSize=100&fields=NCTId,Phase`);
        expect(new Set(ids(ph.body.studies))).toEqual(new Set(['NCT02576665', 'NCT05105685', 'NCT07014020']));
        const both = await getJson(t.app, `${B}/studies?filter.phase=PHASE2&filter.overallStatus=RECRUITING&fields=NCTId`);
        expect(new Set(ids(both.body.studies))).toEqual(new Set(['NCT04114136', 'NCT04318717']));
        const byId = await getJson(t.app, `${B}/studies?filter.ids=NCT02710084|nct5105685&fields=NCTId`);
        expect(new Set(ids(byId.body.studies))).toEqual(new Set(['NCT02710084', 'NCT05105685']));
      });

      it('applies filter.advanced AREA[...] terms', async () => {
        const r = await getJson(t.app, `${B}/studies?filter.advanced=${encodeURIComponent('AREA[StartDate]RANGE[2024-01-01,MAX]')}&pageSize=100&fields=NCTId,StartDate`);
        expect(r.body.totalCount).toBeGreaterThan(0);
        for (const x of r.body.studies as Study[]) {
          expect((x.protocolSection.statusModule?.startDateStruct as { date: string }).date >= '2024-01-01').toBe(true);
        }
        const mixed = await getJson(t.app, `${B}/studies?filter.advanced=${encodeURIComponent('AREA[Phase]PHASE2 AND NOT AREA[OverallStatus]COMPLETED')}&pageSize=100&fields=NCTId`);
        expect(new Set(ids(mixed.body.studies))).toEqual(new Set(['NCT04114136', 'NCT04318717']));
        const enroll = await getJson(t.app, `${B}/studies?filter.advanced=${encodeURIComponent('AREA[EnrollmentCount]RANGE[1000,MAX]')}&fields=NCTId`);
        expect(ids(enroll.body.studies)).toContain('NCT02513394');
        const age = await getJson(t.app, `${B}/studies?filter.advanced=${encodeURIComponent('AREA[MaximumAge]RANGE[MIN, 17 years]')}&pageSize=100&fields=NCTId,MaximumAge`);
        for (const x of age.body.studies as Study[]) expect(x.protocolSection.eligibilityModule?.maximumAge).toMatch(/^(\d+) (Year|Month)/);
        expect(ids(age.body.studies)).toContain('NCT02710084');
        const term = await getJson(t.app, `${B}/studies?query.term=${encodeURIComponent('AREA[LeadSponsorName]tocagen')}&fields=NCTId`);
        expect(ids(term.body.studies)).toEqual(['NCT02576665']);
      });

      it('answers 400 naming the parameter and its allowed values', async () => {
        const cases: [string, RegExp][] = [
          ['filter.overallStatus=OPEN', /filter\.overallStatus.*RECRUITING.*WITHDRAWN/],
          ['filter.phase=PHASE5', /filter\.phase.*EARLY_PHASE1.*PHASE4/],
          ['sort=Title', /sort.*LastUpdatePostDate.*EnrollmentCount.*StartDate.*StudyFirstPostDate/],
          ['sort=StartDate:up', /sort.*asc or desc/],
          ['pageSize=0', /pageSize.*1 to 1000/],
          ['pageSize=5000', /pageSize.*1 to 1000/],
          ['pageSize=ten', /pageSize/],
          ['pageToken=nonsense', /pageToken/],
          ['filter.ids=NCTABC', /filter\.ids/],
          ['countTotal=maybe', /countTotal.*true or false/],
          ['format=xml', /format.*json, csv/],
          ['fields=NoSuchField', /NoSuchField.*fields/],
          ['query.term=%22open', /query\.term.*quoted/],
          ['query.cond=(a%20OR', /query\.cond/],
          ['filter.advanced=AREA%5BNoField%5Dx', /filter\.advanced.*NoField/],
          ['filter.advanced=AREA%5BOverallStatus%5DOPEN', /filter\.advanced.*OverallStatus.*OPEN/],
          ['filter.advanced=AREA%5BStartDate%5DRANGE%5Bsoon,MAX%5D', /StartDate.*soon/],
          ['filter.geo=distance(39.0,-77.1,50mi)', /filter\.geo.*not supported/],
          ['markupFormat=html', /markupFormat/],
        ];
        for (const [qs, msg] of cases) {
          const r = await getJson(t.app, `${B}/studies?${qs}`);
          expect(r.status, qs).toBe(400);
          const e = r.body.error as { code: number; message: string };
          expect(e.code, qs).toBe(400);
          expect(e.message, qs).toMatch(msg);
        }
      });

      it('ranks by relevance when searching without a sort', async () => {
        // The PALLAS study names palbociclib in its title, keywords and interventions.
        const r = await getJson(t.app, `${B}/studies?query.term=growth%20hormone&pageSize=100&fields=NCTId,BriefTitle`);
        expect(r.body.totalCount).toBeGreaterThanOrEqual(2);
        const top = (r.body.studies as Study[])[0]?.protocolSection.identificationModule?.briefTitle as string;
        expect(top).toMatch(/growth hormone/i);
      });

      it('redirects an alias NCT number to the study', async () => {
        const dir = tempDir();
        const study = demoStudy('NCT02710084');
        (study.protocolSection.identificationModule as Record<string, unknown>).nctIdAliases = ['NCT01111111'];
        writeFileSync(join(dir, 'NCT02710084.json'), JSON.stringify(study));
        const s2 = await target.open();
        const t2 = await makeApp(s2);
        try {
          await loadStudies(s2, t2.generations, dir);
          const res = await t2.app.inject(`${B}/studies/NCT01111111?fields=NCTId`);
          expect(res.statusCode).toBe(301);
          expect(res.headers.location).toBe(`${B}/studies/NCT02710084?fields=NCTId`);
        } finally {
          await t2.close();
          await s2.cleanup();
        }
      });

      it('reports the API version and data date', async () => {
        const r = await getJson(t.app, `${B}/version`);
        expect(r.body).toEqual({ apiVersion: '2.0.5', dataTimestamp: '2023-10-06T00:00:00' });
      });

      it('answers unknown paths with the registry error body', async () => {
        const r = await getJson(t.app, `${B}/nothing-here`);
        expect(r.status).toBe(404);
        expect((r.body.error as { code: number }).code).toBe(404);
      });
    });
  });
}
