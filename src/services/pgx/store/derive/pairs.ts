/**
 * Gene–drug pairs: every gene and drug that a clinical annotation, a guideline, a drug label or
 * CPIC's pair list puts together. CPIC's list gives the CPIC level (and its guideline's address);
 * the annotations give the best evidence level and their count; guidelines and labels give the
 * sources. Related drugs of a gene (and genes of a drug) are these pairs plus PharmGKB's
 * "associated" gene–chemical relationships.
 */
import type { SqlValue } from '../../../../core/store/db.js';
import { compareText, labelSource, levelRank, sortSources } from '../../enums.js';
import type { CpicPairRow, GuidelineRow, LabelRow, RelationshipRow } from '../../records.js';
import { SITE, type GeneDrugPair } from '../../resources.js';
import type { AnnotationPair } from './annotations.js';
import { ranked, type LoadIndex } from './context.js';

interface Acc {
  gene: string;
  drug: string;
  sources: Set<string>;
  cpicLevel: string;
  bestLevel: string;
  pharmgkbLevel: string;
  count: number;
  cpicUrl: string;
  guidelineIds: string[];
}

export interface PairOutput {
  rows: SqlValue[][];
  /** Drug names of each gene (by lower-cased symbol). */
  drugsOfGene: Map<string, Set<string>>;
  /** Gene symbols of each drug (by lower-cased name). */
  genesOfDrug: Map<string, Set<string>>;
}

export async function derivePairs(
  index: LoadIndex,
  input: {
    annotationPairs: Iterable<AnnotationPair>;
    guidelines: GuidelineRow[];
    labels: LabelRow[];
    cpic: CpicPairRow[];
    /** Read as they are walked: PharmGKB's relationships file is its largest after the annotations. */
    relationships: AsyncIterable<RelationshipRow>;
  },
): Promise<PairOutput> {
  const acc = new Map<string, Acc>();
  const at = (geneName: string, drugName: string): Acc => {
    const gene = index.geneSymbol(geneName);
    const drug = index.drugName(drugName);
    const key = `${gene.toLowerCase()}\t${drug.toLowerCase()}`;
    let a = acc.get(key);
    if (!a) {
      a = { gene, drug, sources: new Set(), cpicLevel: '', bestLevel: '', pharmgkbLevel: '', count: 0, cpicUrl: '', guidelineIds: [] };
      acc.set(key, a);
    }
    return a;
  };

  for (const p of input.annotationPairs) {
    const a = at(p.gene, p.drug);
    a.count += p.count;
    if (!a.bestLevel || levelRank(p.bestLevel) < levelRank(a.bestLevel)) a.bestLevel = p.bestLevel;
  }
  for (const g of input.guidelines) {
    const drugs = g.drugs.map((d, i) => index.drugOf(g.drugIds[i], d));
    for (const gene of g.genes) {
      for (const drug of drugs) {
        const a = at(gene, drug);
        if (g.source) a.sources.add(g.source);
        a.guidelineIds.push(g.id);
      }
    }
  }
  for (const l of input.labels) for (const gene of l.genes) for (const drug of l.drugs) at(gene, drug).sources.add(labelSource(l.source));
  for (const c of input.cpic) {
    const a = at(c.gene, c.drug);
    a.cpicLevel = c.cpicLevel;
    a.pharmgkbLevel = c.pharmgkbLevel;
    if (c.guidelineUrl) {
      a.cpicUrl = c.guidelineUrl;
      a.sources.add('CPIC');
    }
  }

  const drugsOfGene = new Map<string, Set<string>>();
  const genesOfDrug = new Map<string, Set<string>>();
  const relate = (gene: string, drug: string) => {
    const gs = drugsOfGene.get(gene.toLowerCase()) ?? new Set<string>();
    gs.add(drug);
    drugsOfGene.set(gene.toLowerCase(), gs);
    const ds = genesOfDrug.get(drug.toLowerCase()) ?? new Set<string>();
    ds.add(gene);
    genesOfDrug.set(drug.toLowerCase(), ds);
  };
  for (const a of acc.values()) relate(a.gene, a.drug);
  for await (const r of input.relationships) {
    if (r.association === 'associated') relate(index.geneSymbol(r.gene), index.chemicalsById.get(r.chemicalId)?.name ?? index.drugName(r.chemical));
  }

  const rows: SqlValue[][] = [];
  for (const { item: a, ord } of ranked([...acc.values()], (x, y) => compareText(x.gene, y.gene) || compareText(x.drug, y.drug))) {
    const firstGuideline = [...a.guidelineIds].sort(compareText)[0];
    const doc: GeneDrugPair = {
      gene: a.gene,
      drug: a.drug,
      sources: sortSources(a.sources),
      cpicLevel: a.cpicLevel,
      evidenceLevel: a.bestLevel || a.pharmgkbLevel,
      clinicalAnnotationCount: a.count,
      hasGuideline: a.cpicUrl !== '' || firstGuideline !== undefined,
      guidelineUrl: a.cpicUrl || (firstGuideline ? `${SITE}/guidelineAnnotation/${firstGuideline}` : ''),
    };
    rows.push([a.gene.toLowerCase(), a.drug.toLowerCase(), a.cpicLevel.toUpperCase(), ord, JSON.stringify(doc)]);
  }
  return { rows, drugsOfGene, genesOfDrug };
}
