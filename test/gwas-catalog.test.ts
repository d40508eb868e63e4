import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gwas } from '../src/services/gwas/index.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { API, CATALOG_DEMO, get, gwasApp, loadCatalog, local, type Json } from './helpers/gwas.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

type Row = Record<string, string> & { MAPPED_TRAIT_URI: string; 'DISEASE/TRAIT': string; '95% CI (TEXT)': string };

/** The demo download files read directly, to know what the API must answer. */
function tsv(name: string): Row[] {
  const [head, ...rows] = readFileSync(join(CATALOG_DEMO, name), 'utf8').trimEnd().split('\n');
  const cols = (head as string).split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i] as string, v])) as Row);
}
const STUDIES = tsv('gwas-catalog-studies_demo.tsv');
const ASSOCS = tsv('gwas-catalog-associations_ontology-annotated_demo.tsv');

type Body = Json & { _embedded?: Record<string, Json[]>; _links?: Record<string, { href: string; templated?: boolean }>; page?: Record<string, number> };

function items(b: Body, name: string): Json[] {
  return (b._embedded?.[name] ?? []) as Json[];
}

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS catalog API on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const json = async (url: string, headers: Record<string, string> = {}) => {
    const r = await get(t.app, url, headers);
    return { ...r, body: r.body as Body };
  };

  beforeAll(async () => {
    store = await target.open();
    t = await gwasApp(store);
    await loadCatalog(store, t.generations);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('lists every repository at the root, with its paging template', async () => {
    const r = await json(API);
    expect(r.status).toBe(200);
    for (const repo of ['studies', 'associations', 'singleNucleotidePolymorphisms', 'efoTraits', 'publications', 'genes']) {
      expect(r.body._links?.[repo]).toEqual({ href: `http://localhost:80${API}/${repo}{?page,size,sort}`, templated: true });
    }
  });

  it('pages studies with Spring Data REST envelope and page numbers from 0', async () => {
    const r = await json(`${API}/studies`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/hal+json;charset=UTF-8');
    expect(r.body.page).toEqual({ size: 20, totalElements: STUDIES.length, totalPages: 1, number: 0 });
    expect(items(r.body, 'studies')).toHaveLength(STUDIES.length);
    // One page: only self (and the repository's search link), as the real service answers.
    expect(Object.keys(r.body._links ?? {})).toEqual(['self', 'search']);
    expect(r.body._links?.self?.href).toBe(`http://localhost:80${API}/studies`);

    const p1 = await json(`${API}/studies?page=1&size=4`);
    expect(p1.body.page).toEqual({ size: 4, totalElements: STUDIES.length, totalPages: Math.ceil(STUDIES.length / 4), number: 1 });
    expect(Object.keys(p1.body._links ?? {})).toEqual(['first', 'prev', 'self', 'next', 'last', 'search']);
    expect(p1.body._links?.first?.href).toBe(`http://localhost:80${API}/studies?page=0&size=4`);
    expect(p1.body._links?.prev?.href).toBe(`http://localhost:80${API}/studies?page=0&size=4`);
    expect(p1.body._links?.next?.href).toBe(`http://localhost:80${API}/studies?page=2&size=4`);
    expect(p1.body._links?.last?.href).toBe(`http://localhost:80${API}/studies?page=${Math.ceil(STUDIES.length / 4) - 1}&size=4`);
  });

  it('gives every record once to a client following next links, for collections and finders', async () => {
    const walk = async (start: string, name: string, key: string) => {
      const seen: string[] = [];
      let url: string | undefined = start;
      let pages = 0;
      while (url) {
        const r = await json(url);
        expect(r.status).toBe(200);
        seen.push(...items(r.body, name).map((x) => String(x[key] ?? (x._links as Record<string, { href: string }>).self?.href)));
        url = r.body._links?.next ? local(r.body._links.next.href) : undefined;
        if (++pages > 100) throw new Error('next links do not end');
      }
      return seen;
    };
    const studies = await walk(`${API}/studies?size=4`, 'studies', 'accessionId');
    expect(studies).toEqual(STUDIES.map((s) => s['STUDY ACCESSION']));
    const assocs = await walk(`${API}/associations?size=5`, 'associations', 'self');
    expect(new Set(assocs).size).toBe(ASSOCS.length);
    expect(assocs).toHaveLength(ASSOCS.length);
    const sorted = await walk(`${API}/associations?size=5&sort=pvalue,desc`, 'associations', 'self');
    expect([...sorted].sort()).toEqual([...assocs].sort());
    const hypertension = ASSOCS.filter((a) => a.MAPPED_TRAIT_URI.includes('EFO_0000537')).length;
    const inTrait = await walk(`${API}/efoTraits/EFO_0000537/associations?size=2`, 'associations', 'self');
    expect(new Set(inTrait).size).toBe(hypertension);
    expect(inTrait).toHaveLength(hypertension);
  });

  it('answers a study with the real fields, its ancestries and links that resolve', async () => {
    const row = STUDIES.find((s) => s['STUDY ACCESSION'] === 'GCST000392') as Record<string, string>;
    const r = await json(`${API}/studies/GCST000392`);
    expect(r.status).toBe(200);
    const s = r.body;
    expect(s.accessionId).toBe('GCST000392');
    expect(s.publicationInfo).toMatchObject({ pubmedId: row['PUBMED ID'], publicationDate: row.DATE, publication: row.JOURNAL, title: row.STUDY });
    expect((s.publicationInfo as Json).author).toEqual({ fullname: row['FIRST AUTHOR'], orcid: null });
    expect(s.initialSampleSize).toBe(row['INITIAL SAMPLE SIZE']);
    expect(s.replicationSampleSize).toBe(row['REPLICATION SAMPLE SIZE']);
    expect(s.snpCount).toBe(841622);
    expect(s.imputed).toBe(true);
    expect(s.genotypingTechnologies).toEqual([{ genotypingTechnology: 'Genome-wide genotyping array' }]);
    expect((s.ancestries as Json[]).map((a) => a.type)).toEqual(['initial', 'replication']);
    expect(s.diseaseTrait).toEqual({ trait: row['DISEASE/TRAIT'] });
    expect(s._links).toMatchObject({ study: { href: `http://localhost:80${API}/studies/GCST000392{?projection}`, templated: true } });
    for (const rel of ['self', 'associations', 'snps', 'efoTraits', 'associationsByStudySummary']) {
      const link = (s._links as Record<string, { href: string }>)[rel] as { href: string };
      expect((await get(t.app, local(link.href))).status, rel).toBe(200);
    }
  });

  it('finds studies by PubMed id, by reported trait ignoring case, by EFO trait and URI', async () => {
    const byPubmed = await json(`${API}/studies/search/findByPublicationIdPubmedId?pubmedId=24882193`);
    expect(
      items(byPubmed.body, 'studies')
        .map((s) => s.accessionId)
        .sort(),
    ).toEqual(
      STUDIES.filter((s) => s['PUBMED ID'] === '24882193')
        .map((s) => s['STUDY ACCESSION'])
        .sort(),
    );
    expect(byPubmed.body._links?.self?.href).toBe(`http://localhost:80${API}/studies/search/findByPublicationIdPubmedId?pubmedId=24882193`);
    expect(byPubmed.body.page?.totalElements).toBe(2);

    const expected = STUDIES.filter((s) => s['DISEASE/TRAIT'].toLowerCase() === 'hypertension').map((s) => s['STUDY ACCESSION']);
    expect(expected.length).toBeGreaterThan(1);
    const upper = await json(`${API}/studies/search/findByDiseaseTrait?diseaseTrait=HYPERTENSION`);
    expect(items(upper.body, 'studies').map((s) => s.accessionId)).toEqual(expected);

    const byEfo = await json(`${API}/studies/search/findByEfoTrait?efoTrait=Hypertension`);
    const byUri = await json(`${API}/studies/search/findByEfoUri?uri=${encodeURIComponent('http://www.ebi.ac.uk/efo/EFO_0000537')}`);
    const withTrait = STUDIES.filter((s) => s.MAPPED_TRAIT_URI.split(', ').includes('http://www.ebi.ac.uk/efo/EFO_0000537')).map((s) => s['STUDY ACCESSION']);
    expect(items(byEfo.body, 'studies').map((s) => s.accessionId)).toEqual(withTrait);
    expect(items(byUri.body, 'studies').map((s) => s.accessionId)).toEqual(withTrait);
  });

  it('answers associations with p-value mantissa and exponent, effect sizes and the spec fields', async () => {
    const r = await json(`${API}/singleNucleotidePolymorphisms/rs7903146/associations`);
    expect(r.status).toBe(200);
    const list = items(r.body, 'associations');
    expect(list.map((a) => [a.pvalueMantissa, a.pvalueExponent, a.studyId]).sort()).toEqual([
      [3, -1315, 'GCST90492734'],
      [5, -420, 'GCST010555'],
    ]);
    // Below the smallest double, the number itself is 0 (the catalog's answer too).
    for (const a of list) {
      expect(a.pvalue).toBe(0);
      expect(a.rsId).toBe('rs7903146');
      expect(a.efoTrait).toBe('type 2 diabetes mellitus');
      expect(a.mappedLabel).toEqual(['type 2 diabetes mellitus']);
    }
    expect(list.find((a) => a.studyId === 'GCST010555')).toMatchObject({ strongestAllele: 'rs7903146-C', riskFrequency: '0.7079', range: '[0.27-0.29]' });

    const braces = ASSOCS.findIndex((a) => a['P-VALUE (TEXT)'] === '(braces)');
    const one = await json(`${API}/associations?size=1&page=${braces}`);
    const a = items(one.body, 'associations')[0] as Json;
    expect(a).toMatchObject({ pvalueDescription: '(braces)', pvalueText: '(braces)', pvalueMantissa: 4, pvalueExponent: -7, pvalue: 4e-7, studyId: 'GCST000706' });
    const self = local((a._links as Record<string, { href: string }>).self!.href);
    const again = await json(self);
    expect(again.body).toEqual(a);
    expect((await json(`${self}/study`)).body.accessionId).toBe('GCST000706');
    expect(items((await json(`${self}/efoTraits`)).body, 'efoTraits').map((x) => x.trait)).toEqual(['braces']);
    expect(items((await json(`${self}/snps`)).body, 'singleNucleotidePolymorphisms').map((x) => x.rsId)).toEqual(['rs1535480']);

    const beta = ASSOCS.findIndex((x) => /increase|decrease/.test(x['95% CI (TEXT)']));
    if (beta >= 0) {
      const b = items((await json(`${API}/associations?size=1&page=${beta}`)).body, 'associations')[0] as Json;
      expect(b.betaNum).toBe(Number(ASSOCS[beta]!['OR or BETA']));
      expect(b.orPerCopyNum).toBeNull();
    }
  });

  it('inlines related resources with the projections, leaving the dates out', async () => {
    const bySnp = await json(`${API}/singleNucleotidePolymorphisms/rs7903146/associations?projection=associationBySnp`);
    for (const a of items(bySnp.body, 'associations')) {
      expect((a.snps as Json[]).map((s) => s.rsId)).toEqual(['rs7903146']);
      expect((a.efoTraits as Json[]).map((x) => x.shortForm)).toEqual(['MONDO_0005148']);
      expect(a).not.toHaveProperty('lastUpdateDate');
      expect(a).not.toHaveProperty('study');
    }
    const byStudy = await json(`${API}/studies/GCST001085/associations?projection=associationByStudy`);
    const list = items(byStudy.body, 'associations');
    expect(list.length).toBe(ASSOCS.filter((x) => x['STUDY ACCESSION'] === 'GCST001085').length);
    for (const a of list) expect((a.study as Json).accessionId).toBe('GCST001085');
    const byTrait = await json(`${API}/efoTraits/EFO_0000537/associations?projection=associationByEfoTrait&size=2`);
    for (const a of items(byTrait.body, 'associations')) {
      expect((a.study as Json).accessionId).toBeTypeOf('string');
      expect((a.snps as Json[]).length).toBe(2);
    }
    // An unknown projection is ignored, as Spring Data REST ignores it.
    const plain = await json(`${API}/associations/1?projection=nothing`);
    expect(plain.body).toHaveProperty('lastUpdateDate');
  });

  it('answers SNPs with locations and genomic contexts, and finds them by id, range and gene', async () => {
    const r = await json(`${API}/singleNucleotidePolymorphisms/rs7903146`);
    expect(r.status).toBe(200);
    const loc = (r.body.locations as Json[])[0] as Json;
    expect(loc).toMatchObject({ chromosomeName: '10', chromosomePosition: 112998590, region: { name: '10q25.2' } });
    const ctx = (r.body.genomicContexts as Json[])[0] as Json;
    expect(ctx.gene).toEqual({ geneName: 'TCF7L2', entrezGeneIds: [], ensemblGeneIds: [{ ensemblGeneId: 'ENSG00000148737' }] });
    expect(ctx).toMatchObject({ isIntergenic: false, distance: 0 });

    const found = await json(`${API}/singleNucleotidePolymorphisms/search/findByRsId?rsId=RS7903146`);
    expect(found.body.rsId).toBe('rs7903146');

    const range = await json(`${API}/singleNucleotidePolymorphisms/search/findByChromBpLocationRange?chrom=10&bpStart=100000000&bpEnd=115000000`);
    const inRange = ASSOCS.filter((a) => a.CHR_ID === '10' && Number(a.CHR_POS) >= 100000000 && Number(a.CHR_POS) <= 115000000).map((a) => a.SNPS);
    expect(items(range.body, 'singleNucleotidePolymorphisms').map((s) => s.rsId)).toEqual([...new Set(inRange)]);
    expect(range.body.page?.totalElements).toBe(new Set(inRange).size);

    const byGene = await json(`${API}/singleNucleotidePolymorphisms/search/findByGene?geneName=TCF7L2`);
    expect(items(byGene.body, 'singleNucleotidePolymorphisms').map((s) => s.rsId)).toEqual(['rs7903146']);
    const studies = await json(`${API}/singleNucleotidePolymorphisms/rs7903146/studies`);
    expect(
      items(studies.body, 'studies')
        .map((s) => s.accessionId)
        .sort(),
    ).toEqual(['GCST010555', 'GCST90492734']);
  });

  it('answers EFO traits and finds them by URI, by label ignoring case and by PubMed id', async () => {
    const r = await json(`${API}/efoTraits/EFO_0000537`);
    expect(r.body).toMatchObject({ trait: 'hypertension', uri: 'http://www.ebi.ac.uk/efo/EFO_0000537', shortForm: 'EFO_0000537' });
    const uri = await json(`${API}/efoTraits/search/findByEfoUri?uri=http://www.ebi.ac.uk/efo/EFO_0000537`);
    expect(items(uri.body, 'efoTraits').map((x) => x.shortForm)).toEqual(['EFO_0000537']);
    for (const finder of ['findByTraitIgnoreCase', 'findByEfoTrait']) {
      const byLabel = await json(`${API}/efoTraits/search/${finder}?trait=HyperTension`);
      expect(
        items(byLabel.body, 'efoTraits').map((x) => x.shortForm),
        finder,
      ).toEqual(['EFO_0000537']);
    }
    const byPubmed = await json(`${API}/efoTraits/search/findByPubmedId?pubmedId=21626137`);
    expect(
      items(byPubmed.body, 'efoTraits')
        .map((x) => x.shortForm)
        .sort(),
    ).toEqual(['EFO_0000537', 'EFO_0001645']);
    const studies = await json(`${API}/efoTraits/EFO_0000537/studies`);
    expect(items(studies.body, 'studies').length).toBe(STUDIES.filter((s) => s.MAPPED_TRAIT_URI.includes('EFO_0000537')).length);
  });

  it('answers publications and genes', async () => {
    const pubs = await json(`${API}/publications`);
    expect(pubs.body.page?.totalElements).toBe(new Set(STUDIES.map((s) => s['PUBMED ID'])).size);
    const p = await json(`${API}/publications/19430480`);
    expect(p.body).toMatchObject({ pubmedId: '19430480', publication: 'Nat Genet', author: { fullname: 'Barrett JC' } });
    expect((await json(`${API}/publications/search/findByPubmedId?pubmedId=19430480`)).body.pubmedId).toBe('19430480');
    expect(items((await json(`${API}/publications/24882193/studies`)).body, 'studies')).toHaveLength(2);

    const genes = await json(`${API}/genes?size=1000`);
    expect(items(genes.body, 'genes').map((g) => g.geneName)).toContain('TCF7L2');
    const g = await json(`${API}/genes/TCF7L2`);
    expect(g.body).toMatchObject({ geneName: 'TCF7L2', ensemblGeneIds: [{ ensemblGeneId: 'ENSG00000148737' }] });
    expect(items((await json(`${API}/genes/search/findByGeneName?geneName=tcf7l2`)).body, 'genes').map((x) => x.geneName)).toEqual(['TCF7L2']);
    expect(items((await json(`${API}/genes/TCF7L2/snps`)).body, 'singleNucleotidePolymorphisms').map((x) => x.rsId)).toEqual(['rs7903146']);
  });

  it('answers the other finders, search indexes and repository lists', async () => {
    const studySearch = await json(`${API}/studies/search`);
    expect(studySearch.body._links?.findByPublicationIdPubmedId).toEqual({
      href: `http://localhost:80${API}/studies/search/findByPublicationIdPubmedId{?pubmedId,page,size,sort}`,
      templated: true,
    });
    for (const repo of ['associations', 'singleNucleotidePolymorphisms', 'efoTraits', 'publications', 'genes']) {
      const idx = await json(`${API}/${repo}/search`);
      expect(idx.body._links?.self?.href, repo).toBe(`http://localhost:80${API}/${repo}/search`);
      for (const [rel, link] of Object.entries(idx.body._links ?? {})) if (rel !== 'self') expect(link.templated, rel).toBe(true);
    }
    expect((await json(`${API}/studies/search/findByAccessionId?accessionId=GCST000392`)).body.accessionId).toBe('GCST000392');
    const byPubmed = await json(`${API}/associations/search/findByPubmedId?pubmedId=21626137`);
    expect(items(byPubmed.body, 'associations')).toHaveLength(ASSOCS.filter((a) => a.PUBMEDID === '21626137').length);
    expect(byPubmed.body).not.toHaveProperty('page');

    const rsids = new Set(ASSOCS.flatMap((a) => (a.SNPS ?? '').split(/ x |; /)));
    const snps = await json(`${API}/singleNucleotidePolymorphisms?size=5`);
    expect(snps.body.page?.totalElements).toBe(rsids.size);
    const snpsOfPaper = await json(`${API}/singleNucleotidePolymorphisms/search/findByPubmedId?pubmedId=24882193`);
    expect(items(snpsOfPaper.body, 'singleNucleotidePolymorphisms').map((x) => x.rsId)).toEqual(['rs6006893']);
    const armSpan = await json(`${API}/singleNucleotidePolymorphisms/search/findByEfoTrait?efoTrait=arm%20span`);
    expect(
      items(armSpan.body, 'singleNucleotidePolymorphisms')
        .map((x) => x.rsId)
        .sort(),
    ).toEqual(
      ASSOCS.filter((a) => a.MAPPED_TRAIT === 'arm span')
        .map((a) => a.SNPS)
        .sort(),
    );

    const uris = new Set([...STUDIES, ...ASSOCS].flatMap((r) => r.MAPPED_TRAIT_URI.split(', ').filter(Boolean)));
    expect((await json(`${API}/efoTraits?size=100`)).body.page?.totalElements).toBe(uris.size);
    expect((await json(`${API}/efoTraits/search/findByShortForm?shortForm=EFO_0005108`)).body.trait).toBe('arm span');
    expect((await json(`${API}/genes`)).body.page?.totalElements).toBeGreaterThan(10);
  });

  it('sorts by field and direction and keeps the sort in page links', async () => {
    const desc = await json(`${API}/studies?sort=accessionId,desc`);
    const accs = items(desc.body, 'studies').map((s) => String(s.accessionId));
    expect(accs).toEqual([...accs].sort().reverse());
    const p = await json(`${API}/associations?sort=pvalue&size=${ASSOCS.length}`);
    const keys = items(p.body, 'associations').map((a) => Math.log10(a.pvalueMantissa as number) + (a.pvalueExponent as number));
    // Underflowed p-values (0) sort first by their number, as a database does.
    const values = items(p.body, 'associations').map((a) => a.pvalue as number);
    expect(values).toEqual([...values].sort((x, y) => x - y));
    expect(keys.length).toBe(ASSOCS.length);
    const paged = await json(`${API}/associations?sort=pvalue,desc&size=2`);
    expect(paged.body._links?.next?.href).toBe(`http://localhost:80${API}/associations?page=1&size=2&sort=pvalue%2Cdesc`);
  });

  it('cuts large pages to 1000 as Spring Data REST does', async () => {
    expect((await json(`${API}/studies?size=5000`)).body.page?.size).toBe(1000);
  });

  it.each([
    [`${API}/studies/GCST999999`, 404, 'GCST999999'],
    [`${API}/associations/999999`, 404, '999999'],
    [`${API}/associations/abc`, 400, 'associationId'],
    [`${API}/associations/abc/snps`, 400, 'associationId'],
    [`${API}/singleNucleotidePolymorphisms/rs0`, 404, 'rs0'],
    [`${API}/singleNucleotidePolymorphisms/rs0/studies`, 404, 'rs0'],
    [`${API}/singleNucleotidePolymorphisms/rs0/associations`, 404, 'rs0'],
    [`${API}/singleNucleotidePolymorphisms/search/findByRsId?rsId=rs0`, 404, 'rs0'],
    [`${API}/efoTraits/EFO_9999999`, 404, 'EFO_9999999'],
    [`${API}/efoTraits/EFO_9999999/associations`, 404, 'EFO_9999999'],
    [`${API}/publications/1`, 404, '1'],
    [`${API}/genes/NOSUCHGENE`, 404, 'NOSUCHGENE'],
    [`${API}/studies?page=-1`, 400, 'page'],
    [`${API}/studies?page=abc`, 400, 'page'],
    [`${API}/studies?size=0`, 400, 'size'],
    [`${API}/studies?size=ten`, 400, 'size'],
    [`${API}/studies?sort=nope,asc`, 400, 'sort'],
    [`${API}/studies?sort=,desc`, 400, 'sort'],
    [`${API}/associations?sort=accessionId`, 400, 'sort'],
    [`${API}/studies/search/findByPublicationIdPubmedId`, 400, 'pubmedId'],
    [`${API}/studies/search/findByDiseaseTrait?diseaseTrait=`, 400, 'diseaseTrait'],
    [`${API}/singleNucleotidePolymorphisms/search/findByChromBpLocationRange?chrom=10&bpStart=a&bpEnd=2`, 400, 'bpStart'],
    [`${API}/singleNucleotidePolymorphisms/search/findByChromBpLocationRange?chrom=10&bpStart=1`, 400, 'bpEnd'],
    [`${API}/efoTraits/search/findByEfoUri`, 400, 'uri'],
    [`${API}/genes/search/findByGeneName`, 400, 'geneName'],
    [`${API}/studies/search/findByNothing`, 404, ''],
    [`${API}/nothing`, 404, ''],
  ])('%s answers %i in the Spring error body', async (url, status, mention) => {
    const r = await get(t.app, url);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(r.body)).toEqual(['timestamp', 'status', 'error', 'message', 'path']);
    expect(r.body.status).toBe(status);
    expect(r.body.error).toBe(status === 404 ? 'Not Found' : 'Bad Request');
    expect(typeof r.body.timestamp).toBe('string');
    expect(Number.isNaN(Date.parse(r.body.timestamp as string))).toBe(false);
    expect(r.body.message).toContain(mention);
    expect(r.body.path).toBe(url.split('?')[0]);
  });

  it('answers with or without Content-Type: application/json, HAL unless plain JSON is asked for', async () => {
    const without = await get(t.app, `${API}/studies/GCST000392`);
    const withJson = await get(t.app, `${API}/studies/GCST000392`, { 'content-type': 'application/json' });
    expect(without.status).toBe(200);
    expect(withJson.status).toBe(200);
    expect(withJson.body).toEqual(without.body);
    expect(without.headers['content-type']).toBe('application/hal+json;charset=UTF-8');
    const plain = await get(t.app, `${API}/studies/GCST000392`, { accept: 'application/json' });
    expect(plain.headers['content-type']).toBe('application/json;charset=UTF-8');
  });

  it('builds links from the host the client used', async () => {
    const r = await get(t.app, `${API}/efoTraits/EFO_0000537`, { host: 'mirror.example:8443' });
    expect((r.body._links as Record<string, { href: string }>).self?.href).toBe('http://mirror.example:8443/gwas/rest/api/efoTraits/EFO_0000537');
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS catalog API edges on %s', (_name, target) => {
  it('answers an empty catalog before any load, and links without the mount on a port of its own', async () => {
    const store = await target.open();
    const own = await makeApp(store, { services: [gwas], prefixed: false });
    try {
      const empty = await get(own.app, '/rest/api/studies');
      expect(empty.status).toBe(200);
      expect(empty.body.page).toEqual({ size: 20, totalElements: 0, totalPages: 0, number: 0 });
      expect(empty.body._embedded).toEqual({ studies: [] });
      expect((await get(own.app, '/rest/api/studies/GCST000392')).status).toBe(404);

      await loadCatalog(store, own.generations);
      const r = await get(own.app, '/rest/api/studies/GCST000392');
      expect((r.body._links as Record<string, { href: string }>).self?.href).toBe('http://localhost:80/rest/api/studies/GCST000392');
      const missing = await get(own.app, '/rest/api/studies/GCST0');
      expect(missing.body.path).toBe('/rest/api/studies/GCST0');

      // A failure inside answers 500 in the same body, naming the request, never the cause.
      const gen = await own.generations.active('gwas', 'catalog');
      await store.db.exec(`DROP TABLE "gwc_ancestries_g${gen}"`);
      const broken = await get(own.app, '/rest/api/studies/GCST000392');
      expect(broken.status).toBe(500);
      expect(broken.body).toMatchObject({ status: 500, error: 'Internal Server Error', path: '/rest/api/studies/GCST000392' });
      expect(String(broken.body.message)).not.toMatch(/ancestries|SQL|table/i);
    } finally {
      await own.close();
      await store.cleanup();
    }
  });
});
