/**
 * One row of a catalog download as the records the store writes: a study (studies TSV), an
 * ancestry entry (ancestry TSV) or an association with its SNPs, traits and genes (associations
 * TSV). Documents are shaped as the REST API serves them, minus `_links` (they depend on the host
 * the client used) and minus what is joined at request time (a study's ancestries).
 */
import type { TsvRow } from '../tsv.js';
import { blank, intOrNull, isoDate, list, orNull, parseEffect, parsePlatform, parsePvalue, parseTraits, perSnp, timestamp, numberOrNull, type TraitRef } from './parse.js';
import { associationV2, studyV2, type AssociationKeys, type StudyV2 } from './records-v2.js';
import type { EfoTermRecord } from './efo.js';
import type { TraitMappingRecord, UnpublishedAncestryRecord, UnpublishedStudyRecord } from './unpublished.js';

export interface GeneDoc {
  geneName: string;
  entrezGeneIds: { entrezGeneId: string }[];
  ensemblGeneIds: { ensemblGeneId: string }[];
}

export interface LocationDoc {
  chromosomeName: string;
  chromosomePosition: number | null;
  region: { name: string | null };
}

export interface SnpDoc {
  rsId: string;
  merged: number;
  functionalClass: string | null;
  lastUpdateDate: string | null;
  locations: LocationDoc[];
  genomicContexts: Record<string, unknown>[];
}

export interface PublicationDoc {
  pubmedId: string;
  publicationDate: string | null;
  publication: string | null;
  title: string | null;
  author: { fullname: string | null; orcid: null };
}

export interface StudyRecord {
  kind: 'study';
  acc: string;
  pubmed: string;
  diseaseTrait: string;
  pubDate: string;
  doc: Record<string, unknown>;
  traits: TraitRef[];
  publication: PublicationDoc;
  /** What API v2 adds: traits, background traits, cohorts; and the columns it filters and sorts on. */
  v2: StudyV2;
  snpCount: number | null;
  fullPvalueSet: boolean;
}

export interface AncestryRecord {
  kind: 'ancestry';
  acc: string;
  doc: Record<string, unknown>;
  /** For API v2's filters: the stage, the number of individuals and the ancestral groups. */
  stage: string;
  individuals: number | null;
  groups: string;
}

export interface AssociationRecord {
  kind: 'association';
  id: number;
  /** The id is the reader's count (the file has no ids), not the catalog's. */
  numbered?: boolean;
  acc: string;
  pubmed: string;
  pvalue: number | null;
  doc: Record<string, unknown>;
  snps: SnpDoc[];
  traits: TraitRef[];
  genes: GeneDoc[];
  /** Genes of each SNP's genomic context, for findByGene. */
  snpGenes: { gene: string; rsid: string }[];
  /** The association in API v2's shape (see records-v2.ts) and its sort keys. */
  doc2: Record<string, unknown>;
  keys: AssociationKeys;
}

export type CatalogRecord = StudyRecord | AncestryRecord | AssociationRecord | UnpublishedStudyRecord | UnpublishedAncestryRecord | TraitMappingRecord | EfoTermRecord;

export const ACCESSION = /^GCST\d+$/;

/** A row of the studies TSV, or why it is not one. */
export function studyRecord(r: TsvRow): StudyRecord | string {
  const acc = r.get('STUDY ACCESSION');
  if (!ACCESSION.test(acc)) return acc ? `malformed STUDY ACCESSION "${acc}"` : 'no STUDY ACCESSION';
  const platform = parsePlatform(r.get('PLATFORM [SNPS PASSING QC]'));
  const pubmed = r.get('PUBMEDID') || r.get('PUBMED ID');
  const publication: PublicationDoc = {
    pubmedId: pubmed,
    publicationDate: isoDate(r.get('DATE')),
    publication: orNull(r.get('JOURNAL')),
    title: orNull(r.get('STUDY')),
    author: { fullname: orNull(r.get('FIRST AUTHOR')), orcid: null },
  };
  const full = r.get('FULL SUMMARY STATISTICS').toLowerCase();
  const traits = parseTraits(r.get('MAPPED_TRAIT'), r.get('MAPPED_TRAIT_URI'));
  const doc = {
    initialSampleSize: orNull(r.get('INITIAL SAMPLE SIZE')),
    // Not in the downloads: gxe, gxg, userRequested and studyDesignComment take the values most
    // studies have (see the compatibility notes).
    gxe: false,
    gxg: false,
    snpCount: platform.snpCount,
    qualifier: platform.qualifier,
    imputed: platform.imputed,
    pooled: platform.pooled,
    studyDesignComment: null,
    accessionId: acc,
    fullPvalueSet: full === 'yes' || full === 'true',
    userRequested: false,
    platforms: platform.manufacturers.map((manufacturer) => ({ manufacturer })),
    ancestries: [] as unknown[],
    diseaseTrait: { trait: r.get('DISEASE/TRAIT') },
    genotypingTechnologies: list(r.get('GENOTYPING TECHNOLOGY')).map((genotypingTechnology) => ({ genotypingTechnology })),
    replicationSampleSize: orNull(r.get('REPLICATION SAMPLE SIZE')),
    publicationInfo: publication,
  };
  return {
    kind: 'study',
    acc,
    pubmed,
    diseaseTrait: r.get('DISEASE/TRAIT'),
    pubDate: publication.publicationDate ?? '',
    doc,
    traits,
    publication,
    v2: studyV2(r, traits),
    snpCount: platform.snpCount,
    fullPvalueSet: doc.fullPvalueSet,
  };
}

/** Countries by name only (the downloads carry no area or region); `NR` is kept as the API keeps it. */
function countries(v: string) {
  if (v.trim() === 'NR') return [{ majorArea: 'NR', region: 'NR', countryName: 'NR' }];
  return blank(v) ? [] : list(v).map((countryName) => ({ majorArea: null, region: null, countryName }));
}

/** A row of the ancestry TSV (older files spell two headers without their second I). */
export function ancestryRecord(r: TsvRow): AncestryRecord | string {
  const acc = r.get('STUDY ACCESSION');
  if (!ACCESSION.test(acc)) return acc ? `malformed STUDY ACCESSION "${acc}"` : 'no STUDY ACCESSION';
  const n = r.get('NUMBER OF INDIVIDUALS') || r.get('NUMBER OF INDIVDUALS');
  const groups = r.get('BROAD ANCESTRAL CATEGORY');
  return {
    kind: 'ancestry',
    acc,
    doc: {
      type: r.get('STAGE').toLowerCase() || null,
      numberOfIndividuals: intOrNull(n),
      ancestralGroups: groups ? list(groups).map((ancestralGroup) => ({ ancestralGroup })) : [],
      countryOfOrigin: countries(r.get('COUNTRY OF ORIGIN')),
      countryOfRecruitment: countries(r.get('COUNTRY OF RECRUITMENT')),
    },
    stage: r.get('STAGE').toLowerCase(),
    individuals: intOrNull(n),
    groups: groups.toLowerCase(),
  };
}

function geneDoc(name: string, ensembl: string[]): GeneDoc {
  return { geneName: name, entrezGeneIds: [], ensemblGeneIds: ensembl.map((ensemblGeneId) => ({ ensemblGeneId })) };
}

/** Genomic contexts of a SNP from MAPPED_GENE and the gene id and distance columns. */
function contexts(r: TsvRow, mapped: string, single: boolean, location: LocationDoc | null): { ctx: Record<string, unknown>[]; genes: GeneDoc[] } {
  const ctx: Record<string, unknown>[] = [];
  const genes: GeneDoc[] = [];
  const add = (g: GeneDoc, c: { isIntergenic: boolean; isUpstream: boolean; isDownstream: boolean; distance: number; isClosestGene: boolean }) => {
    genes.push(g);
    const { isClosestGene, ...where } = c;
    // The bulk files carry Ensembl's mapping only (the API also lists NCBI's).
    ctx.push({ ...where, gene: g, location, source: 'Ensembl', mappingMethod: 'Ensembl_pipeline', isClosestGene });
  };
  const inter = /^(.+?)\s+-\s+(.+)$/.exec(mapped);
  if (inter) {
    const up = intOrNull(r.get('UPSTREAM_GENE_DISTANCE'));
    const down = intOrNull(r.get('DOWNSTREAM_GENE_DISTANCE'));
    const upId = single ? list(r.get('UPSTREAM_GENE_ID')) : [];
    const downId = single ? list(r.get('DOWNSTREAM_GENE_ID')) : [];
    const upCloser = up !== null && (down === null || up <= down);
    for (const name of list(inter[1] as string).filter((x) => !blank(x))) {
      add(geneDoc(name, upId), { isIntergenic: true, isUpstream: true, isDownstream: false, distance: single ? (up ?? 0) : 0, isClosestGene: upCloser });
    }
    for (const name of list(inter[2] as string).filter((x) => !blank(x))) {
      add(geneDoc(name, downId), { isIntergenic: true, isUpstream: false, isDownstream: true, distance: single ? (down ?? 0) : 0, isClosestGene: !upCloser });
    }
    return { ctx, genes };
  }
  const names = list(mapped).filter((n) => !blank(n));
  const ids = single ? list(r.get('SNP_GENE_IDS')) : [];
  names.forEach((name, i) => {
    const own = ids.length === names.length ? [ids[i] as string] : names.length === 1 ? ids : [];
    add(geneDoc(name, own), { isIntergenic: false, isUpstream: false, isDownstream: false, distance: 0, isClosestGene: i === 0 });
  });
  return { ctx, genes };
}

function loci(r: TsvRow, alleles: string[], interaction: boolean, haplotype: boolean) {
  const freq = numberOrNull(r.get('RISK ALLELE FREQUENCY')) !== null ? r.get('RISK ALLELE FREQUENCY') : null;
  const reported = r.get('REPORTED GENE(S)');
  const authorReportedGenes = reported ? list(reported).map((n) => geneDoc(n, [])) : [];
  const allele = (riskAlleleName: string) => ({ riskAlleleName, riskFrequency: freq, genomeWide: null, limitedList: null });
  if (interaction) {
    return alleles.map((a) => ({ haplotypeSnpCount: null, description: 'SNP x SNP interaction', strongestRiskAlleles: [allele(a)], authorReportedGenes }));
  }
  if (haplotype) {
    return [{ haplotypeSnpCount: alleles.length, description: `${alleles.length}-SNP haplotype`, strongestRiskAlleles: alleles.map(allele), authorReportedGenes }];
  }
  return [{ haplotypeSnpCount: null, description: 'Single variant', strongestRiskAlleles: alleles.slice(0, 1).map(allele), authorReportedGenes }];
}

/** A row of the associations TSV; `id` is the association's id (generated when the file has none). */
export function associationRecord(r: TsvRow, id: number): AssociationRecord | string {
  const acc = r.get('STUDY ACCESSION');
  if (!ACCESSION.test(acc)) return acc ? `malformed STUDY ACCESSION "${acc}"` : 'no STUDY ACCESSION';
  const snpCell = r.get('SNPS');
  const rsIds = perSnp(snpCell).filter((s) => s.length > 0);
  if (rsIds.length === 0) return 'no SNPS';
  const interaction = /\sx\s/.test(snpCell);
  const haplotype = !interaction && snpCell.includes(';');
  const single = rsIds.length === 1;
  const alleles = perSnp(r.get('STRONGEST SNP-RISK ALLELE')).filter((s) => s.length > 0);
  const chroms = perSnp(r.get('CHR_ID'));
  const positions = perSnp(r.get('CHR_POS'));
  const regions = perSnp(r.get('REGION'));
  const classes = perSnp(r.get('CONTEXT'));
  const mapped = single ? [r.get('MAPPED_GENE')] : perSnp(r.get('MAPPED_GENE'));
  const updated = timestamp(isoDate(r.get('DATE ADDED TO CATALOG')));

  const snps: SnpDoc[] = [];
  const genes: GeneDoc[] = [];
  const snpGenes: { gene: string; rsid: string }[] = [];
  rsIds.forEach((rsId, i) => {
    const chrom = chroms[i];
    const location: LocationDoc | null =
      chrom && !blank(chrom) ? { chromosomeName: chrom, chromosomePosition: intOrNull(positions[i] ?? ''), region: { name: blank(regions[i] ?? '') ? null : (regions[i] as string) } } : null;
    const c = contexts(r, mapped[i] ?? '', single, location);
    genes.push(...c.genes);
    for (const g of c.genes) snpGenes.push({ gene: g.geneName, rsid: rsId });
    snps.push({
      rsId,
      merged: intOrNull(r.get('MERGED')) ?? 0,
      functionalClass: blank(classes[i] ?? '') ? null : (classes[i] as string),
      lastUpdateDate: updated,
      locations: location ? [location] : [],
      genomicContexts: c.ctx,
    });
  });

  // Author-reported genes are genes of the catalog too; mapped ones come first so their ids win.
  for (const name of list(r.get('REPORTED GENE(S)'))) if (!blank(name) && name.toLowerCase() !== 'intergenic') genes.push(geneDoc(name, []));

  const p = parsePvalue(r.get('P-VALUE'));
  const effect = parseEffect(r.get('OR or BETA'), r.get('95% CI (TEXT)'));
  const traits = parseTraits(r.get('MAPPED_TRAIT'), r.get('MAPPED_TRAIT_URI'));
  const riskAlleles = alleles.length ? alleles : rsIds.map((s) => `${s}-?`);
  const pubmed = r.get('PUBMEDID');
  const v2 = associationV2({ row: r, acc, pubmed, p, effect, traits, snps, alleles: riskAlleles, interaction, haplotype });
  const doc = {
    riskFrequency: orNull(r.get('RISK ALLELE FREQUENCY')),
    pvalueDescription: orNull(r.get('P-VALUE (TEXT)')),
    pvalueMantissa: p.mantissa,
    pvalueExponent: p.exponent,
    multiSnpHaplotype: haplotype,
    snpInteraction: interaction,
    // Whether a SNP was known before is not in the downloads.
    snpType: null,
    standardError: null,
    range: effect.range,
    description: null,
    orPerCopyNum: effect.orPerCopyNum,
    betaNum: effect.betaNum,
    betaUnit: effect.betaUnit,
    betaDirection: effect.betaDirection,
    loci: loci(r, riskAlleles, interaction, haplotype),
    lastMappingDate: updated,
    lastUpdateDate: updated,
    pvalue: p.pvalue,
    // The spec's flat association fields, beside the real nested ones.
    rsId: rsIds[0] as string,
    strongestAllele: alleles[0] ?? null,
    pvalueText: orNull(r.get('P-VALUE (TEXT)')),
    efoTrait: traits.map((t) => t.label).join(', ') || null,
    mappedLabel: traits.map((t) => t.label),
    studyId: acc,
  };
  return { kind: 'association', id, acc, pubmed, pvalue: p.pvalue, doc, snps, traits, genes, snpGenes, doc2: v2.doc, keys: v2.keys };
}
