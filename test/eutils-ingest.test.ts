import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FormatError } from '../src/core/ingest/errors.js';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import { GENE_INFO_HEADER, geneIdFor, geneInfoLine, symbolFor, writeGeneInfo } from '../synthetic/ncbi-generate.js';
import type { TestApp } from './helpers/app.js';
import { CLINVAR_DEMO, E, GENE_DEMO, get, loadClinvar, loadGenes, ncbiApp, tags } from './helpers/ncbi.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const count = async (t: TestApp, db: string, term: string) => {
  const r = await get(t.app, `${E}/esearch.fcgi?db=${db}&term=${encodeURIComponent(term)}&rettype=count&retmode=json`);
  return Number((r.json as { esearchresult: { count: string } }).esearchresult.count);
};

for (const target of STORES) {
  describe(`NCBI ingest on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await ncbiApp(s);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    it('loads the demo gene files and ClinVar files, recording their release', async () => {
      const g = await loadGenes(s, t.generations);
      // 359 gene_info lines, 12 gene2refseq, 12 gene2pubmed, 7 gene2go, 9 gene_condition_source_id,
      // 9 RNA lines of the RefSeq catalog (its genomic and protein lines are passed over).
      expect(g.records).toBe(408);
      expect(g.skipped).toBe(0);
      expect(g.release).toBe('2025-11-25');
      const c = await loadClinvar(s, t.generations);
      // 29 variant_summary lines, 17 citations, 1 VCV record.
      expect(c.records).toBe(47);
      expect(await count(t, 'gene', 'alive[prop]')).toBe(359);
      expect(await count(t, 'clinvar', 'GRCh38[assembly]')).toBe(15);
      const status = await t.generations.served('eutils');
      expect(status.map((l) => [l.dataset, l.records])).toEqual([
        ['clinvar', 47],
        ['gene', 408],
      ]);
    });

    it('streams a gzipped gene_info, reporting lines it cannot load and refusing duplicate GeneIDs', async () => {
      const dir = tempDir();
      const lines = [GENE_INFO_HEADER];
      for (let i = 0; i < 300; i++) lines.push(geneInfoLine(i));
      lines.push(geneInfoLine(7)); // the same GeneID again
      lines.push('9606\tnot-a-number\tX\t-\t-\t-\t1\t-\tx\tprotein-coding\t-\t-\t-\t-\t20260101\t-');
      lines.push('9606\t123\t-\t-\t-\t-\t1\t-\tno symbol\tprotein-coding\t-\t-\t-\t-\t20260101\t-');
      writeFileSync(join(dir, 'All_Data.gene_info.gz'), gzipSync(lines.join('\n') + '\n'));
      const skipped: [SkipPlace, string][] = [];
      const r = await loadGenes(s, t.generations, join(dir, 'All_Data.gene_info.gz'), { batchSize: 64, onSkip: (p, why) => skipped.push([p, why]) });
      expect(r.records).toBe(300);
      expect(skipped.map(([p, why]) => [p.position, why])).toEqual([
        ['line 303', 'GeneID "not-a-number" is not a number'],
        ['line 304', 'no Symbol'],
        ['line 302', 'duplicate: a record with the same identifier was already loaded from an earlier place'],
      ]);
      expect(await count(t, 'gene', `${symbolFor(42)}[sym]`)).toBe(1);
      expect(await count(t, 'gene', 'txid559292[orgn]')).toBe(30);
      const sum = await get(t.app, `${E}/esummary.fcgi?db=gene&id=${geneIdFor(0)}&retmode=json`);
      expect((sum.json as { result: Record<string, Record<string, unknown>> }).result[String(geneIdFor(0))]).toMatchObject({ name: 'GEN0', otheraliases: 'ALIAS0, G0X' });
    });

    it('passes over lines of other taxa in the companion files and names taxa from names.dmp', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'gene_info'), `${GENE_INFO_HEADER}\n9598\t100000001\tTP53\t-\t-\t-\t17\t-\ttumor protein p53\tprotein-coding\tTP53\ttumor protein p53\t-\t-\t20260101\t-\n`);
      writeFileSync(join(dir, 'gene2pubmed.gz'), gzipSync('#tax_id\tGeneID\tPubMed_ID\n9598\t100000001\t111\n9606\t7157\t222\n9598\t100000001\tabc\n'));
      writeFileSync(
        join(dir, 'names.dmp'),
        '9598\t|\tPan troglodytes\t|\t\t|\tscientific name\t|\n9598\t|\tchimpanzee\t|\t\t|\tgenbank common name\t|\n9606\t|\tHomo sapiens\t|\t\t|\tscientific name\t|\n',
      );
      writeFileSync(join(dir, 'README'), 'not a bulk file');
      const skipped: string[] = [];
      const r = await loadGenes(s, t.generations, dir, { onSkip: (_p, why) => skipped.push(why) });
      // The gene, its one publication, its two names; the human line is another taxon's, not an error.
      expect(r.records).toBe(4);
      expect(skipped).toEqual(['PubMed_ID "abc" is not a number']);
      expect(await count(t, 'gene', 'chimpanzee[orgn]')).toBe(1);
      const sum = await get(t.app, `${E}/esummary.fcgi?db=gene&id=100000001&retmode=json`);
      expect((sum.json as { result: Record<string, Record<string, unknown>> }).result['100000001']?.organism).toEqual({ scientificname: 'Pan troglodytes', commonname: 'chimpanzee', taxid: 9598 });
      const links = await get(t.app, `${E}/elink.fcgi?dbfrom=gene&db=pubmed&id=100000001&retmode=json`);
      expect(JSON.stringify(links.json)).toContain('"links":["111"]');
    });

    it('takes transcript lengths from the RefSeq release catalog, in its old and new forms, for the loaded taxa', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'gene_info'), `${GENE_INFO_HEADER}\n9606\t7157\tTP53\t-\t-\t-\t17\t17p13.1\ttumor protein p53\tprotein-coding\tTP53\ttumor protein p53\t-\t-\t20260101\t-\n`);
      writeFileSync(
        join(dir, 'gene2refseq'),
        '#tax_id\tGeneID\tstatus\tRNA_nucleotide_accession.version\tRNA_nucleotide_gi\tprotein_accession.version\tprotein_gi\tgenomic_nucleotide_accession.version\tgenomic_nucleotide_gi\n' +
          '9606\t7157\tREVIEWED\tNM_000546.6\t-\tNP_000537.3\t-\t-\t-\n9606\t7157\tREVIEWED\tNM_001126112.3\t-\tNP_001119584.1\t-\t-\t-\n',
      );
      // Catalog lines are generated: two forms (7 columns with gi, before 2018; 6 after), a line of a
      // taxon not loaded, a protein, and a malformed length.
      writeFileSync(
        join(dir, 'RefSeq-release999.catalog.gz'),
        gzipSync(
          '9606\tHomo sapiens\tNM_000546.6\tvertebrate_mammalian|complete\tREVIEWED\t2000\n' +
            '9606\tHomo sapiens\tNM_001126112.3\t1\tvertebrate_mammalian|complete\tREVIEWED\t2100\n' +
            '9598\tPan troglodytes\tNM_000546.6\tvertebrate_mammalian|complete\tREVIEWED\t3000\n' +
            '9606\tHomo sapiens\tNP_000537.3\tvertebrate_mammalian|complete\tREVIEWED\t393\n' +
            '9606\tHomo sapiens\tNM_000001.1\tvertebrate_mammalian|complete\tREVIEWED\tlong\n',
        ),
      );
      const skipped: string[] = [];
      const r = await loadGenes(s, t.generations, dir, { onSkip: (_p, why) => skipped.push(why) });
      expect(r.records).toBe(5);
      expect(skipped).toEqual(['length is not a positive whole number: long']);
      const rep = await get(t.app, '/datasets/v2alpha/gene/id/7157');
      expect((rep.json as { genes: { gene: { transcripts: unknown[] } }[] }).genes[0]?.gene.transcripts).toEqual([
        { accession_version: 'NM_000546.6', length: 2000, protein: { accession_version: 'NP_000537.3' } },
        { accession_version: 'NM_001126112.3', length: 2100, protein: { accession_version: 'NP_001119584.1' } },
      ]);
      writeFileSync(join(dir, 'RefSeq-release999.catalog.gz'), gzipSync('not a catalog\n'));
      await expect(loadGenes(s, t.generations, dir)).rejects.toThrow(/not a RefSeq release catalog/);
    });

    it('refuses input that is not in the bulk formats, and a failed load leaves the data served before', async () => {
      await loadGenes(s, t.generations);
      const dir = tempDir();
      writeFileSync(join(dir, 'notes.txt'), 'hello\n');
      await expect(loadGenes(s, t.generations, dir)).rejects.toThrow(/no gene_info file found/);
      await expect(loadGenes(s, t.generations, join(dir, 'notes.txt'))).rejects.toThrow(FormatError);
      writeFileSync(join(dir, 'gene_info'), '#tax_id\tGeneID\tSymbol\n9606\t1\tA\n');
      await expect(loadGenes(s, t.generations, join(dir, 'gene_info'))).rejects.toThrow(/not a gene_info file/);
      const broken = join(dir, 'broken');
      mkdirSync(broken);
      const whole = gzipSync(readFileSync(join(GENE_DEMO, 'gene_info')));
      writeFileSync(join(broken, 'gene_info.gz'), whole.subarray(0, Math.floor(whole.length / 2)));
      await expect(loadGenes(s, t.generations, broken)).rejects.toThrow();
      expect(await count(t, 'gene', 'BRCA1[gene]')).toBe(2);
      const loads = await t.generations.list('eutils');
      expect(loads.map((l) => l.state)).toEqual(['active', 'failed', 'failed', 'failed', 'failed']);
    });

    it('loads ClinVar files one by one and refuses damaged XML', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'variant_summary.txt.gz'), gzipSync(readFileSync(join(CLINVAR_DEMO, 'variant_summary.txt'))));
      const only = await loadClinvar(s, t.generations, join(dir, 'variant_summary.txt.gz'));
      expect(only.records).toBe(29);
      const vcv = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=12397&rettype=vcv`);
      // Without the VCV release the record is built from variant_summary.
      expect(vcv.body).not.toContain('MolecularConsequence');
      expect(tags(vcv.body, 'Description')).toEqual(['Pathogenic']);
      writeFileSync(join(dir, 'ClinVarVCVRelease_x.xml'), '<?xml version="1.0"?>\n<ClinVarVariationRelease><VariationArchive VariationID="5"><Bad></VariationArchive>');
      await expect(loadClinvar(s, t.generations, dir)).rejects.toThrow(/damaged XML/);
      expect(await count(t, 'clinvar', 'HFE[gene]')).toBe(6);
      writeFileSync(join(dir, 'README.txt'), 'x');
      await expect(loadClinvar(s, t.generations, join(dir, 'README.txt'))).rejects.toThrow(/not a variant_summary file/);
    });

    it('generates a million-gene file format the benchmark loads (small sample here)', async () => {
      const file = join(tempDir(), 'gene_info.gz');
      await writeGeneInfo(file, 2500);
      const r = await loadGenes(s, t.generations, file);
      expect(r.records).toBe(2500);
      expect(await count(t, 'gene', 'kinase[gfn] AND human[orgn]')).toBeGreaterThan(0);
    });
  });
}
