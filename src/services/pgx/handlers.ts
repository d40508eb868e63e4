/**
 * One function per operation. No HTTP here: inputs are checked values, outputs are the documents
 * as stored (JSON text), failures are the service's errors. A gene or drug named in a filter must
 * be known to the load (404 otherwise); a known one without matches gives an empty list.
 */
import { tableSet, type TableSet } from '../../core/ingest/dataset.js';
import type { ServiceContext } from '../types.js';
import { pgxErrors } from './errors.js';
import type { AnnotationQuery, GeneSearch, GuidelineQuery, LabelQuery, PairQuery, PathwayQuery, VariantQuery } from './params.js';
import * as q from './store/queries.js';
import { TABLE_PREFIX } from './store/schema.js';

export const SERVICE = 'pgx';
export const DATASET = 'pharmgkb';

const PA_ID = /^PA\d+$/;

async function generation(ctx: ServiceContext): Promise<TableSet | undefined> {
  const gen = await ctx.generations.active(SERVICE, DATASET);
  return gen === undefined ? undefined : tableSet(TABLE_PREFIX, gen);
}

/** The gene key (lower-cased symbol) of a symbol or PharmGKB accession, or a 404. */
async function geneKey(ctx: ServiceContext, t: TableSet | undefined, symbol: string): Promise<string> {
  if (t) {
    const key = PA_ID.test(symbol) ? await q.geneKeyById(ctx.db, t, symbol) : symbol.toLowerCase();
    if (key !== undefined && (await q.geneNamed(ctx.db, t, key))) return key;
  }
  throw pgxErrors.geneNotFound(symbol);
}

/** The drug keys (lower-cased names) a name, synonym or accession stands for, or a 404. */
async function drugKeys(ctx: ServiceContext, t: TableSet | undefined, drug: string): Promise<string[]> {
  if (t) {
    const ids = PA_ID.test(drug) ? [drug] : await q.chemicalIdsByName(ctx.db, t, drug.toLowerCase());
    const docs = await q.chemicalsByIds(ctx.db, t, ids);
    const keys = new Set(docs.map((d) => (JSON.parse(d) as { name: string }).name.toLowerCase()));
    if (!PA_ID.test(drug) && (await q.drugNamed(ctx.db, t, drug.toLowerCase()))) keys.add(drug.toLowerCase());
    if (keys.size) return [...keys];
  }
  throw pgxErrors.drugNotFound(drug);
}

export async function getGene(ctx: ServiceContext, symbol: string): Promise<string> {
  const t = await generation(ctx);
  if (t) {
    const key = PA_ID.test(symbol) ? await q.geneKeyById(ctx.db, t, symbol) : symbol.toLowerCase();
    const doc = key === undefined ? undefined : await q.geneByKey(ctx.db, t, key);
    if (doc) return doc;
  }
  throw pgxErrors.geneNotFound(symbol);
}

export async function searchGenes(ctx: ServiceContext, input: GeneSearch): Promise<string[]> {
  const t = await generation(ctx);
  if (!t) return [];
  return input.q === undefined ? q.allGenes(ctx.db, t) : q.searchGenes(ctx.db, t, input.q.toLowerCase());
}

/** A drug by accession; a name or synonym is taken too (the first match in list order). */
export async function getChemical(ctx: ServiceContext, id: string): Promise<string> {
  const t = await generation(ctx);
  if (t) {
    const doc = PA_ID.test(id) ? await q.chemicalById(ctx.db, t, id) : (await q.chemicalsByIds(ctx.db, t, await q.chemicalIdsByName(ctx.db, t, id.toLowerCase())))[0];
    if (doc) return doc;
  }
  throw pgxErrors.drugNotFound(id);
}

export async function searchChemicals(ctx: ServiceContext, input: { name?: string | undefined }): Promise<string[]> {
  const t = await generation(ctx);
  if (!t) return [];
  if (input.name === undefined) return q.allChemicals(ctx.db, t);
  return q.chemicalsByIds(ctx.db, t, await q.chemicalIdsByName(ctx.db, t, input.name.toLowerCase()));
}

export async function geneDrugPairs(ctx: ServiceContext, input: PairQuery): Promise<string[]> {
  const t = await generation(ctx);
  const geneK = input.gene === undefined ? undefined : await geneKey(ctx, t, input.gene);
  const drugs = input.drug === undefined ? undefined : await drugKeys(ctx, t, input.drug);
  if (!t) return [];
  return q.pairs(ctx.db, t, { geneKey: geneK, drugKeys: drugs, cpicLevel: input.cpicLevel });
}

/** Link filters of a gene and a drug, resolved (404 when either is unknown). */
async function geneDrugFilters(ctx: ServiceContext, t: TableSet | undefined, gene?: string, drug?: string): Promise<q.LinkFilter[]> {
  const filters: q.LinkFilter[] = [];
  if (gene !== undefined) filters.push({ kind: 'gene', keys: [await geneKey(ctx, t, gene)] });
  if (drug !== undefined) filters.push({ kind: 'drug', keys: await drugKeys(ctx, t, drug) });
  return filters;
}

export async function guidelines(ctx: ServiceContext, input: GuidelineQuery): Promise<string[]> {
  const t = await generation(ctx);
  const filters = await geneDrugFilters(ctx, t, input.gene, input.drug);
  if (!t) return [];
  return q.linked(ctx.db, t, 'g', filters, input.source ? { name: 'source_key', value: input.source.toLowerCase() } : undefined);
}

export async function getGuideline(ctx: ServiceContext, id: string): Promise<string> {
  const t = await generation(ctx);
  const doc = t && (await q.linkedById(ctx.db, t, 'g', id));
  if (doc) return doc;
  throw pgxErrors.guidelineNotFound(id);
}

export async function alleles(ctx: ServiceContext, input: { gene: string }): Promise<string[]> {
  const t = await generation(ctx);
  const key = await geneKey(ctx, t, input.gene);
  return t ? q.allelesOfGene(ctx.db, t, key) : [];
}

/** An allele by its full name (`CYP2D6*4`), or by its star name with `gene` (`*4`, gene CYP2D6). */
export async function getAllele(ctx: ServiceContext, name: string, gene?: string): Promise<string> {
  const t = await generation(ctx);
  const full = gene !== undefined && name.startsWith('*') ? `${gene}${name}` : name;
  const doc = t && (await q.alleleByKey(ctx.db, t, full.toLowerCase()));
  if (doc) return doc;
  throw pgxErrors.alleleNotFound(full);
}

/** A variant by rsid, or by PharmGKB accession. */
export async function getVariant(ctx: ServiceContext, rsid: string): Promise<string> {
  const t = await generation(ctx);
  const doc = t && (PA_ID.test(rsid) ? await q.variantById(ctx.db, t, rsid) : await q.variantByKey(ctx.db, t, rsid.toLowerCase()));
  if (doc) return doc;
  throw pgxErrors.variantNotFound(rsid);
}

export async function variants(ctx: ServiceContext, input: VariantQuery): Promise<string[]> {
  const t = await generation(ctx);
  return t ? q.variants(ctx.db, t, input.chromosome, input.position) : [];
}

export async function annotations(ctx: ServiceContext, input: AnnotationQuery): Promise<string[]> {
  const t = await generation(ctx);
  const filters = await geneDrugFilters(ctx, t, input.gene, input.drug);
  if (input.phenotype !== undefined) filters.push({ kind: 'phenotype', keys: [input.phenotype.toLowerCase()] });
  if (input.variant !== undefined) filters.push({ kind: 'variant', keys: [input.variant.toLowerCase()] });
  if (!t) return [];
  return q.linked(ctx.db, t, 'a', filters, input.evidenceLevel ? { name: 'level', value: input.evidenceLevel } : undefined);
}

export async function getAnnotation(ctx: ServiceContext, id: string): Promise<string> {
  const t = await generation(ctx);
  const doc = t && (await q.linkedById(ctx.db, t, 'a', id));
  if (doc) return doc;
  throw pgxErrors.annotationNotFound(id);
}

export async function drugLabels(ctx: ServiceContext, input: LabelQuery): Promise<string[]> {
  const t = await generation(ctx);
  const filters = await geneDrugFilters(ctx, t, input.gene, input.drug);
  if (!t) return [];
  return q.linked(ctx.db, t, 'l', filters, input.source ? { name: 'source_key', value: input.source.toLowerCase() } : undefined);
}

export async function getLabel(ctx: ServiceContext, id: string): Promise<string> {
  const t = await generation(ctx);
  const doc = t && (await q.linkedById(ctx.db, t, 'l', id));
  if (doc) return doc;
  throw pgxErrors.labelNotFound(id);
}

export async function getPathway(ctx: ServiceContext, id: string): Promise<string> {
  const t = await generation(ctx);
  const doc = t && (await q.linkedById(ctx.db, t, 'p', id));
  if (doc) return doc;
  throw pgxErrors.pathwayNotFound(id);
}

export async function pathways(ctx: ServiceContext, input: PathwayQuery): Promise<string[]> {
  const t = await generation(ctx);
  const filters = await geneDrugFilters(ctx, t, input.gene, input.drug);
  return t ? q.linked(ctx.db, t, 'p', filters) : [];
}
