/** The documents of genes, drugs, guidelines, labels, pathways, variants and alleles. */
import type { TableSet } from '../../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../../core/store/db.js';
import { chromosomeRank, compareText, labelSource, naturalKey } from '../../enums.js';
import type { AlleleRow, GeneRow, GuidelineRow, LabelRow, PathwayRow, VariantRow } from '../../records.js';
import { SITE, type Allele, type ClinicalAnnotation, type Drug, type DrugLabel, type Gene, type Guideline, type Pathway, type Variant } from '../../resources.js';
import { namesOf } from '../schema.js';
import { Batch, ranked, type Links, type LoadIndex } from './context.js';

const sorted = (s: Iterable<string> | undefined) => [...(s ?? [])].sort(compareText);

/**
 * Gene documents, each with its clinical annotations as written to the annotations table (read
 * back a few hundred genes at a time through the annotations' gene links, in list order).
 */
export async function geneRows(db: Db, t: TableSet, index: LoadIndex, drugsOf: Map<string, Set<string>>): Promise<void> {
  const n = namesOf(t);
  const genes = new Batch(db, t, 'genes', ['key', 'id', 'ord', 'doc', 'brief']);
  const terms = new Batch(db, t, 'gene_terms', ['term', 'gene_key']);
  const all = ranked([...index.genesByKey.values()], (a, b) => compareText(a.symbol, b.symbol));
  for (let i = 0; i < all.length; i += 500) {
    const part = all.slice(i, i + 500);
    const keys = part.map(({ item }) => item.symbol.toLowerCase());
    const annotationsOf = new Map<string, ClinicalAnnotation[]>();
    const found = await db.query<{ g: string; doc: string }>(
      `SELECT l.key AS g, a.doc FROM ${n.links} l JOIN ${n.annotations} a ON a.id = l.id
       WHERE l.res = 'a' AND l.kind = 'gene' AND l.key IN (${keys.map(() => '?').join(', ')}) ORDER BY a.ord`,
      keys,
    );
    for (const r of found) {
      const list = annotationsOf.get(r.g) ?? [];
      list.push(JSON.parse(r.doc) as ClinicalAnnotation);
      annotationsOf.set(r.g, list);
    }
    await genePart(part, annotationsOf, drugsOf, genes, terms);
  }
  await genes.flush();
  await terms.flush();
}

async function genePart(part: { item: GeneRow; ord: number }[], annotationsOf: Map<string, ClinicalAnnotation[]>, drugsOf: Map<string, Set<string>>, genes: Batch, terms: Batch): Promise<void> {
  for (const { item: g, ord } of part) {
    const key = g.symbol.toLowerCase();
    const annotations = annotationsOf.get(key) ?? [];
    const base = {
      id: g.id,
      symbol: g.symbol,
      name: g.name,
      chromosome: g.chromosome,
      chromosomeLocation: g.chromosomeLocation,
      function: g.function,
      description: g.description,
    };
    const relatedDrugs = sorted(drugsOf.get(key));
    const doc: Gene = { ...base, clinicalAnnotations: annotations, relatedDrugs };
    const brief: Gene = { ...base, clinicalAnnotations: annotations.length, relatedDrugs };
    await genes.add([key, g.id, ord, JSON.stringify(doc), JSON.stringify(brief)]);
    // A search term matches the start of the symbol, an alternate symbol, the name or a word of it.
    const words = [g.symbol, ...g.alternateSymbols, g.name, ...g.alternateNames, ...g.name.split(/[^\p{L}\p{N}]+/u)];
    const seen = new Set<string>();
    for (const w of words) {
      const term = w.trim().toLowerCase();
      if (term && !seen.has(term)) {
        seen.add(term);
        await terms.add([term, key]);
      }
    }
  }
}

export function chemicalRows(index: LoadIndex, genesOf: Map<string, Set<string>>): { chemicals: SqlValue[][]; names: SqlValue[][] } {
  const chemicals: SqlValue[][] = [];
  const names = new Map<string, SqlValue[]>();
  for (const { item: c, ord } of ranked([...index.chemicalsById.values()], (a, b) => compareText(a.name, b.name) || compareText(a.id, b.id))) {
    const doc: Drug = {
      id: c.id,
      name: c.name,
      genericNames: c.genericNames,
      tradeNames: c.tradeNames,
      drugClasses: c.drugClasses,
      indication: c.indication,
      relatedGenes: sorted(genesOf.get(c.name.toLowerCase())),
    };
    chemicals.push([c.id, ord, JSON.stringify(doc)]);
    for (const n of [c.name, ...c.genericNames, ...c.tradeNames]) names.set(`${n.toLowerCase()}\n${c.id}`, [n.toLowerCase(), c.id]);
  }
  return { chemicals, names: [...names.values()] };
}

const STRENGTH = ['strong', 'moderate', 'optional', 'no recommendation'];

export async function guidelineRows(index: LoadIndex, links: Links, rows: GuidelineRow[]): Promise<SqlValue[][]> {
  const out: SqlValue[][] = [];
  for (const { item: g, ord } of ranked(rows, (a, b) => compareText(a.name, b.name) || compareText(a.id, b.id))) {
    const genes = g.genes.map((x) => index.geneSymbol(x));
    const drugs = g.drugs.map((x, i) => index.drugOf(g.drugIds[i], x));
    const levels = g.recommendations.map((r) => r.classification).filter((c) => STRENGTH.includes(c.toLowerCase()));
    levels.sort((a, b) => STRENGTH.indexOf(a.toLowerCase()) - STRENGTH.indexOf(b.toLowerCase()));
    const doc: Guideline = {
      id: g.id,
      name: g.name,
      source: g.source,
      genes,
      drugs,
      recommendationLevel: levels[0] ?? '',
      lastUpdated: g.lastUpdated,
      summary: g.summary,
      recommendations: g.recommendations,
      pdfUrl: g.pdfUrl,
      pmid: g.pmid,
    };
    out.push([g.id, g.source.toLowerCase(), ord, JSON.stringify(doc)]);
    await links.add('g', 'gene', genes, g.id);
    await links.add('g', 'drug', drugs, g.id);
  }
  return out;
}

export async function labelRows(index: LoadIndex, links: Links, rows: LabelRow[]): Promise<SqlValue[][]> {
  const out: SqlValue[][] = [];
  const docs = rows.map((l) => ({ l, drugs: l.drugs.map((d) => index.drugName(d)), source: labelSource(l.source) }));
  const order = (x: (typeof docs)[number]) => x.drugs.join(';');
  for (const { item: x, ord } of ranked(docs, (a, b) => compareText(order(a), order(b)) || compareText(a.source, b.source) || compareText(a.l.id, b.l.id))) {
    const { l } = x;
    const genes = l.genes.map((g) => index.geneSymbol(g));
    const doc: DrugLabel = {
      id: l.id,
      drug: x.drugs.join(';'),
      source: x.source,
      sections: l.sections,
      biomarkers: [...new Set([...genes, ...l.variants])],
      testingRecommended: /testing (required|recommended)/i.test(l.testingLevel),
      labelUrl: `${SITE}/labelAnnotation/${l.id}`,
      lastUpdated: l.lastUpdated,
      name: l.name,
      testingLevel: l.testingLevel,
    };
    out.push([l.id, x.source.toLowerCase(), ord, JSON.stringify(doc)]);
    await links.add('l', 'drug', x.drugs, l.id);
    await links.add('l', 'gene', genes, l.id);
  }
  return out;
}

export async function pathwayRows(index: LoadIndex, links: Links, rows: PathwayRow[]): Promise<SqlValue[][]> {
  const out: SqlValue[][] = [];
  for (const { item: p, ord } of ranked(rows, (a, b) => compareText(a.name, b.name) || compareText(a.id, b.id))) {
    const genes = p.genes.map((g) => index.geneSymbol(g));
    const drugs = p.drugs.map((d) => index.drugName(d));
    const doc: Pathway = {
      id: p.id,
      name: p.name,
      description: p.description,
      diagramUrl: `${SITE}/pathway/${p.id}`,
      drugs,
      genes,
      steps: p.steps.map((s) => ({ ...s, genes: s.genes.map((g) => index.geneSymbol(g)) })),
    };
    out.push([p.id, ord, JSON.stringify(doc)]);
    await links.add('p', 'gene', genes, p.id);
    await links.add('p', 'drug', drugs, p.id);
  }
  return out;
}

export function variantRows(rows: VariantRow[], referencesOf: Map<string, Variant['references']>): SqlValue[][] {
  const out: SqlValue[][] = [];
  const byLocus = (a: VariantRow, b: VariantRow) =>
    chromosomeRank(a.chromosome) - chromosomeRank(b.chromosome) || (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) || compareText(a.rsid, b.rsid);
  const seen = new Set<string>();
  for (const { item: v, ord } of ranked(rows, byLocus)) {
    const key = v.rsid.toLowerCase();
    // Two accessions with one name: the first (by location) answers for the name.
    if (seen.has(key)) continue;
    seen.add(key);
    const doc: Variant = {
      rsid: v.rsid,
      chromosome: v.chromosome,
      position: v.position,
      gene: v.genes.join(','),
      alleles: v.alleles,
      consequence: v.consequence,
      clinicalSignificance: v.clinicalSignificance,
      frequencies: v.frequencies,
      references: referencesOf.get(key) ?? [],
    };
    out.push([key, v.id, v.chromosome, v.position, ord, JSON.stringify(doc)]);
  }
  return out;
}

/** Star alleles are named with their gene (`CYP2D6*4`); other named variants after it (`VKORC1 rs9923231`). */
export function alleleName(gene: string, allele: string): string {
  return allele.startsWith('*') ? `${gene}${allele}` : `${gene} ${allele}`;
}

export function alleleRows(index: LoadIndex, rows: AlleleRow[]): SqlValue[][] {
  const out: SqlValue[][] = [];
  const docs = rows.map((a) => ({ a, gene: index.geneSymbol(a.gene) }));
  for (const { item: x, ord } of ranked(docs, (p, q) => compareText(p.gene, q.gene) || compareText(naturalKey(p.a.allele), naturalKey(q.a.allele)))) {
    const { a, gene } = x;
    const doc: Allele = {
      name: alleleName(gene, a.allele),
      gene,
      function: a.function,
      activityScore: a.activityScore,
      frequencies: a.frequencies,
      definingVariants: a.definingVariants,
      pharmVarId: a.pharmVarId,
    };
    out.push([doc.name.toLowerCase(), gene.toLowerCase(), ord, JSON.stringify(doc)]);
  }
  return out;
}
