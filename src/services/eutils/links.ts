/**
 * The links elink follows, by name, as NCBI names them: from db=gene to PubMed, Nucleotide, Protein,
 * neighbouring genes, ClinVar and Taxonomy; from db=clinvar to PubMed, Gene, MedGen and dbSNP. Each
 * reads the loaded data and returns, per source UID, the linked UIDs.
 */
import { ident } from '../../core/store/db.js';
import { clinvarTables } from '../ncbi/clinvar/store.js';
import { conditions } from '../ncbi/clinvar/values.js';
import { loadVariants } from '../ncbi/clinvar/view.js';
import { C } from '../ncbi/clinvar/fields.js';
import { geneTables } from '../ncbi/gene/store.js';
import { loadGenes } from '../ncbi/gene/view.js';
import type { ServiceContext } from '../types.js';
import { backend, type Backend, type DbName } from './data.js';
import { primaryPlacements } from '../ncbi/gene/placement.js';

export interface LinkDef {
  name: string;
  from: DbName;
  to: string;
  menu: string;
  description: string;
  follow(ctx: ServiceContext, b: Backend, ids: number[]): Promise<Map<number, string[]>>;
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function collect(ids: number[]): Map<number, string[]> {
  return new Map(ids.map((id) => [id, []]));
}

/** Newest first for numeric UIDs, as the real service lists links; accessions after them. */
function order(xs: string[]): string[] {
  const uniq = [...new Set(xs)];
  return uniq.sort((a, b) => {
    const na = /^\d+$/.test(a);
    const nb = /^\d+$/.test(b);
    if (na && nb) return Number(b) - Number(a);
    return na ? -1 : nb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}

/** RefSeq sequences of genes: the GI when gene2refseq gives one, else the accession.version. */
async function sequences(ctx: ServiceContext, b: Backend, ids: number[], pick: (r: Record<string, unknown>) => string[]): Promise<Map<number, string[]>> {
  const out = collect(ids);
  const rows = await ctx.db.query<Record<string, unknown>>(`SELECT * FROM ${ident(geneTables(b.t).refseq)} WHERE gene_id IN (${marks(ids.length)})`, ids);
  for (const r of rows) out.get(Number(r.gene_id))?.push(...pick(r).filter(Boolean));
  for (const [k, v] of out) out.set(k, order(v));
  return out;
}

const seq = (acc: unknown, gi: unknown): string => (/^\d+$/.test(String(gi ?? '')) ? String(gi) : String(acc ?? ''));

export const LINKS: readonly LinkDef[] = [
  {
    name: 'gene_pubmed',
    from: 'gene',
    to: 'pubmed',
    menu: 'PubMed',
    description: 'PubMed articles about the gene',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      const rows = await ctx.db.query<{ gene_id: number; pmid: number }>(
        `SELECT DISTINCT gene_id, pmid FROM ${ident(geneTables(b.t).pubmed)} WHERE gene_id IN (${marks(ids.length)}) ORDER BY pmid DESC`,
        ids,
      );
      for (const r of rows) out.get(Number(r.gene_id))?.push(String(r.pmid));
      return out;
    },
  },
  {
    name: 'gene_nuccore',
    from: 'gene',
    to: 'nuccore',
    menu: 'Nucleotide',
    description: 'Nucleotide sequences of the gene: RefSeq RNAs and genomic sequences',
    follow: (ctx, b, ids) => sequences(ctx, b, ids, (r) => [seq(r.rna_acc, r.rna_gi), seq(r.gen_acc, r.gen_gi)]),
  },
  {
    name: 'gene_nuccore_refseqrna',
    from: 'gene',
    to: 'nuccore',
    menu: 'RefSeq RNAs',
    description: 'RefSeq RNA sequences of the gene',
    follow: (ctx, b, ids) => sequences(ctx, b, ids, (r) => [seq(r.rna_acc, r.rna_gi)]),
  },
  {
    name: 'gene_protein',
    from: 'gene',
    to: 'protein',
    menu: 'Protein',
    description: 'Protein sequences of the gene',
    follow: (ctx, b, ids) => sequences(ctx, b, ids, (r) => [seq(r.prot_acc, r.prot_gi)]),
  },
  {
    name: 'gene_protein_refseq',
    from: 'gene',
    to: 'protein',
    menu: 'RefSeq Proteins',
    description: 'RefSeq protein sequences of the gene',
    follow: (ctx, b, ids) => sequences(ctx, b, ids, (r) => (String(r.prot_acc ?? '').match(/^[ANXWY]P_/) ? [seq(r.prot_acc, r.prot_gi)] : [])),
  },
  {
    name: 'gene_gene_neighbors',
    from: 'gene',
    to: 'gene',
    menu: 'Neighboring Genes',
    description: 'The ten genes that start nearest to the gene on the same genomic sequence',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      const rs = ident(geneTables(b.t).refseq);
      for (const v of (await loadGenes(ctx.db, b.t, ids)).values()) {
        for (const p of primaryPlacements(v)) {
          const near = await ctx.db.query<{ gene_id: number }>(
            `SELECT gene_id FROM (SELECT gene_id, MIN(start_pos) AS s FROM ${rs} WHERE gen_acc = ? AND gene_id <> ? AND start_pos IS NOT NULL GROUP BY gene_id) g
             ORDER BY ABS(g.s - ?) LIMIT 10`,
            [p.accession, v.gene.geneId, p.start],
          );
          out.get(v.gene.geneId)?.push(...near.map((n) => String(n.gene_id)));
        }
      }
      for (const [k, v] of out) out.set(k, order(v));
      return out;
    },
  },
  {
    name: 'gene_clinvar',
    from: 'gene',
    to: 'clinvar',
    menu: 'ClinVar',
    description: 'ClinVar variations in or near the gene',
    async follow(ctx, _b, ids) {
      const out = collect(ids);
      const cv = await backend(ctx, 'clinvar');
      if (!cv) return out;
      for (const id of ids) {
        const found = await cv.searcher.page({ k: 'atom', fields: [C.GENEID], terms: [String(id)], prefix: false }, 0, 100_000);
        out.set(id, found.map(String));
      }
      return out;
    },
  },
  {
    name: 'gene_taxonomy',
    from: 'gene',
    to: 'taxonomy',
    menu: 'Taxonomy',
    description: 'The organism of the gene',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      const rows = await ctx.db.query<{ gene_id: number; tax_id: number }>(`SELECT gene_id, tax_id FROM ${ident(geneTables(b.t).genes)} WHERE gene_id IN (${marks(ids.length)})`, ids);
      for (const r of rows) out.set(Number(r.gene_id), [String(r.tax_id)]);
      return out;
    },
  },
  {
    name: 'clinvar_pubmed',
    from: 'clinvar',
    to: 'pubmed',
    menu: 'PubMed',
    description: 'PubMed articles cited by the variation record',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      const rows = await ctx.db.query<{ variation_id: number; citation_id: string }>(
        `SELECT DISTINCT variation_id, citation_id FROM ${ident(clinvarTables(b.t).citations)} WHERE variation_id IN (${marks(ids.length)}) AND source = 'PubMed'`,
        ids,
      );
      for (const r of rows) out.get(Number(r.variation_id))?.push(r.citation_id);
      for (const [k, v] of out) out.set(k, order(v));
      return out;
    },
  },
  {
    name: 'clinvar_gene',
    from: 'clinvar',
    to: 'gene',
    menu: 'Gene',
    description: 'Genes the variation is in or near',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      for (const v of (await loadVariants(ctx.db, b.t, ids)).values()) out.set(v.variationId, order(v.rows.map((r) => r.geneId).filter((g) => /^\d+$/.test(g))));
      return out;
    },
  },
  {
    name: 'clinvar_medgen',
    from: 'clinvar',
    to: 'medgen',
    menu: 'MedGen',
    description: 'MedGen concepts of the conditions (ClinVar bulk data names them by concept id)',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      for (const v of (await loadVariants(ctx.db, b.t, ids)).values()) {
        const r = v.rows[0];
        if (!r) continue;
        const cuis = conditions(r.phenotypeList, r.phenotypeIds).flatMap((c) => c.xrefs.filter((x) => x.db === 'MedGen').map((x) => x.id));
        out.set(v.variationId, [...new Set(cuis)]);
      }
      return out;
    },
  },
  {
    name: 'clinvar_snp',
    from: 'clinvar',
    to: 'snp',
    menu: 'dbSNP',
    description: 'dbSNP records of the variation',
    async follow(ctx, b, ids) {
      const out = collect(ids);
      for (const v of (await loadVariants(ctx.db, b.t, ids)).values()) out.set(v.variationId, order(v.rows.map((r) => r.rs).filter((rs) => /^\d+$/.test(rs) && rs !== '-1')));
      return out;
    },
  },
];
