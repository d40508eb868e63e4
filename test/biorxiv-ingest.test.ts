import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import { FormatError } from '../src/core/ingest/errors.js';
import { paperRecord, pubRecord } from '../synthetic/biorxiv-generate.js';
import { BX, BX_DEMO, bxApp, get, loadPreprints, pdfText, removeScratch, scratch, writeJson } from './helpers/biorxiv.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { missing } from './helpers/tools.js';

const NO_POPPLER = missing('pdftotext', 'poppler-utils (pdftotext)');

const D = `${BX}/details/biorxiv`;
const page = (collection: unknown[]) => ({ messages: [{ status: 'ok', cursor: 0, count: collection.length }], collection });

function countFiles(dir: string): { json: number; other: number } {
  let json = 0;
  let other = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    if (e.name.endsWith('.json')) json++;
    else other++;
  }
  return { json, other };
}

for (const target of STORES) {
  describe(`bioRxiv ingest on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await bxApp(s);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
      removeScratch();
    });

    it('answers "no posts found" everywhere before anything is loaded', async () => {
      const list = await get(t.app, `${D}/2024-01-01/2024-01-31/genomics`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        messages: [{ status: 'no posts found', category: 'genomics', interval: '2024-01-01:2024-01-31', funder: 'all', cursor: 0, count: 0, count_new_papers: '0', total: 0 }],
        collection: [],
      });
      expect((await get(t.app, `${D}/7d`)).body.messages[0]).toMatchObject({ status: 'no posts found', interval: '7d' });
      expect((await get(t.app, `${BX}/pubs/biorxiv/30`)).body.messages[0]).toEqual({ status: 'no posts found', interval: '30d', cursor: 0, count: 0, total: 0 });
      expect((await get(t.app, `${D}/10.1101/339747`)).body.messages[0]).toEqual({ status: 'no posts found', doi: '10.1101/339747', count: 0, total: 0 });
      expect((await t.app.inject(`${BX}/content/10.1101/339747v1.full.pdf`)).statusCode).toBe(404);
    });

    it('loads the demo folder through the dataset, records, publications and full text', async () => {
      const pages = readdirSync(BX_DEMO).filter((f) => f.endsWith('.json'));
      const inPages = pages.map((f) => (JSON.parse(readFileSync(join(BX_DEMO, f), 'utf8')) as { collection: unknown[] }).collection.length);
      const files = countFiles(BX_DEMO);
      expect(files.json).toBe(pages.length);
      const r = await loadPreprints(s, t.generations, BX_DEMO);
      expect(r.skipped).toBe(0);
      expect(r.records).toBe(inPages.reduce((a, b) => a + b, 0) + files.other);
      // The release is the newest posting date among the records.
      const dates = pages
        .filter((f) => f.startsWith('details'))
        .flatMap((f) => (JSON.parse(readFileSync(join(BX_DEMO, f), 'utf8')) as { collection: { date: string }[] }).collection.map((x) => x.date));
      expect(r.release).toBe(dates.sort().at(-1));
    });

    it('reads saved pages, arrays, single records and JSON lines, gzipped or not', async () => {
      const dir = scratch();
      writeJson(dir, 'page.json', page([paperRecord(0, 1), paperRecord(1, 1)]));
      writeJson(dir, 'array.json', [paperRecord(2, 1), paperRecord(3, 1)]);
      writeJson(dir, 'one.json', paperRecord(3, 2));
      writeFileSync(join(dir, 'lines.jsonl'), [paperRecord(4, 1), paperRecord(5, 1)].map((x) => JSON.stringify(x)).join('\n') + '\n\n');
      writeFileSync(join(dir, 'zipped.json.gz'), gzipSync(JSON.stringify(page([paperRecord(6, 1), pubRecord(0)]))));
      writeFileSync(join(dir, 'zipped-array.json.gz'), gzipSync(JSON.stringify([paperRecord(7, 1)])));
      const r = await loadPreprints(s, t.generations, dir);
      expect(r.skipped).toBe(0);
      expect(r.records).toBe(10);
      for (const p of [0, 2, 3, 4, 6, 7]) {
        const got = await get(t.app, `${D}/${paperRecord(p, 1).doi}`);
        expect(got.body.collection.length, String(p)).toBe(p === 3 ? 2 : 1);
      }
      const pub = await get(t.app, `${BX}/pubs/biorxiv/${pubRecord(0).preprint_doi}`);
      expect(pub.body.collection).toEqual([pubRecord(0)]);
    });

    it('normalises records to the spec: strings, empty published, DOI case kept but matched without case', async () => {
      const dir = scratch();
      const rec = { ...paperRecord(10, 1), doi: '10.5555/ABC.Mixed', version: 1, published: 'NA' } as Record<string, unknown>;
      delete rec.server;
      delete rec.license;
      const legacy = { ...pubRecord(10), biorxiv_doi: '10.5555/ABC.Mixed' } as Record<string, unknown>;
      delete legacy.preprint_doi;
      writeJson(dir, 'page.json', page([rec, legacy]));
      await loadPreprints(s, t.generations, dir);
      const got = await get(t.app, `${D}/10.5555/abc.mixed`);
      const out = got.body.collection[0] as Record<string, unknown>;
      expect(out.doi).toBe('10.5555/ABC.Mixed');
      expect(out.version).toBe('1');
      expect(out.published).toBe('');
      expect(out.license).toBe('');
      expect(out.server).toBe('biorxiv');
      expect(out.jatsxml).toBe('http://localhost:80/biorxiv/content/10.5555/ABC.Mixed' + 'v1.source.xml');
      const pub = await get(t.app, `${BX}/pubs/biorxiv/10.5555/abc.mixed`);
      expect((pub.body.collection[0] as Record<string, unknown>).preprint_doi).toBe('10.5555/ABC.Mixed');
      expect(Object.keys(pub.body.collection[0] as object)).not.toContain('biorxiv_doi');
    });

    it('skips and reports records it cannot serve, and later duplicates', async () => {
      const dir = scratch();
      const bad = [
        'a string',
        { title: 'no identifier' },
        { ...paperRecord(20, 1), doi: 'not-a-doi' },
        { ...paperRecord(21, 1), date: '2021-02-30' },
        { ...paperRecord(22, 1), version: 'v2' },
        { ...paperRecord(23, 1), server: 'medrxiv' },
        { ...paperRecord(24, 1), title: { nested: true } },
        { ...pubRecord(25), published_date: '25 May 2021' },
        { ...pubRecord(26), preprint_platform: 'medRxiv' },
      ];
      writeJson(dir, 'a.json', page([paperRecord(30, 1), ...bad, pubRecord(30)]));
      writeJson(dir, 'b.json', page([{ ...paperRecord(30, 1), title: 'second copy' }, pubRecord(30), paperRecord(31, 1)]));
      writeFileSync(join(dir, 'c.jsonl'), `${JSON.stringify(paperRecord(32, 1))}\n{"doi": \n`);
      writeFileSync(join(dir, 'notes.txt'), 'not data');
      const skipped: [SkipPlace, string][] = [];
      const r = await loadPreprints(s, t.generations, dir, { onSkip: (p, why) => skipped.push([p, why]) });
      expect(r.records).toBe(4);
      const reasons = skipped.map(([p, why]) => `${p.file.split('/').pop()}@${p.position}: ${why}`);
      expect(reasons).toHaveLength(bad.length + 2 + 2);
      for (const [needle] of [
        ['not a JSON object'],
        ['neither a preprint record'],
        ['malformed doi "not-a-doi"'],
        ['malformed date "2021-02-30"'],
        ['malformed version "v2"'],
        ['a medrxiv record'],
        ['field "title" is not a string'],
        ['malformed published_date "25 May 2021"'],
        ['a medRxiv record'],
        ['invalid JSON'],
        ['notes.txt@file: not saved bioRxiv API pages'],
      ]) {
        expect(
          reasons.some((x) => x.includes(needle as string)),
          needle,
        ).toBe(true);
      }
      expect(reasons.filter((x) => x.startsWith('b.json') && x.includes('duplicate'))).toHaveLength(2);
      const first = await get(t.app, `${D}/${paperRecord(30, 1).doi}`);
      expect(first.body.collection[0]?.title).toBe(paperRecord(30, 1).title);
    });

    it.skipIf(!!NO_POPPLER)(`maps full-text files to DOIs by their names and the folder of their prefix${NO_POPPLER}`, async () => {
      const dir = scratch();
      const rec = paperRecord(40, 1);
      const [prefix, suffix] = (rec.doi as string).split('/') as [string, string];
      writeJson(dir, 'page.json', page([rec, { ...paperRecord(41, 1), doi: '10.1101/123456' }]));
      mkdirSync(join(dir, 'content', prefix), { recursive: true });
      const pdf = readFileSync(join(BX_DEMO, 'content', '10.5555', '2024.01.08.000101v1.full.pdf'));
      writeFileSync(join(dir, 'content', prefix, `${suffix}v1.full.pdf`), pdf);
      writeFileSync(join(dir, 'content', prefix, `${suffix}v1.source.xml`), '<article/>');
      // Not in a folder named by a prefix: bioRxiv's own, 10.1101.
      writeFileSync(join(dir, '123456v1.full.html'), '<html><body>plain</body></html>');
      writeFileSync(join(dir, '123456v1.html'), '<html><body>same version again</body></html>');
      const skipped: string[] = [];
      const r = await loadPreprints(s, t.generations, dir, { onSkip: (_p, why) => skipped.push(why) });
      expect(r.records).toBe(5);
      expect(skipped).toEqual([expect.stringContaining('duplicate')]);
      const got = await t.app.inject(`${BX}/content/${rec.doi}v1.full.pdf`);
      expect(got.statusCode).toBe(200);
      expect(pdfText(got.rawPayload)).toContain('This is demo full text');
      expect((await t.app.inject(`${BX}/content/${rec.doi}v1.source.xml`)).body).toBe('<article/>');
      expect((await t.app.inject(`${BX}/content/10.1101/123456v1`)).body).toContain('plain');
    });

    it('refuses input that is not preprint data, and changes nothing', async () => {
      const dir = scratch();
      const good = writeJson(dir, 'good.json', page([paperRecord(50, 1)]));
      await loadPreprints(s, t.generations, good);
      const cases: [string, RegExp][] = [
        [writeJson(dir, 'broken.json', '{"messages": [{"status": "ok"}], "collection": ['), /invalid JSON/],
        [writeJson(dir, 'studies.json', { studies: [{ protocolSection: {} }] }), /no preprints records found|no preprint/],
        [writeJson(dir, 'notes.txt', 'hello'), /not saved bioRxiv API pages/],
        [
          writeJson(
            dir,
            'many.json',
            Array.from({ length: 120 }, (_, i) => ({ id: i })),
          ),
          /first 100 records are not bioRxiv records/,
        ],
        [scratch(), /no preprint files found/],
      ];
      for (const [input, message] of cases) {
        await expect(loadPreprints(s, t.generations, input), input).rejects.toThrow(FormatError);
        await expect(loadPreprints(s, t.generations, input), input).rejects.toThrow(message);
      }
      const still = await get(t.app, `${D}/${paperRecord(50, 1).doi}`);
      expect(still.body.messages[0]?.status).toBe('ok');
    });

    it('answers an unexpected failure with a 500 envelope carrying only the request id', async () => {
      const dir = scratch();
      writeJson(dir, 'a.json', page([paperRecord(70, 1)]));
      const r = await loadPreprints(s, t.generations, dir);
      // Breaks the served generation behind the service's back.
      await s.db.exec(`DROP TABLE "bx_paper_order_g${r.gen}"`);
      const res = await t.app.inject({ method: 'GET', url: `${D}/2000-01-01/2100-01-01`, headers: { 'x-request-id': 'req-123' } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ messages: [{ status: 'internal error (request req-123)' }], collection: [] });
      const ok = await get(t.app, `${D}/${paperRecord(70, 1).doi}`);
      expect(ok.status).toBe(200);
    });

    it('switches to a new load whole, keeping the old one served until then', async () => {
      const a = scratch();
      writeJson(a, 'a.json', page([paperRecord(60, 1), paperRecord(61, 1)]));
      const b = scratch();
      writeJson(b, 'b.json', page([paperRecord(62, 1)]));
      await loadPreprints(s, t.generations, a);
      const before = await get(t.app, `${D}/2000-01-01/2100-01-01`);
      expect(before.body.messages[0]?.total).toBe(2);
      await loadPreprints(s, t.generations, b);
      t.generations.invalidate();
      const after = await get(t.app, `${D}/2000-01-01/2100-01-01`);
      expect(after.body.collection.map((x) => x.doi)).toEqual([paperRecord(62, 1).doi]);
    });
  });
}
