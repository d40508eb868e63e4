import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../src/services/biorxiv/categories.js';
import { BX, BX_DEMO, bxApp, get, loadPreprints, xmllint, type Envelope } from './helpers/biorxiv.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';

type Rec = Record<string, string>;
const D = `${BX}/details/biorxiv`;
const P = `${BX}/pubs/biorxiv`;
const SPEC_FIELDS = ['doi', 'title', 'authors', 'author_corresponding', 'author_corresponding_institution', 'date', 'version', 'type', 'license', 'category', 'jatsxml', 'abstract', 'published'];

// The oracle: the demo's saved pages, read directly.
const demoPages = readdirSync(BX_DEMO).filter((f) => f.endsWith('.json'));
const demoRecords = (prefix: string): Rec[] => demoPages.filter((f) => f.startsWith(prefix)).flatMap((f) => (JSON.parse(readFileSync(join(BX_DEMO, f), 'utf8')) as { collection: Rec[] }).collection);
const PAPERS = demoRecords('details').sort((a, b) =>
  (a.date as string) < (b.date as string) ? -1 : a.date! > b.date! ? 1 : a.doi! < b.doi! ? -1 : a.doi! > b.doi! ? 1 : Number(a.version) - Number(b.version),
);
const PUBS = demoRecords('pubs');
const inRange = (from: string, to: string, cat?: string) => PAPERS.filter((r) => (r.date as string) >= from && (r.date as string) <= to && (!cat || r.category === cat));
const key = (r: Record<string, unknown>) => `${r.doi as string} v${r.version as string}`;
const newest = PAPERS.map((r) => r.date as string)
  .sort()
  .at(-1) as string;

for (const target of STORES) {
  describe(`bioRxiv API on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await bxApp(s);
      await loadPreprints(s, t.generations, BX_DEMO);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    describe('details by date range', () => {
      it('lists every version posted in the range, in date order, with the messages entry', async () => {
        const r = await get(t.app, `${D}/2024-01-10/2024-02-20`);
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
        const expected = inRange('2024-01-10', '2024-02-20');
        expect(r.body.collection.map(key)).toEqual(expected.map(key));
        expect(r.body.messages).toEqual([
          {
            status: 'ok',
            category: 'all',
            interval: '2024-01-10:2024-02-20',
            funder: 'all',
            cursor: 0,
            count: expected.length,
            count_new_papers: String(expected.filter((x) => x.version === '1').length),
            total: expected.length,
          },
        ]);
        // Member order and types as the upstream sends them; the spec's integers stay integers.
        expect(Object.keys(r.body.messages[0] as object)).toEqual(['status', 'category', 'interval', 'funder', 'cursor', 'count', 'count_new_papers', 'total']);
      });

      it('gives every field the spec lists, all strings, in the upstream order, plus server', async () => {
        const r = await get(t.app, `${D}/2024-01-01/2024-12-31`);
        expect(r.body.collection.length).toBe(PAPERS.length);
        for (const rec of r.body.collection) {
          expect(Object.keys(rec)).toEqual([...SPEC_FIELDS, 'server']);
          for (const f of SPEC_FIELDS) expect(typeof rec[f], f).toBe('string');
          expect(rec.server).toBe('biorxiv');
          expect(rec.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        }
        const byKey = new Map(r.body.collection.map((x) => [key(x), x]));
        for (const src of PAPERS) {
          const got = byKey.get(key(src)) as Record<string, unknown>;
          for (const f of ['doi', 'title', 'authors', 'author_corresponding', 'author_corresponding_institution', 'date', 'version', 'type', 'license', 'category', 'abstract']) {
            expect(got[f], f).toBe(src[f]);
          }
          // The spec: "empty when unpublished" (the upstream's "NA").
          expect(got.published).toBe(src.published === 'NA' ? '' : src.published);
        }
      });

      it('points jatsxml at the copy served here, under the mount and the origin the client used', async () => {
        const res = await t.app.inject({ method: 'GET', url: `${D}/2024-01-08/2024-01-08`, headers: { host: 'mirror.example:9000' } });
        const rec = (res.json() as Envelope).collection[0] as Rec;
        expect(rec.jatsxml).toBe(`http://mirror.example:9000/biorxiv/content/${rec.doi}v${rec.version}.source.xml`);
        const file = await t.app.inject({ method: 'GET', url: new URL(rec.jatsxml as string).pathname });
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-type']).toMatch(/^application\/xml/);
        expect(xmllint(file.rawPayload)).toBe('');
        expect(file.body).toContain(`<article-id pub-id-type="doi">${rec.doi}</article-id>`);
      });

      it('answers "no posts found" for a range without records', async () => {
        const r = await get(t.app, `${D}/2019-01-01/2019-12-31`);
        expect(r.status).toBe(200);
        expect(r.body.collection).toEqual([]);
        expect(r.body.messages[0]).toMatchObject({ status: 'no posts found', count: 0, total: 0, count_new_papers: '0' });
      });

      it('takes the upstream cursor and format segments, and a cursor past the end finds nothing', async () => {
        const all = inRange('2024-01-01', '2024-12-31');
        const r = await get(t.app, `${D}/2024-01-01/2024-12-31/5/json`);
        expect(r.body.collection.map(key)).toEqual(all.slice(5).map(key));
        expect(r.body.messages[0]).toMatchObject({ status: 'ok', cursor: 5, count: all.length - 5, total: all.length });
        const past = await get(t.app, `${D}/2024-01-01/2024-12-31/${all.length}`);
        expect(past.body.collection).toEqual([]);
        expect(past.body.messages[0]).toMatchObject({ status: 'no posts found', cursor: all.length, count: 0, total: all.length });
      });

      it('serves the same page as XML', async () => {
        const res = await t.app.inject(`${D}/2024-01-01/2024-01-31/0/xml`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(xmllint(res.body)).toBe('');
        const expected = inRange('2024-01-01', '2024-01-31');
        expect(res.body.match(/<record>/g)?.length).toBe(expected.length);
        expect(res.body).toContain(`<message><status>ok</status><category>all</category><interval>2024-01-01:2024-01-31</interval>`);
        expect(res.body).toContain(`<total>${expected.length}</total>`);
        expect(res.body).toContain(`<doi>${expected[0]?.doi}</doi>`);
        expect(res.body).toMatch(/<jatsxml>http:\/\/localhost:80\/biorxiv\/content\/10\.5555\/[^<]+\.source\.xml<\/jatsxml>/);
      });
    });

    describe('category filter', () => {
      it('filters by the spec path segment, in any of its spellings', async () => {
        const expected = inRange('2024-01-01', '2024-12-31', 'cell biology');
        expect(expected.length).toBeGreaterThan(1);
        for (const spelled of ['cell-biology', 'cell_biology', 'Cell%20Biology']) {
          const r = await get(t.app, `${D}/2024-01-01/2024-12-31/${spelled}`);
          expect(r.status, spelled).toBe(200);
          expect(r.body.collection.map(key)).toEqual(expected.map(key));
          expect(r.body.messages[0]).toMatchObject({ status: 'ok', category: 'cell biology', total: expected.length });
        }
      });

      it('filters by the upstream query parameter, with the cursor and format segments', async () => {
        const expected = inRange('2024-01-01', '2024-12-31', 'neuroscience');
        const r = await get(t.app, `${D}/2024-01-01/2024-12-31/1/json?category=neuroscience`);
        expect(r.body.collection.map(key)).toEqual(expected.slice(1).map(key));
        expect(r.body.messages[0]).toMatchObject({
          category: 'neuroscience',
          cursor: 1,
          total: expected.length,
          count_new_papers: String(expected.filter((x) => x.version === '1').length),
        });
        const both = await get(t.app, `${D}/2024-01-01/2024-12-31/neuroscience/1/json?category=Neuroscience`);
        expect(both.body.collection.map(key)).toEqual(expected.slice(1).map(key));
      });

      it('accepts each of the 27 categories and finds what was loaded in it', async () => {
        for (const c of CATEGORIES) {
          const r = await get(t.app, `${D}/2024-01-01/2024-12-31/${c}`);
          expect(r.status, c).toBe(200);
          expect(r.body.messages[0]?.total, c).toBe(inRange('2024-01-01', '2024-12-31', c.replace(/-/g, ' ')).length);
        }
      });

      it('refuses a category that is not one of the 27, naming the valid ones', async () => {
        for (const url of [`${D}/2024-01-01/2024-12-31/astrophysics`, `${D}/2024-01-01/2024-12-31?category=astrophysics`]) {
          const r = await get(t.app, url);
          expect(r.status, url).toBe(404);
          expect(r.body.collection).toEqual([]);
          const status = r.body.messages[0]?.status as string;
          expect(status).toContain('invalid category "astrophysics"');
          expect(status).toContain('animal-behavior-and-cognition');
          expect(status).toContain('zoology');
        }
        const two = await get(t.app, `${D}/2024-01-01/2024-12-31/genomics?category=ecology`);
        expect(two.status).toBe(404);
        expect(two.body.messages[0]?.status).toContain('two different categories');
      });
    });

    describe('details by DOI', () => {
      it('returns every version of a paper, oldest first, under both path forms', async () => {
        const versions = PAPERS.filter((r) => r.doi === '10.5555/2024.01.08.000101');
        expect(versions.length).toBe(3);
        for (const url of [`${D}/10.5555/2024.01.08.000101`, `${D}/10.5555/2024.01.08.000101/na/json`, `${D}/10.5555%2F2024.01.08.000101`]) {
          const r = await get(t.app, url);
          expect(r.status, url).toBe(200);
          expect(r.body.collection.map((x) => x.version)).toEqual(['1', '2', '3']);
          expect(r.body.collection.map((x) => x.date)).toEqual(versions.map((x) => x.date));
          expect(r.body.messages).toEqual([{ status: 'ok', doi: '10.5555/2024.01.08.000101', count: 3, total: 3 }]);
        }
      });

      it('matches the DOI whatever its letter case, and serves XML', async () => {
        const res = await t.app.inject(`${D}/10.5555/2024.01.14.000103/NA/XML`);
        expect(res.statusCode).toBe(200);
        expect(xmllint(res.body)).toBe('');
        expect(res.body).toContain('<doi>10.5555/2024.01.14.000103</doi>');
      });

      it('answers "no posts found" for a DOI that is not loaded', async () => {
        const r = await get(t.app, `${D}/10.1101/000000`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ messages: [{ status: 'no posts found', doi: '10.1101/000000', count: 0, total: 0 }], collection: [] });
      });
    });

    describe('recent posts', () => {
      it('gives the N newest records for a number', async () => {
        const r = await get(t.app, `${D}/5`);
        expect(r.body.collection.map(key)).toEqual(PAPERS.slice(-5).map(key));
        expect(r.body.messages[0]).toMatchObject({ status: 'ok', count: 5, total: 5, interval: `${PAPERS.at(-5)?.date}:${newest}` });
        const cat = await get(t.app, `${D}/2/0/json?category=zoology`);
        expect(cat.body.collection.map(key)).toEqual(inRange('2000-01-01', '2100-01-01', 'zoology').slice(-2).map(key));
      });

      it('gives the last N days for Nd, counted back from the newest record loaded', async () => {
        const from = new Date(`${newest}T00:00:00Z`);
        from.setUTCDate(from.getUTCDate() - 29);
        const start = from.toISOString().slice(0, 10);
        const r = await get(t.app, `${D}/30d`);
        expect(r.body.collection.map(key)).toEqual(inRange(start, newest).map(key));
        expect(r.body.messages[0]).toMatchObject({ interval: `${start}:${newest}`, total: inRange(start, newest).length });
        const cursor = await get(t.app, `${D}/30d/2/xml`);
        expect(cursor.status).toBe(200);
        expect(cursor.raw.match(/<record>/g)?.length).toBe(inRange(start, newest).length - 2);
      });
    });

    describe('pubs', () => {
      const sorted = [...PUBS].sort((a, b) => ((a.published_date as string) < (b.published_date as string) ? -1 : 1));
      const lastPub = sorted.at(-1)?.published_date as string;

      it('lists publications by publication date for a date range, with their fields in order', async () => {
        const r = await get(t.app, `${P}/2024-01-01/2024-12-31/0/json`);
        expect(r.status).toBe(200);
        expect(r.body.collection.map((x) => x.preprint_doi)).toEqual(sorted.map((x) => x.preprint_doi));
        expect(r.body.messages).toEqual([{ status: 'ok', interval: '2024-01-01:2024-12-31', cursor: 0, count: PUBS.length, total: PUBS.length }]);
        expect(Object.keys(r.body.collection[0] as object)).toEqual([
          'preprint_doi',
          'published_doi',
          'published_journal',
          'preprint_platform',
          'preprint_title',
          'preprint_authors',
          'preprint_category',
          'preprint_date',
          'published_date',
          'preprint_abstract',
          'preprint_author_corresponding',
          'preprint_author_corresponding_institution',
        ]);
        expect(r.body.collection[0]).toEqual(sorted[0]);
      });

      it('reads a bare number as days back (the spec), and Nd the same way', async () => {
        const from = new Date(`${lastPub}T00:00:00Z`);
        from.setUTCDate(from.getUTCDate() - 39);
        const start = from.toISOString().slice(0, 10);
        const expected = sorted.filter((x) => (x.published_date as string) >= start);
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(PUBS.length);
        for (const url of [`${P}/40/0/json`, `${P}/40d`, `${P}/40`]) {
          const r = await get(t.app, url);
          expect(
            r.body.collection.map((x) => x.preprint_doi),
            url,
          ).toEqual(expected.map((x) => x.preprint_doi));
          expect(r.body.messages[0]).toMatchObject({ interval: `${start}:${lastPub}`, total: expected.length });
        }
        const xml = await t.app.inject(`${P}/40/1/xml`);
        expect(xmllint(xml.body)).toBe('');
        expect(xml.body.match(/<record>/g)?.length).toBe(expected.length - 1);
      });

      it('finds one publication by the preprint DOI or by the journal DOI', async () => {
        const pub = PUBS[0] as Rec;
        for (const doi of [pub.preprint_doi, pub.published_doi]) {
          const r = await get(t.app, `${P}/${doi}/na/json`);
          expect(r.body.collection).toEqual([pub]);
          expect(r.body.messages[0]).toEqual({ status: 'ok', doi, count: 1, total: 1 });
        }
        const unpublished = PAPERS.find((x) => !PUBS.some((p) => p.preprint_doi === x.doi)) as Rec;
        const none = await get(t.app, `${P}/${unpublished.doi}`);
        expect(none.status).toBe(200);
        expect(none.body).toEqual({ messages: [{ status: 'no posts found', doi: unpublished.doi, count: 0, total: 0 }], collection: [] });
      });

      it('refuses a category, which pubs do not filter on', async () => {
        for (const url of [`${P}/2024-01-01/2024-12-31/genomics`, `${P}/30?category=genomics`]) {
          const r = await get(t.app, url);
          expect(r.status, url).toBe(404);
          expect(r.body.messages[0]?.status).toMatch(/category|no category/);
        }
      });
    });

    describe('full text', () => {
      const doi = '10.5555/2024.01.08.000101';

      it('serves the PDF, HTML and JATS XML of a version where they were loaded', async () => {
        const pdf = await t.app.inject(`${BX}/content/${doi}v1.full.pdf`);
        expect(pdf.statusCode).toBe(200);
        expect(pdf.headers['content-type']).toBe('application/pdf');
        expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
        expect(pdf.rawPayload.equals(readFileSync(join(BX_DEMO, 'content', '10.5555', '2024.01.08.000101v1.full.pdf')))).toBe(true);
        for (const url of [`${BX}/content/${doi}v1`, `${BX}/content/${doi}v1.full`]) {
          const html = await t.app.inject(url);
          expect(html.statusCode, url).toBe(200);
          expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(html.body).toContain('<h1>Demo: Place-cell remapping');
        }
        const xml = await t.app.inject(`${BX}/content/${doi}v2.source.xml`);
        expect(xml.statusCode).toBe(200);
        expect(xml.body).toContain(`version 2`);
      });

      it('answers 404 for a file that was not loaded or an address that names none', async () => {
        for (const url of [`${BX}/content/${doi}v2`, `${BX}/content/${doi}v3.full.pdf`, `${BX}/content/10.5555/2024.01.11.000102v1.full.pdf`]) {
          const r = await t.app.inject(url);
          expect(r.statusCode, url).toBe(404);
          expect(r.headers['content-type']).toMatch(/^text\/plain/);
          expect(r.body).toMatch(/^Not found: no (HTML full text|PDF) of 10\.5555\/[\d.]+ version \d is loaded/);
        }
        const bad = await t.app.inject(`${BX}/content/not-a-doi.pdf`);
        expect(bad.statusCode).toBe(404);
        expect(bad.body).toContain('is not a full-text address');
      });
    });

    describe('errors', () => {
      const cases: [string, RegExp][] = [
        [`${D}/2024-02-30/2024-03-01`, /invalid start date "2024-02-30"/],
        [`${D}/2024-01-01/2024-13-01`, /invalid end date "2024-13-01"/],
        [`${D}/2024-1-1/2024-02-01`, /invalid start date "2024-1-1"/],
        [`${D}/2024-01-01`, /missing end date/],
        [`${D}/2024-03-01/2024-01-01`, /start date 2024-03-01 is after the end date 2024-01-01/],
        [`${D}/2024-01-01/2024-02-01/-1`, /invalid cursor "-1"/],
        [`${D}/2024-01-01/2024-02-01/1.5/json`, /invalid cursor "1.5"/],
        [`${D}/2024-01-01/2024-02-01/0/csv`, /invalid format "csv": expected json or xml/],
        [`${D}/2024-01-01/2024-02-01/0/json/extra`, /unexpected path segment "extra"/],
        [`${D}/yesterday`, /invalid interval "yesterday"/],
        [`${D}/0`, /invalid number of records "0"/],
        [`${D}/0d`, /invalid number of days "0"/],
        [`${D}/999999d`, /invalid number of days "999999"/],
        [`${D}/`, /missing interval/],
        [`${D}/10.1101`, /invalid DOI "10.1101\/"/],
        [`${D}/10.1101/339747/na/pdf`, /invalid format "pdf"/],
        [`${BX}/details/medrxiv/2024-01-01/2024-02-01`, /unknown server "medrxiv"/],
        [`${P}/0`, /invalid number of days "0"/],
        [`${P}/abc`, /invalid interval "abc"/],
        [`${BX}/nothing/here`, /no such endpoint: GET \/biorxiv\/nothing\/here/],
      ];
      for (const [url, message] of cases) {
        it(`answers 404 with the envelope naming what is wrong: ${url}`, async () => {
          const r = await get(t.app, url);
          expect(r.status).toBe(404);
          expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(r.body.collection).toEqual([]);
          expect(r.body.messages).toHaveLength(1);
          expect(r.body.messages[0]?.status).toMatch(message);
        });
      }

      it('answers other methods with the envelope', async () => {
        const post = await t.app.inject({ method: 'POST', url: `${D}/2024-01-01/2024-02-01`, payload: {} });
        expect(post.statusCode).toBe(404);
        expect((post.json() as Envelope).messages[0]?.status).toContain('no such endpoint: POST');
      });

      it('answers an error in XML when XML was asked for', async () => {
        const res = await t.app.inject(`${D}/2024-01-01/2024-02-01/-5/xml`);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(xmllint(res.body)).toBe('');
        expect(res.body).toContain('<messages><message><status>invalid cursor "-5": expected 0 or a positive whole number');
        expect(res.body).toContain('<collection></collection>');
      });
    });

    it('has no rate limit: the spec gives none, only a recommended delay', async () => {
      const limited = await bxApp(s, { config: { limits: true } });
      try {
        const all = await Promise.all(Array.from({ length: 60 }, () => limited.app.inject(`${D}/3`)));
        expect(all.map((r) => r.statusCode)).toEqual(Array.from({ length: 60 }, () => 200));
      } finally {
        await limited.close();
      }
    });

    it('on a port of its own, links carry no mount', async () => {
      const own = await bxApp(s, { prefixed: false });
      try {
        const r = await get(own.app, '/details/biorxiv/10.5555/2024.01.08.000101');
        expect(r.body.collection[0]?.jatsxml).toBe('http://localhost:80/content/10.5555/2024.01.08.000101v1.source.xml');
        const pdf = await own.app.inject('/content/10.5555/2024.01.08.000101v1.full.pdf');
        expect(pdf.statusCode).toBe(200);
      } finally {
        await own.close();
      }
    });
  });
}
