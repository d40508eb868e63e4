import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLimitStore } from '../src/core/limits/memory.js';
import type { TestApp } from './helpers/app.js';
import { D, E, get, loadDemo, loadGenes, ncbiApp } from './helpers/ncbi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

type Report = { gene: Record<string, unknown>; query: string[] };
type Page = { genes: Report[]; reports: Report[]; total_count: number; next_page_token?: string; messages?: unknown[] };

for (const target of STORES) {
  describe(`Datasets gene reports on ${target.name}`, () => {
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

    const page = async (url: string) => {
      const r = await get(t.app, url);
      expect(r.status, url).toBe(200);
      return r.json as unknown as Page;
    };

    it('reports a gene by id with the spec’s fields beside the real service’s', async () => {
      const p = await page(`${D}/gene/id/672`);
      expect(p.total_count).toBe(1);
      expect(p.reports).toEqual(p.genes);
      const g = p.genes[0]?.gene as Record<string, unknown>;
      expect(g).toEqual({
        gene_id: '672',
        symbol: 'BRCA1',
        description: 'BRCA1 DNA repair associated',
        tax_id: '9606',
        taxid: 9606,
        taxname: 'Homo sapiens',
        tax_name: 'Homo sapiens',
        common_name: 'human',
        type: 'PROTEIN_CODING',
        orientation: 'minus',
        chromosomes: ['17'],
        nomenclature_authority: { authority: 'HGNC', identifier: 'HGNC:1100' },
        omim_ids: ['113705'],
        ensembl_gene_ids: ['ENSG00000012048'],
        synonyms: ['RNF53', 'BRCC1'],
        genomic_ranges: [{ accession_version: 'NC_000017.11', range: [{ begin: 43044295, end: 43125483, orientation: 'minus' }] }],
        // The length comes from the demo's RefSeq catalog (a generated value).
        transcripts: [{ accession_version: 'NM_007294.4', length: 7088, protein: { accession_version: 'NP_009225.1' } }],
        transcript_count: 1,
        protein_count: 1,
      });
      expect(p.genes[0]?.query).toEqual(['672']);
    });

    it('reports several ids in the order asked, and says which were not found', async () => {
      const p = await page(`${D}/gene/id/7157,3581,99999999`);
      expect(p.genes.map((x) => x.gene.gene_id)).toEqual(['7157', '3581']);
      expect(p.messages).toEqual([{ error: { reason: '1 of the requested gene ids not found', message: 'Not found: 99999999', invalid_identifiers: ['99999999'] } }]);
      const il9r = p.genes[1]?.gene as Record<string, unknown>;
      expect(il9r.chromosomes).toEqual(['X', 'Y']);
      expect(il9r.genomic_ranges).toEqual([
        { accession_version: 'NC_000023.11', range: [{ begin: 155997581, end: 156013017, orientation: 'plus' }] },
        { accession_version: 'NC_000024.10', range: [{ begin: 57184101, end: 57199537, orientation: 'plus' }] },
      ]);
    });

    it('finds genes by symbol within a taxon given by id, scientific or common name', async () => {
      for (const taxon of ['9606', 'Homo%20sapiens', 'human', 'HUMAN']) {
        const p = await page(`${D}/gene/symbol/tp53/taxon/${taxon}`);
        expect(
          p.genes.map((x) => x.gene.gene_id),
          taxon,
        ).toEqual(['7157']);
        expect(p.genes[0]?.query).toEqual(['tp53']);
      }
      const mouse = await page(`${D}/gene/symbol/Trp53,Brca1/taxon/10090`);
      expect(mouse.genes.map((x) => [x.gene.symbol, x.gene.tax_name, x.gene.nomenclature_authority])).toEqual([
        ['Trp53', 'Mus musculus', {}],
        ['Brca1', 'Mus musculus', { authority: 'MGI', identifier: 'MGI:104537' }],
      ]);
      const yeast = await page(`${D}/gene/symbol/GAL4/taxon/yeast`);
      expect(yeast.genes.map((x) => [x.gene.gene_id, x.gene.taxid])).toEqual([['855828', 559292]]);
    });

    it('takes ids and symbols by POST, at the spec’s path and the real one', async () => {
      for (const url of [`${D}/gene/id`, `${D}/gene`, '/datasets/v2/gene']) {
        const r = await t.app.inject({ method: 'POST', url, payload: { gene_ids: [59067, '50615'] } });
        expect(r.statusCode, url).toBe(200);
        expect(
          (r.json() as Page).genes.map((x) => x.gene.symbol),
          url,
        ).toEqual(['IL21', 'IL21R']);
      }
      const sym = await t.app.inject({ method: 'POST', url: `${D}/gene`, payload: { symbols_for_taxon: { symbols: ['GNAS'], taxon: 'human' } } });
      expect((sym.json() as Page).genes.map((x) => x.gene.gene_id)).toEqual(['2778']);
    });

    it('answers v2 under the dataset_report paths that replace the deprecated ones, with the same reports', async () => {
      const pairs = [
        ['/datasets/v2/gene/id/672,7157', '/datasets/v2/gene/id/672,7157/dataset_report'],
        ['/datasets/v2/gene/symbol/GNAS/taxon/9606', '/datasets/v2/gene/symbol/GNAS/taxon/9606/dataset_report'],
      ];
      for (const [old, current] of pairs) expect(await page(current as string)).toEqual(await page(old as string));
      const r = await t.app.inject({ method: 'POST', url: '/datasets/v2/gene/dataset_report', payload: { gene_ids: [59067] } });
      expect((r.json() as Page).genes.map((x) => x.gene.symbol)).toEqual(['IL21']);
      // v2alpha never had them.
      expect((await get(t.app, '/datasets/v2alpha/gene/id/672/dataset_report')).status).toBe(404);
    });

    it('pages with page_size and page_token, and returns ids or counts only when asked', async () => {
      const ids = [1, 2, 9, 10, 25, 43, 58, 59, 60, 183, 185, 207, 213, 238, 324, 335, 338, 341, 348, 351, 355, 367, 472, 538, 540].join(',');
      const first = await page(`${D}/gene/id/${ids}?page_size=10`);
      expect(first.genes.length).toBe(10);
      expect(first.total_count).toBe(25);
      const second = await page(`${D}/gene/id/${ids}?page_size=10&page_token=${first.next_page_token}`);
      expect(second.genes[0]?.gene.gene_id).toBe('185');
      const third = await page(`${D}/gene/id/${ids}?page_size=10&page_token=${second.next_page_token}`);
      expect(third.genes.length).toBe(5);
      expect(third.next_page_token).toBeUndefined();
      const other = await get(t.app, `${D}/gene/id/672?page_token=${first.next_page_token}`);
      expect(other.status).toBe(400);
      expect(other.json).toEqual({ code: 3, message: 'Invalid page_token: use the next_page_token of the previous page with the same request', details: [] });
      expect((await page(`${D}/gene/id/672,7157?returned_content=IDS_ONLY`)).genes).toEqual([
        { gene: { gene_id: '672' }, query: ['672'] },
        { gene: { gene_id: '7157' }, query: ['7157'] },
      ]);
      expect(await page(`${D}/gene/id/672,7157?returned_content=COUNTS_ONLY`)).toEqual({ total_count: 2 });
    });

    it('answers 404 and 400 with the rpcStatus body', async () => {
      const nf = await get(t.app, `${D}/gene/id/99999999`);
      expect(nf.status).toBe(404);
      expect(nf.json).toEqual({ code: 5, message: 'No genes found for gene id(s) 99999999', details: [] });
      const sym = await get(t.app, `${D}/gene/symbol/NOSUCHGENE/taxon/9606`);
      expect(sym.status).toBe(404);
      const cases: [string, string, RegExp][] = [
        ['GET', `${D}/gene/id/abc`, /Invalid gene id "abc"/],
        ['GET', `${D}/gene/id/0`, /Invalid gene id "0"/],
        ['GET', `${D}/gene/symbol/TP53/taxon/martian`, /Invalid taxon "martian"/],
        ['GET', `${D}/gene/id/672?page_size=5000`, /page_size/],
        ['GET', `${D}/gene/id/672?page_size=x`, /page_size/],
        ['GET', `${D}/gene/id/672?returned_content=ALL`, /returned_content/],
      ];
      for (const [method, url, msg] of cases) {
        const r = await t.app.inject({ method: method as 'GET', url });
        expect(r.statusCode, url).toBe(400);
        expect(r.json(), url).toMatchObject({ code: 3, message: expect.stringMatching(msg), details: [] });
      }
      const bodies: unknown[] = [{}, { gene_ids: 'x' }, { gene_ids: [] }, { gene_ids: ['a'] }, { symbols_for_taxon: { symbols: [], taxon: '9606' } }, [1, 2]];
      for (const payload of bodies) {
        const r = await t.app.inject({ method: 'POST', url: `${D}/gene/id`, payload: payload as object });
        expect(r.statusCode, JSON.stringify(payload)).toBe(400);
        expect((r.json() as { code: number }).code).toBe(3);
      }
      const malformed = await t.app.inject({ method: 'POST', url: `${D}/gene/id`, headers: { 'content-type': 'application/json' }, payload: '{"gene_ids": [' });
      expect(malformed.statusCode).toBe(400);
      expect((malformed.json() as { code: number; details: unknown[] }).details).toEqual([]);
      const path = await get(t.app, `${D}/genome/accession/GCF_1`);
      expect(path.status).toBe(404);
      expect(path.json).toMatchObject({ code: 5 });
    });
  });

  describe(`rate limits of E-utilities and Datasets on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      // A clock that stands still: budgets do not refill between requests however slow the machine.
      const now = Date.now();
      t = await ncbiApp(s, { config: { limits: true }, limitStore: new MemoryLimitStore(() => now) });
      await loadGenes(s, t.generations);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    const burst = async (n: number, url: string, headers: Record<string, string> = {}, ip = '10.0.0.1') => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await t.app.inject({ method: 'GET', url, headers, remoteAddress: ip }));
      return out;
    };

    it('E-utilities: 3 per second per IP without a key, 10 with one, reported in X-RateLimit headers', async () => {
      const plain = await burst(4, `${E}/einfo.fcgi`);
      expect(plain.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
      expect(plain.map((r) => r.headers['x-ratelimit-limit'])).toEqual(['3', '3', '3', '3']);
      expect(plain.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
      const refused = plain[3];
      expect(refused?.json()).toEqual({ error: 'API rate limit exceeded', 'api-key': '10.0.0.1', count: '4', limit: '3' });
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Another address has its own budget; a key has a budget of 10, whatever the address.
      expect((await burst(1, `${E}/einfo.fcgi`, {}, '10.0.0.2'))[0]?.statusCode).toBe(200);
      const keyed = await burst(11, `${E}/einfo.fcgi?api_key=k1`, {}, '10.0.0.3');
      expect(keyed.map((r) => r.statusCode)).toEqual([...Array(10).fill(200), 429]);
      expect(keyed[10]?.json()).toEqual({ error: 'API rate limit exceeded', 'api-key': 'k1', count: '11', limit: '10' });
      expect(keyed[0]?.headers['x-ratelimit-limit']).toBe('10');
      // A key in a POST form body counts as a key too.
      const posted = [];
      for (let i = 0; i < 11; i++) {
        posted.push(
          await t.app.inject({
            method: 'POST',
            url: `${E}/einfo.fcgi`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: 'db=gene&api_key=k9',
            remoteAddress: '10.0.0.4',
          }),
        );
      }
      expect(posted.map((r) => r.statusCode)).toEqual([...Array(10).fill(200), 429]);
      expect(posted[10]?.json()).toMatchObject({ 'api-key': 'k9', limit: '10' });
    });

    it('Datasets: 5 per second without the api-key header, 10 with it', async () => {
      const plain = await burst(6, `${D}/gene/id/672`, {}, '10.0.1.1');
      expect(plain.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(plain[5]?.json()).toMatchObject({ code: 8, details: [] });
      expect(plain[5]?.headers['retry-after']).toBeDefined();
      const keyed = await burst(11, `${D}/gene/id/672`, { 'api-key': 'k2' }, '10.0.1.2');
      expect(keyed.map((r) => r.statusCode)).toEqual([...Array(10).fill(200), 429]);
    });
  });
}
