import { describe, expect, it } from 'vitest';
import { ServiceError } from '../src/core/http/errors.js';
import { CATEGORIES, knownCategory } from '../src/services/biorxiv/categories.js';
import { contentAddress, fullTextFile } from '../src/services/biorxiv/fulltext.js';
import { parseRequest } from '../src/services/biorxiv/paths.js';
import { isDate, toPaper } from '../src/services/biorxiv/records.js';
import { renderJson, renderXml } from '../src/services/biorxiv/render.js';
import { paperRecord } from '../synthetic/biorxiv-generate.js';
import { xmllint } from './helpers/biorxiv.js';

const parse = (path: string, q: Record<string, string> = {}, endpoint: 'details' | 'pubs' = 'details') => parseRequest(endpoint, path.split('/'), q);

describe('bioRxiv path grammar', () => {
  it('reads each interval form with its optional category, cursor and format', () => {
    expect(parse('2020-01-01/2020-01-31')).toEqual({ op: 'list', interval: { kind: 'range', from: '2020-01-01', to: '2020-01-31' }, category: undefined, cursor: 0, format: 'json' });
    expect(parse('2020-01-01/2020-01-31/genomics')).toMatchObject({ category: 'genomics', cursor: 0 });
    expect(parse('2020-01-01/2020-01-31/45/XML')).toMatchObject({ cursor: 45, format: 'xml' });
    expect(parse('2020-01-01/2020-01-31/plant_biology/100/json')).toMatchObject({ category: 'plant biology', cursor: 100 });
    expect(parse('2020-01-01/2020-01-31/', { category: 'cell biology' })).toMatchObject({ category: 'cell biology' });
    expect(parse('100/0/json')).toMatchObject({ interval: { kind: 'newest', count: 100 } });
    expect(parse('7d')).toMatchObject({ interval: { kind: 'days', days: 7 } });
    expect(parse('30/0/json', {}, 'pubs')).toMatchObject({ interval: { kind: 'days', days: 30 } });
    expect(parse('10.1101/339747/na/xml')).toEqual({ op: 'doi', doi: '10.1101/339747', format: 'xml' });
    expect(parse('10.1101/2020.09.09.20191205')).toEqual({ op: 'doi', doi: '10.1101/2020.09.09.20191205', format: 'json' });
  });

  it('refuses with the service error, in XML when the path asks for XML', () => {
    const err = (() => {
      try {
        parse('2020-01-01/2020-01-31/abc/0/xml');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(404);
    expect((err as ServiceError).contentType).toMatch(/^application\/xml/);
    expect(xmllint(String((err as ServiceError).body))).toBe('');
    expect(() => parse('2020-01-01/2020-01-31/0', { category: 'nope' })).toThrow(ServiceError);
    expect(() => parse('9007199254740993')).toThrow(ServiceError);
    expect(() => parse('2020-01-01/2020-01-31/99999999999999999999')).toThrow(ServiceError);
  });
});

describe('bioRxiv records', () => {
  it('checks dates against the calendar', () => {
    expect(['2024-02-29', '2023-12-31'].every(isDate)).toBe(true);
    expect(['2023-02-29', '2023-13-01', '2023-1-01', '20230101', ''].some(isDate)).toBe(false);
  });

  it('keeps the upstream field order, with funder before published and unknown members last', () => {
    const rec = { extra: 1, ...paperRecord(1, 1), funder: [{ name: 'A funder', id: 'x', 'id-type': 'ROR', award: 'NA' }] };
    const p = toPaper(rec);
    if (typeof p === 'string') throw new Error(p);
    expect(Object.keys(JSON.parse(p.doc) as object)).toEqual([
      'doi',
      'title',
      'authors',
      'author_corresponding',
      'author_corresponding_institution',
      'date',
      'version',
      'type',
      'license',
      'category',
      'jatsxml',
      'abstract',
      'funder',
      'published',
      'server',
      'extra',
    ]);
  });

  it('knows the 27 categories in every spelling and no others', () => {
    expect(CATEGORIES).toHaveLength(27);
    for (const c of CATEGORIES) {
      expect(knownCategory(c)).toBe(c.replace(/-/g, ' '));
      expect(knownCategory(c.toUpperCase().replace(/-/g, '_'))).toBe(c.replace(/-/g, ' '));
    }
    expect(knownCategory('cardiovascular medicine')).toBeUndefined();
  });
});

describe('bioRxiv full-text names', () => {
  it('reads file names and site addresses', () => {
    expect(fullTextFile('/x/content/10.1101/2020.01.01.123456v2.full.pdf')).toMatchObject({ doiKey: '10.1101/2020.01.01.123456', version: 2, kind: 'pdf' });
    expect(fullTextFile('/x/339747v1.source.xml')).toMatchObject({ doiKey: '10.1101/339747', version: 1, kind: 'xml' });
    expect(fullTextFile('/x/10.5555/ABCv3.full')).toMatchObject({ doiKey: '10.5555/abc', version: 3, kind: 'html' });
    expect(fullTextFile('/x/readme.pdf')).toBeUndefined();
    expect(fullTextFile('/x/339747v0.full.pdf')).toBeUndefined();
    expect(contentAddress('10.1101/339747v1')).toEqual({ doi: '10.1101/339747', version: 1, kind: 'html' });
    expect(contentAddress('10.1101/339747v12.full.pdf')).toEqual({ doi: '10.1101/339747', version: 12, kind: 'pdf' });
    expect(contentAddress('10.1101/339747')).toBeUndefined();
    expect(contentAddress('10.1101/a/b/339747v1')).toBeUndefined();
    expect(contentAddress('early/2018/10/30/456574.source.xml')).toBeUndefined();
  });
});

describe('bioRxiv rendering', () => {
  const doc = JSON.stringify({ doi: '10.1101/1', title: 'a < b & "c" \u0001', jatsxml: '/content/10.1101/1v1.source.xml', funder: [{ name: 'F', 'id-type': 'ROR' }] });

  it('keeps JSON valid whatever the Host header holds', () => {
    const body = renderJson({ status: 'ok' }, [doc], 'http://evil"host\\');
    const parsed = JSON.parse(body) as { collection: { jatsxml: string }[] };
    expect(parsed.collection[0]?.jatsxml).toBe('http://evil"host\\/content/10.1101/1v1.source.xml');
  });

  it('writes well-formed XML, escaping text and dropping characters XML cannot carry', () => {
    const xml = renderXml({ status: 'ok', count: 1 }, [doc], 'http://h<&>');
    expect(xmllint(xml)).toBe('');
    expect(xml).toContain('<title>a &lt; b &amp; "c" </title>');
    expect(xml).toContain('<funder><item><name>F</name><id-type>ROR</id-type></item></funder>');
    expect(xml).toContain('<jatsxml>http://h&lt;&amp;&gt;/content/10.1101/1v1.source.xml</jatsxml>');
  });
});
