/**
 * NCBI Gene and ClinVar, from NCBI's FTP site over HTTPS (`gene/DATA/`, `pub/clinvar/`), with the
 * taxonomy's names and, on request, the RefSeq release catalog.
 */
import { UsageError } from '../errors.js';
import { tarMember } from '../derive.js';
import type { BulkSource, PlannedFile } from '../plan.js';
import { chooseParts, describeSource, folder } from './common.js';

const GENE_PARTS = ['gene_info', 'gene2refseq', 'gene2pubmed', 'gene2go', 'gene_condition_source_id', 'names', 'catalog'] as const;
// The RefSeq catalog lists every RefSeq sequence (gigabytes) only for transcript lengths: asked for by name.
const GENE_DEFAULT = GENE_PARTS.filter((p) => p !== 'catalog');

/** Short names of the organisms most asked for; any other is given as its path below GENE_INFO/. */
export const ORGANISMS: Readonly<Record<string, string>> = {
  human: 'Mammalia/Homo_sapiens',
  mouse: 'Mammalia/Mus_musculus',
  rat: 'Mammalia/Rattus_norvegicus',
};

function organismPath(o: string): string {
  const p = ORGANISMS[o.toLowerCase()] ?? o;
  if (!/^[A-Za-z_-]+\/[A-Za-z0-9_.-]+$/.test(p)) {
    throw new UsageError(`--organism ${o}: expected ${Object.keys(ORGANISMS).join(', ')} or a path below gene/DATA/GENE_INFO/ such as Mammalia/Bos_taurus`);
  }
  return p.replace(/\.gene_info(\.gz)?$/, '');
}

export const gene: BulkSource = {
  kind: 'bulk',
  service: 'eutils',
  dataset: 'gene',
  summary: 'NCBI Gene: gene/DATA/ gene_info (all organisms, or --organism), gene2refseq, gene2pubmed, gene2go, gene_condition_source_id; taxonomy names',
  accepts: ['parts', 'organisms'],
  upstreams: ['ncbi'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, GENE_PARTS, GENE_DEFAULT);
    if (!parts.has('gene_info')) throw new UsageError('the gene dataset needs gene_info: add it to --parts');
    const organisms = (ctx.opts.organisms ?? []).map(organismPath);
    const data = await folder(ctx, 'ncbi', 'gene/DATA/');
    const files: PlannedFile[] = [];
    if (organisms.length) {
      for (const path of organisms) {
        const group = path.slice(0, path.indexOf('/'));
        const f = await folder(ctx, 'ncbi', `gene/DATA/GENE_INFO/${group}/`);
        const name = `${path.slice(group.length + 1)}.gene_info.gz`;
        files.push(f.file(name, `GENE_INFO/${group}/${name}`));
      }
    } else files.push(data.file('gene_info.gz'));
    for (const p of ['gene2refseq', 'gene2pubmed', 'gene2go'] as const) if (parts.has(p)) files.push(data.file(`${p}.gz`));
    if (parts.has('gene_condition_source_id')) {
      files.push(data.file(data.has('gene_condition_source_id') ? 'gene_condition_source_id' : 'gene_condition_source_id.gz'));
    }
    if (parts.has('names')) {
      const tax = await folder(ctx, 'ncbi', 'pub/taxonomy/');
      files.push({ ...tax.file('taxdump.tar.gz', 'taxonomy/taxdump.tar.gz'), derive: tarMember('names.dmp', 'taxonomy/names.dmp') });
    }
    if (parts.has('catalog')) {
      const cat = await folder(ctx, 'ncbi', 'refseq/release/release-catalog/');
      const newest = cat.entries
        .map((e) => /^RefSeq-release(\d+)\.catalog\.gz$/.exec(e.name))
        .filter((m): m is RegExpExecArray => m !== null)
        .sort((a, b) => Number(b[1]) - Number(a[1]))[0];
      if (!newest) throw new UsageError(`${cat.url} lists no RefSeq-release<N>.catalog.gz`);
      files.push(cat.file(newest[0], `refseq/${newest[0]}`));
    }
    return { files, source: describeSource(files) };
  },
};

const CLINVAR_PARTS = ['variant_summary', 'var_citations', 'xml'] as const;

export const clinvar: BulkSource = {
  kind: 'bulk',
  service: 'eutils',
  dataset: 'clinvar',
  summary: 'ClinVar: pub/clinvar/ tab_delimited/variant_summary.txt.gz, var_citations.txt, xml/ClinVarVCVRelease_00-latest.xml.gz (MD5 checked)',
  accepts: ['parts'],
  upstreams: ['ncbi'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, CLINVAR_PARTS, CLINVAR_PARTS);
    if (!parts.has('variant_summary')) throw new UsageError('the clinvar dataset needs variant_summary: add it to --parts');
    const tab = await folder(ctx, 'ncbi', 'pub/clinvar/tab_delimited/');
    const files: PlannedFile[] = [tab.file('variant_summary.txt.gz', 'tab_delimited/variant_summary.txt.gz')];
    if (parts.has('var_citations')) {
      const name = tab.has('var_citations.txt') ? 'var_citations.txt' : 'var_citations.txt.gz';
      files.push(tab.file(name, `tab_delimited/${name}`));
    }
    if (parts.has('xml')) {
      const xml = await folder(ctx, 'ncbi', 'pub/clinvar/xml/');
      files.push(xml.file('ClinVarVCVRelease_00-latest.xml.gz', 'xml/ClinVarVCVRelease_00-latest.xml.gz'));
    }
    return { files, source: describeSource(files) };
  },
};
