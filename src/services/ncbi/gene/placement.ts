/**
 * Where a gene lies, from its gene2refseq lines: one placement per genomic sequence of the primary
 * assembly (coordinates 0-based, as gene2refseq gives them), the gene's extent on it.
 */
import type { GeneView } from './view.js';
import { cellList } from '../text.js';

export interface Placement {
  accession: string;
  assembly: string;
  start: number;
  end: number;
  minus: boolean;
  gi: string;
}

export function primaryPlacements(v: GeneView): Placement[] {
  const rows = v.refseq.filter((r) => r.genAcc && r.start !== null && r.end !== null);
  const primary = rows.filter((r) => /primary assembly/i.test(r.assembly) && /^(NC|AC)_/.test(r.genAcc));
  const use = primary.length ? primary : rows.filter((r) => /^(NC|AC|NT|NW)_/.test(r.genAcc));
  const by = new Map<string, Placement>();
  for (const r of use) {
    const p = by.get(r.genAcc);
    const s = r.start as number;
    const e = r.end as number;
    if (!p) by.set(r.genAcc, { accession: r.genAcc, assembly: r.assembly, start: s, end: e, minus: r.orientation === '-', gi: r.genGi });
    else {
      p.start = Math.min(p.start, s);
      p.end = Math.max(p.end, e);
    }
  }
  return [...by.values()];
}

/**
 * The chromosome of a placement: the gene's only chromosome, or for human chromosome sequences
 * the one their RefSeq accession numbers (NC_000023 is X, NC_000024 is Y).
 */
export function chromosomeOf(v: GeneView, accession: string): string {
  const chromosomes = cellList(v.gene.chromosome);
  if (chromosomes.length === 1) return chromosomes[0] as string;
  const m = /^NC_0000(\d\d)\./.exec(accession);
  if (v.gene.taxId === 9606 && m) {
    const n = Number(m[1]);
    return n === 23 ? 'X' : n === 24 ? 'Y' : String(n);
  }
  return chromosomes[0] ?? '';
}

/** RNA and protein accessions of the gene, each once, in file order. */
export interface Product {
  rna: string;
  rnaGi: string;
  /** Bases of the RNA, when the RefSeq release catalog was loaded. */
  rnaLength?: number;
  protein: string;
  proteinGi: string;
  status: string;
}

export function products(v: GeneView): Product[] {
  const seen = new Set<string>();
  const out: Product[] = [];
  for (const r of v.refseq) {
    if (!r.rnaAcc && !r.protAcc) continue;
    const key = `${r.rnaAcc}|${r.protAcc}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ rna: r.rnaAcc, rnaGi: r.rnaGi, ...(r.rnaLength ? { rnaLength: r.rnaLength } : {}), protein: r.protAcc, proteinGi: r.protGi, status: r.status });
  }
  return out;
}
