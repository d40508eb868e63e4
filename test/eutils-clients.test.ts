import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { BIOPYTHON_SCRIPT, E, biopythonDtd, get, loadDemo, ncbiApp } from './helpers/ncbi.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { missing, missingBiopython } from './helpers/tools.js';

/** Validates XML with xmllint against a DTD; returns xmllint's complaints ('' when valid). */
function xmllint(xml: string, dtd: string): string {
  const file = join(tempDir(), 'doc.xml');
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--nonet', '--noout', '--dtdvalid', dtd, file], { stdio: ['ignore', 'ignore', 'pipe'] });
    return '';
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err);
  }
}

// Biopython (Debian's python3-biopython, under /usr/bin/python3) and xmllint are the real clients here.
const NO_CLIENTS = missing('xmllint') || missingBiopython();

for (const target of STORES) {
  describe.skipIf(!!NO_CLIENTS)(`real clients against the E-utilities on ${target.name}${NO_CLIENTS}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      s = await target.open();
      t = await ncbiApp(s);
      await loadDemo(s, t.generations);
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('writes XML valid against the DTDs Biopython ships', async () => {
      const cases: [string, string][] = [
        ['esearch.fcgi?db=gene&term=BRCA1[gene]+AND+human[orgn]&usehistory=y', 'esearch.dtd'],
        ['esearch.fcgi?db=gene&term=abcXYZ', 'esearch.dtd'],
        ['esearch.fcgi?db=clinvar&term=HFE[gene]+OR+zzz[gene]', 'esearch.dtd'],
        ['esearch.fcgi?db=gene&term=(BRCA1', 'esearch.dtd'],
        ['einfo.fcgi', 'einfo.dtd'],
        ['einfo.fcgi?db=gene&version=2.0', 'einfo.dtd'],
        ['einfo.fcgi?db=clinvar', 'einfo.dtd'],
        ['einfo.fcgi?db=fleegle', 'einfo.dtd'],
        ['elink.fcgi?dbfrom=gene&id=672&id=4747', 'eLink_101123.dtd'],
        ['elink.fcgi?dbfrom=clinvar&id=12397,9', 'eLink_101123.dtd'],
        ['elink.fcgi?dbfrom=gene&db=pubmed&id=3581', 'eLink_101123.dtd'],
        ['esummary.fcgi?db=gene', 'esummary-v1.dtd'],
        ['esummary.fcgi?db=gene&id=1,x', 'esummary-v1.dtd'],
        ['efetch.fcgi?db=gene&id=4747,672,3581,7157,3845,855828,945006', 'NCBI_Entrezgene.dtd'],
      ];
      for (const [path, dtd] of cases) {
        const r = await get(t.app, `${E}/${path}`);
        expect(xmllint(r.body, biopythonDtd(dtd)), path).toBe('');
      }
    });

    it('writes docsums valid against the DTDs it publishes for them', async () => {
      for (const [db, ids] of [
        ['gene', '672,3581,4747,99999999,945006'],
        ['clinvar', '2,3,9,214885,12397,99'],
      ]) {
        const r = await get(t.app, `${E}/esummary.fcgi?db=${db}&id=${ids}`);
        // Named at this server's own address (the service's mount, then NCBI's path).
        const doctype = /<!DOCTYPE [^>]*"http:\/\/localhost(?::80)?(\/eutils\/eutils\/dtd\/[^"]+)"/.exec(r.body)?.[1];
        expect(doctype).toBeDefined();
        const dtd = await get(t.app, doctype as string);
        expect(dtd.headers['content-type']).toMatch(/^application\/xml-dtd/);
        const file = join(tempDir(), 'docsum.dtd');
        writeFileSync(file, dtd.body);
        expect(xmllint(r.body, file), db).toBe('');
      }
      expect((await get(t.app, `${E}/dtd/20230808/esummary_pubmed.dtd`)).status).toBe(404);
    });

    it('is read by Biopython’s Bio.Entrez on both databases', async () => {
      const script = join(tempDir(), 'entrez.py');
      writeFileSync(script, BIOPYTHON_SCRIPT);
      // Asynchronously: the server answering Biopython runs in this process.
      // An empty DTD cache (Biopython keeps it under $HOME) and no network but this machine's loopback.
      const home = tempDir();
      const env = { ...process.env, HOME: home, http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9', no_proxy: '127.0.0.1,localhost' };
      const { stdout } = await promisify(execFile)('/usr/bin/python3', [script, `${base}${E}`], { encoding: 'utf8', timeout: 25_000, env });
      const out = JSON.parse(stdout) as Record<string, unknown>;
      // What Biopython does not ship came from this mirror, at the addresses the replies name.
      expect(out.fetched_dtds).toEqual(expect.arrayContaining(['esummary_gene.dtd', 'esummary_clinvar.dtd', 'elink.dtd']));
      expect(out.esearch_gene).toEqual({
        Count: '1',
        IdList: ['672'],
        QueryTranslation: 'BRCA1[Gene Name] AND "Homo sapiens"[Organism]',
        WebEnv: 'MCID_',
        QueryKey: '1',
        TranslationSet: [{ From: 'human[orgn]', To: '"Homo sapiens"[Organism]' }],
      });
      expect(out.esummary_gene_history).toEqual({
        uid: '672',
        Name: 'BRCA1',
        Organism: { ScientificName: 'Homo sapiens', CommonName: 'human', TaxID: '9606' },
        GenomicInfo: [{ ChrLoc: '17', ChrAccVer: 'NC_000017.11', ChrStart: '43125482', ChrStop: '43044294' }],
        Mim: ['113705'],
      });
      expect(out.esummary_gene).toEqual([
        { uid: '3581', Name: 'IL9R', error: null },
        { uid: '4747', Name: 'NEFL', error: null },
      ]);
      expect(out.efetch_gene).toEqual({ locus: 'NEFL', taxname: 'Homo sapiens', loci: ['NC_000008'] });
      expect(out.efetch_gene_table).toBe('BRCA1 BRCA1 DNA repair associated [Homo sapiens]');
      expect(out.elink_gene).toEqual([
        { DbFrom: 'gene', IdList: ['672'], links: [['gene_pubmed', ['7545954']]] },
        { DbFrom: 'gene', IdList: ['3077'], links: [['gene_pubmed', ['8696333']]] },
      ]);
      expect(out.einfo).toEqual(['gene', 'clinvar']);
      expect(out.einfo_gene).toMatchObject({ DbName: 'gene', Count: '359', fields: ['ALL', 'UID', 'GENE', 'PREF'] });
      expect(out.esearch_clinvar).toEqual({ Count: '1', IdList: ['9'] });
      expect(out.esummary_clinvar).toEqual([
        {
          uid: '9',
          accession: 'VCV000000009',
          description: 'Pathogenic/Pathogenic, low penetrance; risk factor',
          genes: [{ symbol: 'HFE', GeneID: '3077', strand: '', source: '' }],
          assemblies: ['GRCh38', 'GRCh37'],
        },
        { uid: '12397', accession: 'VCV000012397', description: 'Pathogenic', genes: [{ symbol: 'TSC2', GeneID: '7249', strand: '+', source: 'submitted' }], assemblies: ['GRCh38', 'GRCh37'] },
      ]);
      expect(out.elink_clinvar).toEqual([['clinvar_gene', ['7249']]]);
      expect(out.einfo_clinvar).toEqual({ DbName: 'clinvar', Count: '15' });
      expect(out.efetch_clinvar).toEqual(['VCV000012397']);
    });
  });
}
