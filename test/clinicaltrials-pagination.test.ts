import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, loadStudies, makeApp, syntheticFile, type TestApp } from './helpers/app.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { generateStudy, nctFor } from '../synthetic/ct-generate.js';

const B = '/clinicaltrials/api/v2';
const N = 250;
type Study = { protocolSection: Record<string, Record<string, unknown>> };
const idOf = (s: Study) => s.protocolSection.identificationModule?.nctId as string;

async function walk(t: TestApp, qs: string, pageSize: number) {
  const seen: Study[] = [];
  const totals = new Set<unknown>();
  let token: string | undefined;
  let pages = 0;
  do {
    const r = await getJson(t.app, `${B}/studies?${qs}&pageSize=${pageSize}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    expect(r.status, r.raw).toBe(200);
    const studies = r.body.studies as Study[];
    expect(studies.length).toBeLessThanOrEqual(pageSize);
    seen.push(...studies);
    totals.add(r.body.totalCount);
    token = r.body.nextPageToken as string | undefined;
    expect(r.body.pageToken).toBe(token);
    if (token) expect(studies.length).toBe(pageSize);
    pages++;
    expect(pages).toBeLessThan(1000);
  } while (token);
  return { seen, totals: [...totals], pages };
}

for (const target of STORES) {
  describe(`pagination on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await makeApp(s);
      await loadStudies(s, t.generations, syntheticFile(N));
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('walks every study exactly once, in NCT order without a sort', async () => {
      const { seen, totals, pages } = await walk(t, 'fields=NCTId', 37);
      expect(pages).toBe(Math.ceil(N / 37));
      expect(totals).toEqual([N]);
      const ids = seen.map(idOf);
      expect(ids).toEqual(Array.from({ length: N }, (_, i) => nctFor(i)));
    });

    it('walks a sort with missing values last and each study once', async () => {
      const { seen } = await walk(t, 'sort=EnrollmentCount:desc&fields=NCTId,EnrollmentCount', 23);
      expect(new Set(seen.map(idOf)).size).toBe(N);
      const counts = seen.map((x) => (x.protocolSection.designModule?.enrollmentInfo as { count?: number } | undefined)?.count);
      const present = counts.filter((c): c is number => c !== undefined);
      expect(present.length).toBeLessThan(N); // the generator leaves some out
      expect(counts.slice(0, present.length)).toEqual([...present].sort((a, b) => b - a));
      expect(counts.slice(present.length).every((c) => c === undefined)).toBe(true);
    });

    it('walks two sort keys', async () => {
      const { seen } = await walk(t, 'sort=StartDate:asc,LastUpdatePostDate:desc&fields=NCTId,StartDate,LastUpdatePostDate', 29);
      expect(new Set(seen.map(idOf)).size).toBe(N);
      const key = (x: Study) => {
        const st = x.protocolSection.statusModule as Record<string, { date: string } | undefined>;
        return [st.startDateStruct?.date, st.lastUpdatePostDateStruct?.date] as const;
      };
      for (let i = 1; i < seen.length; i++) {
        const [a1, b1] = key(seen[i - 1] as Study);
        const [a2, b2] = key(seen[i] as Study);
        if (a1 === undefined) expect(a2).toBeUndefined();
        else if (a2 !== undefined) {
          expect(a1 <= a2).toBe(true);
          if (a1 === a2) expect((b1 as string) >= (b2 as string)).toBe(true);
        }
      }
    });

    it('walks a ranked search in the same order as one big page', async () => {
      const all = await getJson(t.app, `${B}/studies?query.term=cancer&fields=NCTId&pageSize=1000`);
      const expected = (all.body.studies as Study[]).map(idOf);
      expect(expected.length).toBeGreaterThan(17);
      expect(all.body.totalCount).toBe(expected.length);
      const { seen, totals } = await walk(t, 'query.term=cancer&fields=NCTId', 17);
      expect(seen.map(idOf)).toEqual(expected);
      expect(totals).toEqual([expected.length]);
    });

    it('walks a filtered search', async () => {
      const { seen, totals } = await walk(t, 'filter.overallStatus=RECRUITING,COMPLETED&filter.phase=PHASE2&fields=NCTId,OverallStatus,Phase', 11);
      expect(totals).toEqual([seen.length]);
      expect(new Set(seen.map(idOf)).size).toBe(seen.length);
      const expected = Array.from({ length: N }, (_, i) => generateStudy(i) as unknown as Study).filter((x) => {
        const st = x.protocolSection.statusModule?.overallStatus as string;
        return ['RECRUITING', 'COMPLETED'].includes(st) && (x.protocolSection.designModule?.phases as string[]).includes('PHASE2');
      });
      expect(seen.map(idOf).sort()).toEqual(expected.map(idOf).sort());
    });

    it('pages CSV with the token in x-next-page-token and the header on the first page only', async () => {
      let token: string | undefined;
      const rows: string[] = [];
      let first = true;
      do {
        const res = await t.app.inject(`${B}/studies?format=csv&pageSize=40${token ? `&pageToken=${token}` : ''}`);
        expect(res.statusCode).toBe(200);
        const lines = res.body.split('\r\n').filter((l) => l.length > 0);
        if (first) expect(lines.shift()?.startsWith('NCT Number,')).toBe(true);
        else expect(lines[0]?.startsWith('NCT Number,')).toBe(false);
        first = false;
        rows.push(...lines);
        token = res.headers['x-next-page-token'] as string | undefined;
        expect(res.headers['x-total-count']).toBe(String(N));
      } while (token);
      expect(rows.map((r) => r.slice(0, 11))).toEqual(Array.from({ length: N }, (_, i) => nctFor(i)));
    });

    it('refuses a token used with other parameters', async () => {
      const p1 = await getJson(t.app, `${B}/studies?query.term=cancer&pageSize=5`);
      const other = await getJson(t.app, `${B}/studies?query.term=diabetes&pageSize=5&pageToken=${p1.body.nextPageToken as string}`);
      expect(other.status).toBe(400);
      expect((other.body.error as { message: string }).message).toMatch(/pageToken.*other parameters/);
      const tampered = (p1.body.nextPageToken as string).slice(0, -3) + 'AAA';
      const bad = await getJson(t.app, `${B}/studies?query.term=cancer&pageSize=5&pageToken=${tampered}`);
      expect(bad.status).toBe(400);
      // The page size may change between pages, as on the registry.
      const ok = await getJson(t.app, `${B}/studies?query.term=cancer&pageSize=7&pageToken=${p1.body.nextPageToken as string}`);
      expect(ok.status).toBe(200);
      expect(ok.body.studies).toHaveLength(7);
    });
  });

  describe(`page tokens across loads on ${target.name}`, () => {
    it('continue on the data they started on, then fail clearly once it is gone', async () => {
      const s = await target.open();
      const t = await makeApp(s);
      try {
        await loadStudies(s, t.generations, syntheticFile(30, { seed: 1, start: 0 }));
        const p1 = await getJson(t.app, `${B}/studies?pageSize=10&fields=NCTId`);
        const token = p1.body.nextPageToken as string;
        // A new load with other studies becomes what new searches see...
        await loadStudies(s, t.generations, syntheticFile(5, { seed: 2, start: 5000 }));
        const fresh = await getJson(t.app, `${B}/studies?pageSize=10&fields=NCTId`);
        expect(fresh.body.totalCount).toBe(5);
        // ...while the walk that began before it goes on over the data it began on.
        const p2 = await getJson(t.app, `${B}/studies?pageSize=10&fields=NCTId&pageToken=${token}`);
        expect(p2.status).toBe(200);
        expect((p2.body.studies as Study[]).map(idOf)).toEqual(Array.from({ length: 10 }, (_, i) => nctFor(10 + i)));
        expect(p2.body.totalCount).toBe(30);
        // One more load retires that data: the token now fails with a clear 400.
        await loadStudies(s, t.generations, syntheticFile(3, { seed: 3, start: 9000 }));
        const gone = await getJson(t.app, `${B}/studies?pageSize=10&fields=NCTId&pageToken=${token}`);
        expect(gone.status).toBe(400);
        expect((gone.body.error as { message: string }).message).toMatch(/replaced by a newer load/);
      } finally {
        await t.close();
        await s.cleanup();
      }
    });
  });
}
