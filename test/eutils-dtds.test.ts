import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localDoctype } from '../src/services/eutils/dtds.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { E, loadDemo, ncbiApp } from './helpers/ncbi.js';
import type { TestApp } from './helpers/app.js';

describe('DOCTYPE addresses', () => {
  it('replaces NCBI’s DTD addresses in the head only', () => {
    const xml = '<?xml version="1.0" ?>\n<!DOCTYPE eLinkResult PUBLIC "-//NLM//DTD elink 20101123//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20101123/elink.dtd">\n<eLinkResult/>';
    expect(localDoctype(xml, 'http://h:1/eutils')).toContain('"http://h:1/eutils/eutils/dtd/20101123/elink.dtd"');
    const gene = '<!DOCTYPE Entrezgene-Set PUBLIC "x" "https://www.ncbi.nlm.nih.gov/data_specs/dtd/NCBI_Entrezgene.dtd">';
    expect(localDoctype(gene, 'http://h')).toContain('"http://h/data_specs/dtd/NCBI_Entrezgene.dtd"');
    const body = `<a/>${' '.repeat(2000)}https://eutils.ncbi.nlm.nih.gov/eutils/dtd/x`;
    expect(localDoctype(body, 'http://h')).toBe(body);
  });
});

describe.each(STORES)('E-utilities DTDs on $name', (target) => {
  let store: OpenedStore;
  let t: TestApp;
  beforeAll(async () => {
    store = await target.open();
    t = await ncbiApp(store);
    await loadDemo(store, t.generations);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });
  afterEach(() => {
    delete process.env.BIOMIRROR_EUTILS_DTDS;
  });

  it('serves every DTD a reply names, and the module DTDs they include', async () => {
    for (const path of [
      '/eutils/dtd/20060628/esearch.dtd',
      '/eutils/dtd/20101123/elink.dtd',
      '/eutils/dtd/20230808/esummary_gene.dtd',
      '/eutils/dtd/20230811/esummary_clinvar.dtd',
      '/eutils/dtd/20190110/einfo.dtd',
      '/data_specs/dtd/NCBI_Entrezgene.dtd',
      '/data_specs/dtd/NCBI_Gene.mod.dtd',
    ]) {
      const r = await t.app.inject({ url: `${E}${path}` });
      expect(r.statusCode, path).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/xml-dtd/);
      expect(r.body).toMatch(/<!(ELEMENT|ENTITY)/);
    }
    for (const bad of ['constructor', '__proto__', 'nothing.dtd']) {
      expect((await t.app.inject({ url: `${E}/eutils/dtd/20060628/${bad}` })).statusCode).toBe(404);
    }
  });

  it('names the DTDs at this server in the replies of every utility, errors included', async () => {
    for (const path of [
      'esearch.fcgi?db=gene&term=BRCA1',
      'einfo.fcgi',
      'elink.fcgi?dbfrom=gene&db=clinvar&id=672',
      'esummary.fcgi?db=clinvar&id=12397',
      'efetch.fcgi?db=gene&id=672&retmode=xml',
      'esearch.fcgi?db=gene&term=BRCA1&retstart=-5',
    ]) {
      const r = await t.app.inject({ url: `${E}/entrez/eutils/${path}`, headers: { host: 'mirror.example:8080' } });
      const doctype = /<!DOCTYPE[^>]*>/.exec(r.body)?.[0] ?? '';
      expect(doctype, path).toMatch(/"http:\/\/mirror\.example:8080\/eutils\/(eutils|data_specs)\/dtd\//);
      expect(doctype).not.toContain('ncbi.nlm.nih.gov');
    }
  });

  it('keeps NCBI’s addresses when asked to', async () => {
    process.env.BIOMIRROR_EUTILS_DTDS = 'public';
    const other = await ncbiApp(store);
    try {
      const r = await other.app.inject({ url: `${E}/entrez/eutils/esearch.fcgi?db=gene&term=BRCA1` });
      expect(r.body).toContain('"https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd"');
    } finally {
      await other.close();
    }
  });
});
