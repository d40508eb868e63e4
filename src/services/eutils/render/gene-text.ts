/**
 * efetch db=gene as text: the summary listing (retmode=text) and rettype=gene_table. Bulk files do
 * not carry exon structures, so the gene table lists each transcript and protein without the exon
 * table the real service adds below them.
 */
import type { GeneView } from '../../ncbi/gene/view.js';
import { cellList } from '../../ncbi/text.js';
import { mimIds } from './gene-docsum.js';
import { chromosomeOf, primaryPlacements, products } from '../../ncbi/gene/placement.js';

function organism(v: GeneView): string {
  return v.taxon.common ? `${v.taxon.scientific} (${v.taxon.common})` : v.taxon.scientific;
}

/** The numbered summary listing, one block per gene. */
export function geneSummaryText(views: GeneView[]): string {
  return views
    .map((v, i) => {
      const g = v.gene;
      const lines = [`${i + 1}. ${g.symbol}`];
      lines.push(g.nomSymbol ? `Official Symbol: ${g.nomSymbol} and Name: ${g.nomName} [${organism(v)}]` : `${g.description} [${organism(v)}]`);
      if (g.synonyms) lines.push(`Other Aliases: ${cellList(g.synonyms).join(', ')}`);
      if (g.otherDesignations) lines.push(`Other Designations: ${cellList(g.otherDesignations).join('; ')}`);
      lines.push(`Chromosome: ${cellList(g.chromosome).join(', ')}${g.mapLocation ? `; Location: ${g.mapLocation}` : ''}`);
      for (const p of primaryPlacements(v)) {
        lines.push(`Annotation: Chromosome ${chromosomeOf(v, p.accession)} ${p.accession} (${p.start + 1}..${p.end + 1}${p.minus ? ', complement' : ''})`);
      }
      const mim = mimIds(g.dbXrefs);
      if (mim.length) lines.push(`MIM: ${mim.join(', ')}`);
      lines.push(`ID: ${g.geneId}`);
      return lines.join('\n') + '\n';
    })
    .join('\n');
}

function updated(modDate: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(modDate);
  if (!m) return '';
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m[2]) - 1];
  return `, updated on ${m[3]}-${month}-${m[1]}`;
}

export function geneTableText(views: GeneView[]): string {
  return views
    .map((v) => {
      const g = v.gene;
      const lines = [`${g.symbol} ${g.description} [${v.taxon.scientific}]`, `Gene ID: ${g.geneId}${updated(g.modDate)}`, ''];
      for (const p of primaryPlacements(v)) lines.push(`${p.assembly || 'Genomic sequence'} ${p.accession} from: ${p.start + 1} to: ${p.end + 1}`, '');
      for (const pr of products(v)) {
        if (pr.rna) lines.push(`${pr.rna.startsWith('NR_') || pr.rna.startsWith('XR_') ? 'ncRNA' : 'mRNA'} ${pr.rna}`);
        if (pr.protein) lines.push(`protein ${pr.protein}`);
        lines.push('');
      }
      return lines.join('\n');
    })
    .join('\n');
}
