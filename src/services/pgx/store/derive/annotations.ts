/**
 * Clinical annotations from the annotation table with its allele texts and evidence: one document
 * each, the filter links, and what variants and gene–drug pairs take from them (genes read their
 * annotations back from the table).
 */
import type { TableSet } from '../../../../core/ingest/dataset.js';
import type { Db } from '../../../../core/store/db.js';
import { compareText, labelSource, levelRank, naturalKey, sortSources } from '../../enums.js';
import type { EvidenceRow, GuidelineRow, KindRows, LabelRow } from '../../records.js';
import { SITE, type ClinicalAnnotation, type VariantReference } from '../../resources.js';
import { rawPages } from '../write.js';
import { Batch, ranked, type Links, type LoadIndex } from './context.js';

export interface AnnotationPair {
  gene: string;
  drug: string;
  count: number;
  bestLevel: string;
}

export interface AnnotationOutput {
  /** References of each variant (by lower-cased rsid). */
  referencesByVariant: Map<string, VariantReference[]>;
  /** Gene × drug of the annotations, for the gene–drug pairs: how many, and the best level. */
  pairs: Map<string, AnnotationPair>;
}

/** Bytewise order, the order the database walks keys in (see `rawPages`). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The rows of a kind keyed `<annotation>\t<...>`, walked alongside the annotations in key order:
 * `take(id)` returns the rows of annotation `id` and passes over those of annotations not loaded.
 * A group is contiguous because a tab sorts before every character of an annotation id (digits).
 */
class GroupWalk<K extends 'annotationAllele' | 'evidence'> {
  private readonly pages: AsyncGenerator<{ k: string; row: KindRows[K] }[]>;
  private page: { k: string; row: KindRows[K] }[] = [];
  private at = 0;
  private done = false;

  constructor(db: Db, t: TableSet, kind: K) {
    this.pages = rawPages(db, t, kind);
  }

  private async peek(): Promise<{ k: string; row: KindRows[K] } | undefined> {
    while (this.at >= this.page.length && !this.done) {
      const next = await this.pages.next();
      if (next.done) this.done = true;
      else {
        this.page = next.value;
        this.at = 0;
      }
    }
    return this.page[this.at];
  }

  async take(id: string): Promise<KindRows[K][]> {
    const out: KindRows[K][] = [];
    for (let r = await this.peek(); r; r = await this.peek()) {
      const owner = r.k.slice(0, r.k.indexOf('\t'));
      const c = byteOrder(owner, id);
      if (c > 0) break;
      if (c === 0) out.push(r.row);
      this.at++;
    }
    return out;
  }
}

/** The body behind a guideline or label piece of evidence: the loaded one's, else its title's. */
function evidenceSource(e: EvidenceRow, guidelines: Map<string, GuidelineRow>, labels: Map<string, LabelRow>): string | undefined {
  if (!/guideline|label/i.test(e.type)) return undefined;
  const known = guidelines.get(e.id)?.source ?? labels.get(e.id)?.source;
  const named = /Annotation of (\S+) (?:Guideline|Label)/i.exec(e.summary)?.[1];
  const source = known ?? named;
  return source ? labelSource(source) : undefined;
}

/**
 * Writes one document per clinical annotation and its filter links. The annotations are walked in
 * pages, each with its allele texts and evidence (walked alongside in the same key order), so what
 * is held is one page plus, per annotation, its place in the list order and its gene–drug pairs.
 */
export async function deriveAnnotations(db: Db, t: TableSet, index: LoadIndex, links: Links, input: { guidelines: GuidelineRow[]; labels: LabelRow[] }): Promise<AnnotationOutput> {
  // The list order (best evidence first, then by id) needs every annotation's level and id first.
  const keys: { id: string; level: string }[] = [];
  for await (const page of rawPages(db, t, 'annotation')) for (const { row } of page) keys.push({ id: row.id, level: row.evidenceLevel });
  const ordOf = new Map(ranked(keys, (a, b) => levelRank(a.level) - levelRank(b.level) || Number(a.id) - Number(b.id)).map(({ item, ord }) => [item.id, ord]));
  keys.length = 0;

  const alleleWalk = new GroupWalk(db, t, 'annotationAllele');
  const evidenceWalk = new GroupWalk(db, t, 'evidence');
  const guidelines = new Map(input.guidelines.map((g) => [g.id, g]));
  const labels = new Map(input.labels.map((l) => [l.id, l]));
  const out: AnnotationOutput = { referencesByVariant: new Map(), pairs: new Map() };
  // A variant lists its references in the annotations' list order, not the walk's key order.
  const refs = new Map<string, { ord: number; ref: VariantReference }[]>();
  const rows = new Batch(db, t, 'annotations', ['id', 'level', 'ord', 'doc']);

  for await (const page of rawPages(db, t, 'annotation')) {
    for (const { k, row: a } of page) {
      // Genotypes in natural order (`*2` before `*17`); evidence by id, so `pmid` is the same on every load.
      const alleles = (await alleleWalk.take(k)).sort((x, y) => compareText(naturalKey(x.genotype), naturalKey(y.genotype)));
      const ev = (await evidenceWalk.take(k)).sort((x, y) => compareText(x.id, y.id));
      const genes = a.genes.map((g) => index.geneSymbol(g));
      const drugs = a.drugs.map((d) => index.drugName(d));
      const sources = ev.map((e) => evidenceSource(e, guidelines, labels)).filter((s): s is string => s !== undefined);
      const url = a.url || `${SITE}/clinicalAnnotation/${a.id}`;
      const doc: ClinicalAnnotation = {
        id: a.id,
        gene: genes.join(';'),
        drug: drugs.join(';'),
        phenotype: a.phenotypes.join(';'),
        evidenceLevel: a.evidenceLevel,
        annotation: alleles.map((x) => `${x.genotype}: ${x.text}`).join('\n'),
        pmid: ev.find((e) => e.pmid)?.pmid ?? '',
        studyType: a.phenotypeCategories.join(';'),
        population: a.population,
        sources: ['PharmGKB', ...sortSources(sources)],
        variant: a.variant,
        url,
      };
      const ord = ordOf.get(a.id) ?? 0;
      await rows.add([a.id, a.evidenceLevel, ord, JSON.stringify(doc)]);

      await links.add('a', 'gene', genes, a.id);
      await links.add('a', 'drug', drugs, a.id);
      await links.add('a', 'phenotype', [...a.phenotypes, ...a.phenotypeCategories], a.id);
      // A haplotype list (`G6PD A-, G6PD B`) is found by the whole and by each member.
      const variants = [a.variant, ...a.variant.split(/,\s*/)];
      await links.add('a', 'variant', variants, a.id);

      for (const g of genes) {
        for (const d of drugs) {
          const key = `${g.toLowerCase()}\t${d.toLowerCase()}`;
          const p = out.pairs.get(key) ?? { gene: g, drug: d, count: 0, bestLevel: '' };
          p.count++;
          if (!p.bestLevel || levelRank(a.evidenceLevel) < levelRank(p.bestLevel)) p.bestLevel = a.evidenceLevel;
          out.pairs.set(key, p);
        }
      }
      const ref: VariantReference = {
        type: 'Clinical Annotation',
        id: a.id,
        url,
        pmids: [...new Set(ev.map((e) => e.pmid).filter((p) => p))].sort(compareText),
      };
      for (const v of new Set(variants.map((x) => x.trim().toLowerCase()).filter((x) => /^rs\d+$/.test(x)))) {
        const list = refs.get(v) ?? [];
        list.push({ ord, ref });
        refs.set(v, list);
      }
    }
  }
  await rows.flush();
  for (const [v, list] of refs)
    out.referencesByVariant.set(
      v,
      list.sort((x, y) => x.ord - y.ord).map((x) => x.ref),
    );
  return out;
}
