/**
 * Catalog resources as the REST API renders them: the stored document plus the `_links` Spring
 * Data REST adds, every href under the base URL the client used (`base` ends in `/rest/api`).
 */
type Json = Record<string, unknown>;

const href = (h: string) => ({ href: h });
const templated = (h: string) => ({ href: `${h}{?projection}`, templated: true });
const seg = encodeURIComponent;

export function studyHref(base: string, acc: string): string {
  return `${base}/studies/${seg(acc)}`;
}
export function snpHref(base: string, rsId: string): string {
  return `${base}/singleNucleotidePolymorphisms/${seg(rsId)}`;
}
export function associationHref(base: string, id: number | string): string {
  return `${base}/associations/${id}`;
}
export function traitHref(base: string, shortForm: string): string {
  return `${base}/efoTraits/${seg(shortForm)}`;
}

export function renderStudy(doc: Json, ancestries: Json[], base: string): Json {
  const self = studyHref(base, doc.accessionId as string);
  return {
    ...doc,
    ancestries,
    _links: {
      self: href(self),
      study: templated(self),
      associationsByStudySummary: href(`${self}/associations?projection=associationByStudy`),
      snps: href(`${self}/snps`),
      efoTraits: href(`${self}/efoTraits`),
      associations: href(`${self}/associations`),
    },
  };
}

/** Loci carry links to their SNPs and back to their association, as the real resources do. */
function linkLoci(loci: unknown, base: string, assocSelf: string): unknown {
  if (!Array.isArray(loci)) return loci;
  return loci.map((l: Json) => ({
    ...l,
    strongestRiskAlleles: ((l.strongestRiskAlleles as Json[] | undefined) ?? []).map((a) => {
      const rs = /^(.*?)-[^-]*$/.exec(String(a.riskAlleleName))?.[1] ?? String(a.riskAlleleName);
      return { ...a, _links: { snp: templated(snpHref(base, rs)) } };
    }),
    _links: { association: templated(assocSelf) },
  }));
}

export interface AssociationExtras {
  snps?: Json[];
  efoTraits?: Json[];
  study?: Json;
}

/**
 * An association; with a projection, the related resources it names are inlined (the projection
 * interfaces leave out the two dates, and keep the rest).
 */
export function renderAssociation(id: number, doc: Json, base: string, extras?: AssociationExtras): Json {
  const self = associationHref(base, id);
  const out: Json = { ...doc, loci: linkLoci(doc.loci, base, self) };
  if (extras) {
    delete out.lastMappingDate;
    delete out.lastUpdateDate;
    if (extras.snps) out.snps = extras.snps;
    if (extras.efoTraits) out.efoTraits = extras.efoTraits;
    if (extras.study) out.study = extras.study;
  }
  out._links = {
    self: href(self),
    association: templated(self),
    snps: href(`${self}/snps`),
    study: href(`${self}/study`),
    efoTraits: href(`${self}/efoTraits`),
  };
  return out;
}

function linkLocation(loc: unknown, snpSelf: string): unknown {
  return loc && typeof loc === 'object' ? { ...(loc as Json), _links: { snps: templated(snpSelf) } } : loc;
}

export function renderSnp(doc: Json, base: string): Json {
  const self = snpHref(base, doc.rsId as string);
  return {
    ...doc,
    locations: ((doc.locations as Json[] | undefined) ?? []).map((l) => linkLocation(l, self)),
    genomicContexts: ((doc.genomicContexts as Json[] | undefined) ?? []).map((g) => ({
      ...g,
      location: linkLocation(g.location, self),
      _links: { snp: templated(self) },
    })),
    _links: {
      self: href(self),
      singleNucleotidePolymorphism: templated(self),
      associationsBySnpSummary: href(`${self}/associations?projection=associationBySnp`),
      studies: href(`${self}/studies`),
      associations: href(`${self}/associations`),
    },
  };
}

export function renderTrait(doc: Json, base: string): Json {
  const self = traitHref(base, doc.shortForm as string);
  return {
    ...doc,
    _links: {
      self: href(self),
      efoTrait: href(self),
      associationsByTraitSummary: href(`${self}/associations?projection=associationByEfoTrait`),
      associations: href(`${self}/associations`),
      studies: href(`${self}/studies`),
    },
  };
}

export function renderGene(doc: Json, base: string): Json {
  const self = `${base}/genes/${seg(doc.geneName as string)}`;
  return { ...doc, _links: { self: href(self), gene: href(self), snps: href(`${self}/snps`) } };
}

export function renderPublication(doc: Json, base: string): Json {
  const self = `${base}/publications/${seg(doc.pubmedId as string)}`;
  return { ...doc, _links: { self: href(self), publication: href(self), studies: href(`${self}/studies`) } };
}
