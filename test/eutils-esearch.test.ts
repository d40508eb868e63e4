import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { E, get, loadDemo, ncbiApp, tags } from './helpers/ncbi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

type SearchJson = { header: unknown; esearchresult: Record<string, unknown> };
const q = (s: string) => encodeURIComponent(s);

for (const target of STORES) {
  describe(`esearch on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await ncbiApp(s);
      await loadDemo(s, t.generations);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    const search = async (db: string, term: string, extra = '') => {
      const r = await get(t.app, `${E}/esearch.fcgi?db=${db}&term=${q(term)}&retmode=json${extra}`);
      expect(r.status, term).toBe(200);
      return (r.json as SearchJson).esearchresult;
    };
    const ids = async (db: string, term: string, extra = '') => (await search(db, term, `&retmax=500${extra}`)).idlist as string[];

    it('answers the XML envelope of the real service by default', async () => {
      const r = await get(t.app, `${E}/esearch.fcgi?db=gene&term=${q('BRCA1[gene] AND human[orgn]')}`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/xml; charset=UTF-8');
      expect(r.body.split('\n')[1]).toBe('<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "http://localhost:80/eutils/eutils/dtd/20060628/esearch.dtd">');
      expect(tags(r.body, 'Count')).toEqual(['1', '2', '321']);
      expect(tags(r.body, 'Id')).toEqual(['672']);
      expect(tags(r.body, 'QueryTranslation')).toEqual(['BRCA1[Gene Name] AND "Homo sapiens"[Organism]']);
      expect(tags(r.body, 'From')).toEqual(['human[orgn]']);
      expect(tags(r.body, 'OP')).toEqual(['AND', 'GROUP']);
    });

    it('answers JSON with counts and ids as strings', async () => {
      const r = await get(t.app, `${E}/esearch.fcgi?db=gene&term=${q('TP53[sym] AND txid9606[orgn]')}&retmode=json`);
      expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
      const j = r.json as SearchJson;
      expect(j.header).toEqual({ type: 'esearch', version: '0.3' });
      expect(j.esearchresult).toMatchObject({ count: '1', retmax: '1', retstart: '0', idlist: ['7157'], querytranslation: 'TP53[Gene Name] AND "Homo sapiens"[Organism]' });
      expect(j.esearchresult.translationset).toEqual([{ from: 'txid9606[orgn]', to: '"Homo sapiens"[Organism]' }]);
      // Symbols match in any case: the rat and zebrafish orthologues count too.
      expect(j.esearchresult.translationstack).toEqual([
        { term: 'TP53[Gene Name]', field: 'Gene Name', count: '3', explode: 'N' },
        { term: '"Homo sapiens"[Organism]', field: 'Organism', count: '321', explode: 'Y' },
        'AND',
        'GROUP',
      ]);
    });

    it('searches the gene fields', async () => {
      expect(await ids('gene', 'BRCA1[gene]')).toEqual(['672', '12189']);
      expect(await ids('gene', 'brca1[gene name]')).toEqual(['672', '12189']);
      expect(await ids('gene', 'HLA-B[sym]')).toEqual(['3106']);
      // Aliases are gene names too; the preferred symbol is not.
      expect(await ids('gene', 'P53[gene]')).toEqual(['7157', '2768677']);
      expect(await ids('gene', 'P53[pref]')).toEqual(['2768677']);
      expect(await ids('gene', 'IL9R[gene] AND X[chr]')).toEqual(['3581']);
      expect(await ids('gene', 'Y[chromosome] AND human[orgn]')).toEqual(['3581']);
      expect(await ids('gene', '113705[mim]')).toEqual(['672']);
      expect(await ids('gene', 'NM_007294[accn]')).toEqual(['672']);
      expect(await ids('gene', 'NP_009225.1[accn]')).toEqual(['672']);
      expect(await ids('gene', '17q21.31[map] AND human[orgn]')).toEqual(['672', '4137']);
      expect(await ids('gene', 'Li-Fraumeni syndrome[dis]')).toEqual(['7157']);
      expect(await ids('gene', '"cystic fibrosis"[disease]')).toEqual(['1080']);
      expect(await ids('gene', 'GO:0006915[biological process]')).toEqual(['7157']);
      expect(await ids('gene', 'apoptotic process[biological process]')).toEqual(['7157']);
      expect(await ids('gene', 'GO:0005634[cellular component]')).toEqual(['672', '7157']);
      expect(await ids('gene', 'GO:0005634[biological process]')).toEqual([]);
      expect(await ids('gene', 'phospholipase binding[molecular function]')).toEqual(['4747']);
      expect(await ids('gene', 'identical protein binding[go]')).toEqual(['4747']);
      expect(await ids('gene', 'neurofilament[gfn]')).toEqual(['4747']);
      expect(await ids('gene', '672[uid]')).toEqual(['672']);
      // The field parameter applies to untagged terms.
      expect(await search('gene', 'p53', '&field=pref')).toMatchObject({ idlist: ['2768677'], querytranslation: 'p53[Preferred Symbol]' });
      expect(await ids('gene', '"genetype protein coding"[prop] AND txid511145[orgn]')).toEqual(['945006', '945007', '947170']);
    });

    it('resolves organisms by scientific name, common name, txid and taxid', async () => {
      const mouse = await ids('gene', 'Mus musculus[organism]');
      expect(mouse.length).toBe(17);
      expect(await ids('gene', 'house mouse[orgn]')).toEqual(mouse);
      expect(await ids('gene', 'txid10090[orgn]')).toEqual(mouse);
      expect(await ids('gene', '10090[taxid]')).toEqual(mouse);
      expect(await ids('gene', 'txid10090[taxid]')).toEqual(mouse);
      // Genes of the S288C strain are found under the species.
      expect(await ids('gene', 'yeast[orgn]')).toEqual(['850504', '852457', '855828']);
      expect(await ids('gene', 'Saccharomyces cerevisiae[orgn]')).toEqual(['850504', '852457', '855828']);
    });

    it('combines terms with AND, OR and NOT from left to right, with parentheses', async () => {
      expect(await ids('gene', 'TP53[gene] OR BRCA1[gene] AND human[orgn]')).toEqual(['672', '7157']);
      expect(await ids('gene', 'TP53[gene] OR (BRCA1[gene] AND human[orgn])')).toEqual(['672', '7157', '24842', '30590']);
      expect(await ids('gene', 'BRCA1[gene] OR Brca2[gene] NOT human[orgn]')).toEqual(['12189', '12190']);
      expect(await ids('gene', 'BRCA1[gene] OR (Brca2[gene] NOT human[orgn])')).toEqual(['672', '12189', '12190']);
      expect(await ids('gene', 'Trp53[gene] mouse[orgn]')).toEqual(['22059']);
    });

    it('searches untagged words and phrases in all fields, with truncation', async () => {
      expect(await ids('gene', 'neurofilament')).toEqual(['4747']);
      expect(await ids('gene', 'tumor protein p53')).toEqual(['7157', '24842', '30590']);
      expect(await ids('gene', '"tumor protein p53" AND human[orgn]')).toEqual(['7157']);
      expect(await ids('gene', 'CYP2C*[gene]')).toEqual(['1557', '1559']);
      expect(await ids('gene', 'neurofila*')).toEqual(['4747']);
      // A bare organism name is mapped to the organism (the word itself is in no record here).
      const human = await search('gene', 'human');
      expect(human.translationset).toEqual([{ from: 'human', to: '"Homo sapiens"[Organism] OR human[All Fields]' }]);
      expect(human.querytranslation).toBe('"Homo sapiens"[Organism]');
      expect(human.count).toBe('321');
    });

    it('orders by relevance: genes with more publications and annotations first, then by GeneID', async () => {
      const first = (await search('gene', 'human[orgn]', '&retmax=5')).idlist;
      // NEFL (7 publications + 3 GO terms), BRCA1 (1 + 2) and CFTR (3 + 0) by GeneID, TP53 (0 + 2), HFE (1).
      expect(first).toEqual(['4747', '672', '1080', '7157', '3077']);
    });

    it('pages with retstart and retmax (default 20) and counts with rettype=count', async () => {
      const all = await ids('gene', 'human[orgn]');
      expect(all.length).toBe(321);
      const page = await search('gene', 'human[orgn]', '&retstart=20&retmax=10');
      expect(page).toMatchObject({ count: '321', retmax: '10', retstart: '20' });
      expect(page.idlist).toEqual(all.slice(20, 30));
      expect(((await search('gene', 'human[orgn]')).idlist as string[]).length).toBe(20);
      expect((await search('gene', 'human[orgn]', '&retstart=400')).idlist).toEqual([]);
      const c = await get(t.app, `${E}/esearch.fcgi?db=gene&term=human[orgn]&rettype=count`);
      expect(c.body).toContain('<eSearchResult><Count>321</Count></eSearchResult>');
      const cj = await get(t.app, `${E}/esearch.fcgi?db=gene&term=human[orgn]&rettype=count&retmode=json`);
      expect(cj.json).toEqual({ header: { type: 'esearch', version: '0.3' }, esearchresult: { count: '321' } });
    });

    it('reports terms that match nothing and searches the rest, as the real service does', async () => {
      const r = await search('gene', 'BRCA1[gene] AND zzzunknown[gene]');
      expect(r).toMatchObject({ count: '2', querytranslation: 'BRCA1[Gene Name]', errorlist: { phrasesnotfound: ['zzzunknown[gene]'], fieldsnotfound: [] } });
      const none = await get(t.app, `${E}/esearch.fcgi?db=gene&term=abcXYZ`);
      expect(tags(none.body, 'Count')).toEqual(['0']);
      expect(none.body).toContain(
        '<IdList/><TranslationSet/><QueryTranslation>(abcXYZ[All Fields])</QueryTranslation><ErrorList><PhraseNotFound>abcXYZ</PhraseNotFound></ErrorList><WarningList><OutputMessage>No items found.</OutputMessage></WarningList>',
      );
      const field = await search('gene', 'BRCA1[flavour]');
      expect(field.errorlist).toEqual({ phrasesnotfound: [], fieldsnotfound: ['flavour'] });
      expect(field.count).toBe('2');
    });

    it('searches the ClinVar fields', async () => {
      expect(await ids('clinvar', 'HFE[gene]')).toEqual(['14', '13', '12', '11', '10', '9']);
      expect(await ids('clinvar', 'pathogenic[clnsig]')).toEqual(['17677', '12397', '12374', '9', '5', '3', '2']);
      expect(await ids('clinvar', 'BRCA1[gene]')).toEqual(['17677']);
      expect(await ids('clinvar', 'TP53[gene] AND pathogenic[clnsig]')).toEqual(['12374']);
      expect(await ids('clinvar', '"likely pathogenic"[CLNSIG]')).toEqual(['6', '2']);
      expect(await ids('clinvar', 'HFE[gene] AND benign[clnsig]')).toEqual(['14']);
      expect(await ids('clinvar', 'hemochromatosis type 1[disorder]')).toEqual(['13', '12', '11', '10', '9']);
      expect(await ids('clinvar', 'tuberous sclerosis[dis]')).toEqual(['12397']);
      expect(await ids('clinvar', 'c.845G>A[variant name]')).toEqual(['9']);
      expect(await ids('clinvar', 'p.Cys282Tyr[varname]')).toEqual(['9']);
      expect(await ids('clinvar', '6[chr]')).toEqual(['14', '13', '12', '11', '10', '9']);
      expect(await ids('clinvar', '6[chr] AND GRCh38[Assembly]')).toEqual(['14', '13', '12', '11', '10', '9']);
      expect(await ids('clinvar', 'GRCh37[assembly] AND 16[chr]')).toEqual(['12397']);
      expect(await ids('clinvar', 'rs1800562')).toEqual(['9']);
      expect(await ids('clinvar', 'VCV000012397[accn]')).toEqual(['12397']);
      expect(await ids('clinvar', 'RCV000000019')).toEqual(['9']);
      expect(await ids('clinvar', 'somatic[origin]')).toEqual(['12397']);
      expect(await ids('clinvar', 'deletion[type]')).toEqual(['3']);
      expect(await ids('clinvar', 'criteria provided, conflicting classifications[review status]')).toEqual(['214885', '11', '10']);
      const r = await search('clinvar', 'HFE[gene] AND pathogenic[clnsig]');
      expect(r.querytranslation).toBe('HFE[Gene Name] AND pathogenic[Clinical Significance]');
    });

    it('answers bad requests in the esearch envelope', async () => {
      const syntax = await get(t.app, `${E}/esearch.fcgi?db=gene&term=${q('(BRCA1[gene]')}`);
      expect(syntax.status).toBe(400);
      expect(tags(syntax.body, 'ERROR')).toEqual(['Invalid query syntax: unbalanced "(" at position 1']);
      const sj = await get(t.app, `${E}/esearch.fcgi?db=gene&term=${q('BRCA1 AND')}&retmode=json`);
      expect(sj.status).toBe(400);
      expect(sj.json).toMatchObject({ error: expect.stringContaining('AND at position 7 has no term after it'), esearchresult: { ERROR: expect.stringContaining('AND') } });
      const empty = await get(t.app, `${E}/esearch.fcgi?db=gene`);
      expect(empty.status).toBe(200);
      expect(tags(empty.body, 'ERROR')).toEqual(['Empty term and query_key - nothing todo']);
      const db = await get(t.app, `${E}/esearch.fcgi?db=fleegle&term=x`);
      expect(db.status).toBe(200);
      expect(tags(db.body, 'ERROR')[0]).toMatch(/^Invalid db name specified: fleegle/);
      const nodb = await get(t.app, `${E}/esearch.fcgi?term=x&retmode=json`);
      expect(nodb.status).toBe(400);
      expect(nodb.json.error).toMatch(/Missing db/);
      for (const [p, v] of [
        ['retmax', 'lots'],
        ['retstart', '-1'],
        ['retmode', 'yaml'],
        ['rettype', 'fasta'],
        ['sort', 'name'],
      ]) {
        const r = await get(t.app, `${E}/esearch.fcgi?db=gene&term=BRCA1&${p}=${v}`);
        expect(r.status, p).toBe(400);
        expect(tags(r.body, 'ERROR')[0], p).toContain(`"${v}"`);
      }
    });

    it('accepts POSTed forms and parameter names in any case, as the real service', async () => {
      const r = await t.app.inject({
        method: 'POST',
        url: `${E}/esearch.fcgi`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'db=gene&term=BRCA1%5Bgene%5D&RetMode=json&tool=biopython&email=a%40b.org&api_key=abc',
      });
      expect(r.statusCode).toBe(200);
      expect((r.json() as SearchJson).esearchresult.idlist).toEqual(['672', '12189']);
      const real = await get(t.app, `${E}/entrez/eutils/esearch.fcgi?db=gene&term=BRCA1[gene]&retmode=json`);
      expect((real.json as SearchJson).esearchresult.count).toBe('2');
    });
  });
}
