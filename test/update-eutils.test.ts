import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoadAborted } from '../src/core/ingest/errors.js';
import { describeLoad } from '../src/core/ingest/report.js';
import type { TestApp } from './helpers/app.js';
import { CLINVAR_DEMO, E, GENE_DEMO, get, loadClinvar, loadDemo, loadGenes, ncbiApp } from './helpers/ncbi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { folderOf, stopAfterFirstBatch } from './helpers/updates.js';

const lineOf = (file: string, start: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(start)) as string;

/** The next day's files: A1BG renamed, a new gene, TP53's GO rows, and gene_history withdrawing NAT1. */
function nextDay(): string {
  const info = join(GENE_DEMO, 'gene_info');
  const header = readFileSync(info, 'utf8').split('\n')[0] as string;
  const a1bg = lineOf(info, '9606\t1\t').split('\t');
  a1bg[8] = 'zebrafinch glycoprotein';
  const added = [...a1bg];
  [added[1], added[2], added[4], added[5], added[8], added[10], added[11], added[13]] = ['999999001', 'ZZTOP1', '-', '-', 'generated test gene', '-', '-', '-'];
  const goHeader = readFileSync(join(GENE_DEMO, 'gene2go'), 'utf8').split('\n')[0] as string;
  return folderOf({
    'Homo_sapiens.gene_info': [header, a1bg.join('\t'), added.join('\t')].join('\n') + '\n',
    gene2go: `${goHeader}\n9606\t7157\tGO:0000001\tIEA\tinvolved_in\tmitochondrion inheritance\t-\tProcess\n`,
    'gene_history.gz': gzipSync('#tax_id\tGeneID\tDiscontinued_GeneID\tDiscontinued_Symbol\tDiscontinue_Date\n9606\t-\t9\tNAT1\t20260101\n9606\t-\t424242\tGONE\t20100101\n'),
  });
}

/** The next week's variant_summary: variation 2 reclassified as benign, both assemblies. */
function nextWeek(): string {
  const file = join(CLINVAR_DEMO, 'variant_summary.txt');
  const [header, ...rows] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const h = (header as string).split('\t');
  const vid = h.indexOf('VariationID');
  const sig = h.indexOf('ClinicalSignificance');
  const two = rows.map((r) => r.split('\t')).filter((r) => r[vid] === '2');
  for (const r of two) r[sig] = 'Benign';
  return folderOf({ 'variant_summary.txt': [header, ...two.map((r) => r.join('\t'))].join('\n') + '\n' });
}

for (const target of STORES) {
  describe(`NCBI updates on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await ncbiApp(s);
      await loadDemo(s, t.generations);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });

    const ids = async (db: string, term: string) => {
      t.generations.invalidate();
      const r = await get(t.app, `${E}/esearch.fcgi?db=${db}&retmax=500&retmode=json&term=${encodeURIComponent(term)}`);
      return ((r.json.esearchresult as { idlist: string[] }).idlist ?? []).slice().sort();
    };

    it('applies a day of gene files and gene_history; the search index follows part by part', async () => {
      expect(await ids('gene', 'NAT1[gene]')).toEqual(['9']);
      expect(await ids('gene', 'GO:0006915[GO]')).toContain('7157');
      const r = await loadGenes(s, t.generations, nextDay(), { update: true });
      expect(r.changes?.parts).toMatchObject({ gene: { added: 1, replaced: 1, deleted: 1 }, go: { added: 0, replaced: 1 } });
      expect(r.changes?.listedAbsent).toBe(1);
      expect(await ids('gene', 'zebrafinch[GFN]')).toEqual(['1']);
      expect(await ids('gene', 'alpha[GFN] AND 1[UID]')).toEqual([]);
      expect(await ids('gene', 'A1BG[gene]')).toEqual(['1']);
      expect(await ids('gene', 'ZZTOP1[gene]')).toEqual(['999999001']);
      expect(await ids('gene', 'NAT1[gene]')).toEqual([]);
      // TP53's GO terms are the new ones; its names (another part) are untouched.
      expect(await ids('gene', 'GO:0006915[GO]')).not.toContain('7157');
      expect(await ids('gene', 'GO:0000001[GO]')).toEqual(['7157']);
      expect(await ids('gene', 'TP53[gene]')).toContain('7157');
      const summary = await get(t.app, `${E}/esummary.fcgi?db=gene&id=9&retmode=json`);
      expect(JSON.stringify(summary.json)).not.toContain('N-acetyltransferase 1');
      expect(describeLoad('eutils/gene', r).slice(0, 3)).toEqual([
        `updated eutils/gene: genes 1 added, 1 replaced, 1 deleted; now ${r.items} genes (generation ${r.gen})`,
        '  also replaced: go of 1, added to 0',
        '  1 listed as deleted were not loaded',
      ]);
    });

    it('applies a week of ClinVar: a reclassified variation is found by its new significance only', async () => {
      expect(await ids('clinvar', 'benign[clnsig]')).not.toContain('2');
      const r = await loadClinvar(s, t.generations, nextWeek(), { update: true });
      expect(r.changes?.parts.row).toEqual({ added: 0, replaced: 1, deleted: 0 });
      expect(await ids('clinvar', 'benign[clnsig]')).toContain('2');
      expect(await ids('clinvar', 'pathogenic[clnsig]')).not.toContain('2');
      expect(await ids('clinvar', 'pathogenic[clnsig]')).toContain('3');
      // Its VCV record and citations were not in the update: they stay.
      const vcv = await get(t.app, `${E}/efetch.fcgi?db=clinvar&id=2&rettype=vcv`);
      expect(vcv.status).toBe(200);
      expect(vcv.body).toContain('VariationArchive');
    });

    it('keeps what is served when an update stops part-way', async () => {
      await expect(loadGenes(s, t.generations, nextDay(), { update: true, ...stopAfterFirstBatch() })).rejects.toThrow(LoadAborted);
      expect(await ids('gene', 'NAT1[gene]')).toEqual(['9']);
      expect(await ids('gene', 'zebrafinch[GFN]')).toEqual([]);
    });
  });
}
