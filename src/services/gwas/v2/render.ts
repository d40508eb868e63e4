/**
 * Catalog resources in API v2's shape, from the stored documents: snake_case fields in the order
 * the service writes them, absent values left out (its DTOs are NON_NULL), and `_links` built under
 * the base URL the client used (`base` ends in `/rest/api/v2`).
 */
import { href, templated } from './hal.js';

type Json = Record<string, unknown>;

const seg = encodeURIComponent;

/** Copies the defined, non-null entries, in the order given. */
export function compact(entries: [string, unknown][]): Json {
  const out: Json = {};
  for (const [k, v] of entries) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** The summary-statistics folder of a study: `.../GCST000001-GCST001000/GCST000028`. */
export function summaryStatsFolder(acc: string): string {
  const n = Number(acc.replace(/^GCST/, ''));
  const lo = Math.floor((n - 1) / 1000) * 1000 + 1;
  const hi = (Math.floor((n - 1) / 1000) + 1) * 1000;
  const pad = (v: number) => `GCST${String(v).padStart(6, '0')}`;
  return `http://ftp.ebi.ac.uk/pub/databases/gwas/summary_statistics/${pad(lo)}-${pad(hi)}/${acc}`;
}

/** The service's `platforms` text: manufacturers sorted, then `[qualifier count]`, then `(imputed)`. */
function platformText(doc: Json): string {
  const makers = arr(doc.platforms)
    .map((p) => String(p.manufacturer))
    .sort();
  let text = `${makers.length ? makers.join(',') : 'NR'} [`;
  if (doc.qualifier) text += `${String(doc.qualifier)} `;
  text += doc.snpCount !== null && doc.snpCount !== undefined ? `${String(doc.snpCount)}]` : 'NR]';
  if (doc.imputed) text += ' (imputed)';
  return text;
}

/**
 * An ancestry as a study lists it: `2931 European (Finland, Sweden)`. The service's own text, with
 * its quirk kept: without countries of recruitment it ends `NR)` with no opening bracket.
 */
function ancestryText(a: Json): string {
  const n = a.numberOfIndividuals ?? 'NA';
  const groups = arr(a.ancestralGroups).map((g) => String(g.ancestralGroup));
  const countries = arr(a.countryOfRecruitment).map((c) => String(c.countryName));
  return `${String(n)} ${groups.length ? groups.join(',') : 'NR'}${countries.length ? ` (${countries.join(', ')}` : 'NR'})`;
}

function ancestryTexts(ancestries: Json[], stage: string): string[] {
  return [...new Set(ancestries.filter((a) => a.type === stage).map(ancestryText))];
}

export function studyHref(base: string, acc: string): string {
  return `${base}/studies/${seg(acc)}`;
}

/** A study: its v1 document, its v2 parts (traits, background traits, cohorts) and its ancestries. */
export function renderStudy(doc: Json, parts: Json, ancestries: Json[], base: string): Json {
  const acc = String(doc.accessionId);
  const pubmed = String((doc.publicationInfo as Json | undefined)?.pubmedId ?? '');
  const self = studyHref(base, acc);
  return {
    ...compact([
      ['initial_sample_size', doc.initialSampleSize],
      ['replication_sample_size', doc.replicationSampleSize],
      ['gxe', doc.gxe],
      ['gxg', doc.gxg],
      ['snp_count', doc.snpCount],
      ['qualifier', doc.qualifier],
      ['imputed', doc.imputed],
      ['pooled', doc.pooled],
      ['accession_id', acc],
      ['full_summary_stats_available', doc.fullPvalueSet],
      ['user_requested', doc.userRequested],
      ['pubmed_id', /^\d{1,9}$/.test(pubmed) ? Number(pubmed) : null],
      ['platforms', platformText(doc)],
      ['disease_trait', (doc.diseaseTrait as Json | undefined)?.trait],
      ['genotyping_technologies', [...new Set(arr(doc.genotypingTechnologies).map((g) => String(g.genotypingTechnology)))]],
      ['efo_traits', parts.efo ?? []],
      ['discovery_ancestry', ancestryTexts(ancestries, 'initial')],
      ['replication_ancestry', ancestryTexts(ancestries, 'replication')],
      ['full_summary_stats', doc.fullPvalueSet ? summaryStatsFolder(acc) : 'NA'],
      ['bg_efo_traits', parts.bg ?? []],
      ['cohort', parts.cohort],
      ['array_manufacturer', arr(doc.platforms).map((p) => String(p.manufacturer))],
    ]),
    _links: { self: href(self), ancestries: templated(`${self}/ancestries{?sort,direction}`) },
  };
}

function country(c: Json): Json {
  return compact([
    ['major_area', c.majorArea],
    ['region', c.region],
    ['country_name', c.countryName],
  ]);
}

export function renderAncestry(id: number, acc: string, a: Json, base: string): Json {
  return {
    ...compact([
      ['type', a.type],
      ['number_of_individuals', a.numberOfIndividuals],
      ['ancestral_groups', arr(a.ancestralGroups).map((g) => ({ ancestral_group: g.ancestralGroup }))],
      ['country_of_origin', arr(a.countryOfOrigin).map(country)],
      ['country_of_recruitment', arr(a.countryOfRecruitment).map(country)],
    ]),
    _links: { self: href(`${studyHref(base, acc)}/ancestries/${id}`) },
  };
}

export function snpHref(base: string, rsId: string): string {
  return `${base}/single-nucleotide-polymorphisms/${seg(rsId)}`;
}

export function associationHref(base: string, id: number | string): string {
  return `${base}/associations/${id}`;
}

/** An association: its v2 document with its id, its study's background traits and its links. */
export function renderAssociation(id: number, doc2: Json, bg: unknown, base: string): Json {
  const out: Json = { association_id: id };
  for (const [k, v] of Object.entries(doc2)) {
    if (k === 'pubmed_id') out.bg_efo_traits = bg ?? [];
    out[k] = v;
  }
  if (!('bg_efo_traits' in out)) out.bg_efo_traits = bg ?? [];
  const self = associationHref(base, id);
  const snps = [...new Set(arr(doc2.snp_allele).map((a) => String(a.rs_id)))].map((rs) => href(snpHref(base, rs)));
  const links: Json = { self: href(self), loci: href(`${self}/loci`) };
  if (snps.length) links.snp = snps.length === 1 ? snps[0] : snps;
  out._links = links;
  return out;
}

export function renderGeneBody(g: Json): Json {
  return compact([
    ['gene_name', g.geneName],
    ['ensembl_gene_ids', arr(g.ensemblGeneIds).map((e) => String(e.ensemblGeneId))],
    ['entrez_gene_ids', arr(g.entrezGeneIds).map((e) => String(e.entrezGeneId))],
  ]);
}

export function renderGene(g: Json, base: string): Json {
  return { ...renderGeneBody(g), _links: { self: href(`${base}/genes/${seg(String(g.geneName))}`) } };
}

/** Loci of an association, numbered 1, 2... within it (the downloads carry no locus ids). */
export function renderLocus(associationId: number, index: number, l: Json, base: string): Json {
  return {
    ...compact([
      ['haplotype_snp_count', l.haplotypeSnpCount],
      ['description', l.description],
      [
        'strongest_risk_alleles',
        arr(l.strongestRiskAlleles).map((a) =>
          compact([
            ['risk_allele_name', a.riskAlleleName],
            ['risk_frequency', a.riskFrequency],
            ['genome_wide', a.genomeWide],
            ['limited_list', a.limitedList],
          ]),
        ),
      ],
      ['author_reported_genes', arr(l.authorReportedGenes).map(renderGeneBody)],
    ]),
    _links: { self: href(`${associationHref(base, associationId)}/loci/${index}`) },
  };
}

function location(l: Json | null | undefined): Json | undefined {
  if (!l) return undefined;
  const region = l.region as Json | null | undefined;
  return compact([
    ['chromosome_name', l.chromosomeName],
    ['chromosome_position', l.chromosomePosition],
    ['region', region ? compact([['name', region.name]]) : undefined],
  ]);
}

export function renderSnp(doc: Json, base: string): Json {
  const rs = String(doc.rsId);
  const self = snpHref(base, rs);
  return {
    ...compact([
      ['rs_id', rs],
      ['merged', doc.merged],
      ['functional_class', doc.functionalClass],
      ['last_update_date', doc.lastUpdateDate],
      ['locations', arr(doc.locations).map(location)],
      ['mapped_genes', arr(doc.genomicContexts).map((g) => String((g.gene as Json).geneName))],
    ]),
    _links: { self: href(self), genomic_contexts: templated(`${self}/genomic-contexts{?sort,direction}`) },
  };
}

/** A genomic context of a SNP, numbered 1, 2... within the SNP. */
export function renderContext(rs: string, index: number, g: Json, base: string): Json {
  return {
    ...compact([
      ['is_intergenic', g.isIntergenic],
      ['is_upstream', g.isUpstream],
      ['is_downstream', g.isDownstream],
      ['distance', g.distance],
      ['gene', g.gene ? renderGeneBody(g.gene as Json) : undefined],
      ['location', location(g.location as Json | null)],
      ['source', g.source],
      ['mapping_method', g.mappingMethod],
      ['is_closest_gene', g.isClosestGene],
    ]),
    _links: { self: href(`${snpHref(base, rs)}/genomic-contexts/${index}`) },
  };
}

export function renderTrait(doc: Json, base: string): Json {
  return {
    ...compact([
      ['efo_trait', doc.trait],
      ['uri', doc.uri],
      ['efo_id', doc.shortForm],
    ]),
    _links: { self: href(`${base}/efo-traits/${seg(String(doc.shortForm))}`) },
  };
}

/** A publication. The downloads name its first author only: `authors` is empty, not guessed. */
export function renderPublication(doc: Json, base: string): Json {
  const author = (doc.author as Json | undefined)?.fullname;
  return {
    ...compact([
      ['pubmed_id', doc.pubmedId],
      ['publication_date', doc.publicationDate],
      ['journal', doc.publication],
      ['title', doc.title],
      ['authors', []],
      ['first_author', author ? { full_name: author } : undefined],
    ]),
    _links: { self: href(`${base}/publications/${seg(String(doc.pubmedId))}`) },
  };
}
