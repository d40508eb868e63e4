/**
 * Every path of the catalog interface and the operation answering it: the spec's table, plus the
 * real service's other finders and related-resource links that its resources link to.
 */
import type { ServiceContext } from '../../types.js';
import { fullList, pagedList, requireOne, root, searchIndex, single, associationId, type CatalogCall } from './handlers.js';
import { required, requiredInt } from './params.js';
import { by } from './queries.js';

type Json = Record<string, unknown>;
export type Operation = (ctx: ServiceContext, call: CatalogCall) => Promise<Json> | Json;

const P = (c: CatalogCall, name: string) => c.params[name] as string;

const STUDY_FINDERS = {
  findByPublicationIdPubmedId: ['pubmedId', 'page', 'size', 'sort'],
  findByDiseaseTrait: ['diseaseTrait', 'page', 'size', 'sort'],
  findByEfoTrait: ['efoTrait', 'page', 'size', 'sort'],
  findByEfoUri: ['uri', 'page', 'size', 'sort'],
  findByAccessionId: ['accessionId'],
};
const ASSOCIATION_FINDERS = { findByPubmedId: ['pubmedId', 'projection'] };
const SNP_FINDERS = {
  findByRsId: ['rsId'],
  findByChromBpLocationRange: ['chrom', 'bpStart', 'bpEnd', 'page', 'size', 'sort'],
  findByGene: ['geneName', 'page', 'size', 'sort'],
  findByPubmedId: ['pubmedId', 'page', 'size', 'sort'],
  findByEfoTrait: ['efoTrait'],
};
const TRAIT_FINDERS = {
  findByEfoUri: ['uri', 'page', 'size', 'sort'],
  findByEfoTrait: ['trait', 'page', 'size', 'sort'],
  findByTraitIgnoreCase: ['trait', 'page', 'size', 'sort'],
  findByPubmedId: ['pubmedId', 'page', 'size', 'sort'],
  findByShortForm: ['shortForm'],
};
const PUBLICATION_FINDERS = { findByPubmedId: ['pubmedId'] };
const GENE_FINDERS = { findByGeneName: ['geneName', 'page', 'size', 'sort'] };

const finder = { finder: true };

export const CATALOG_OPERATIONS: Record<string, Operation> = {
  '': (_ctx, c) => root(c),

  // Studies
  '/studies': (ctx, c) => pagedList(ctx, c, 'studies', undefined, { search: true }),
  '/studies/search': (_ctx, c) => searchIndex(c, 'studies', STUDY_FINDERS),
  '/studies/search/findByPublicationIdPubmedId': (ctx, c) => pagedList(ctx, c, 'studies', by.studyPubmed(required(c.query, 'pubmedId', 'a PubMed id, e.g. 19430480')), finder),
  '/studies/search/findByDiseaseTrait': (ctx, c) => pagedList(ctx, c, 'studies', by.studyDiseaseTrait(required(c.query, 'diseaseTrait', 'a reported trait, e.g. Type 1 diabetes')), finder),
  '/studies/search/findByEfoTrait': (ctx, c) => pagedList(ctx, c, 'studies', by.studiesOfTraitLabel(required(c.query, 'efoTrait', 'an EFO trait label, e.g. type 1 diabetes mellitus')), finder),
  '/studies/search/findByEfoUri': (ctx, c) => pagedList(ctx, c, 'studies', by.studiesOfTraitUri(required(c.query, 'uri', 'an EFO term URI, e.g. http://www.ebi.ac.uk/efo/EFO_0001359')), finder),
  '/studies/search/findByAccessionId': (ctx, c) => {
    const acc = required(c.query, 'accessionId', 'a study accession, e.g. GCST000392');
    return single(ctx, c, 'studies', by.studyAcc(acc), `Study ${acc}`);
  },
  '/studies/:accessionId': (ctx, c) => single(ctx, c, 'studies', by.studyAcc(P(c, 'accessionId')), `Study ${P(c, 'accessionId')}`),
  '/studies/:accessionId/associations': async (ctx, c) => {
    await requireOne(ctx, 'studies', by.studyAcc(P(c, 'accessionId')), `Study ${P(c, 'accessionId')}`);
    return fullList(ctx, c, 'associations', by.associationsOfStudy(P(c, 'accessionId')));
  },
  '/studies/:accessionId/snps': async (ctx, c) => {
    await requireOne(ctx, 'studies', by.studyAcc(P(c, 'accessionId')), `Study ${P(c, 'accessionId')}`);
    return fullList(ctx, c, 'snps', by.snpsOfStudy(P(c, 'accessionId')));
  },
  '/studies/:accessionId/efoTraits': async (ctx, c) => {
    await requireOne(ctx, 'studies', by.studyAcc(P(c, 'accessionId')), `Study ${P(c, 'accessionId')}`);
    return fullList(ctx, c, 'efoTraits', by.traitsOfStudy(P(c, 'accessionId')));
  },

  // Associations
  '/associations': (ctx, c) => pagedList(ctx, c, 'associations', undefined, { search: true }),
  '/associations/search': (_ctx, c) => searchIndex(c, 'associations', ASSOCIATION_FINDERS),
  '/associations/search/findByPubmedId': (ctx, c) => fullList(ctx, c, 'associations', by.associationsOfPubmed(required(c.query, 'pubmedId', 'a PubMed id, e.g. 19430480')), finder),
  '/associations/:associationId': (ctx, c) => {
    const id = associationId(P(c, 'associationId'));
    return single(ctx, c, 'associations', by.associationId(id), `Association ${id}`);
  },
  '/associations/:associationId/study': async (ctx, c) => {
    const id = associationId(P(c, 'associationId'));
    const a = await requireOne(ctx, 'associations', by.associationId(id), `Association ${id}`);
    return single(ctx, c, 'studies', by.studyAcc(String(a.doc.studyId)), `Study of association ${id}`);
  },
  '/associations/:associationId/snps': async (ctx, c) => {
    const id = associationId(P(c, 'associationId'));
    await requireOne(ctx, 'associations', by.associationId(id), `Association ${id}`);
    return fullList(ctx, c, 'snps', by.snpsOfAssociation(id));
  },
  '/associations/:associationId/efoTraits': async (ctx, c) => {
    const id = associationId(P(c, 'associationId'));
    await requireOne(ctx, 'associations', by.associationId(id), `Association ${id}`);
    return fullList(ctx, c, 'efoTraits', by.traitsOfAssociation(id));
  },

  // SNPs
  '/singleNucleotidePolymorphisms': (ctx, c) => pagedList(ctx, c, 'snps', undefined, { search: true }),
  '/singleNucleotidePolymorphisms/search': (_ctx, c) => searchIndex(c, 'snps', SNP_FINDERS),
  '/singleNucleotidePolymorphisms/search/findByRsId': (ctx, c) => {
    const rs = required(c.query, 'rsId', 'a variant id, e.g. rs7903146');
    return single(ctx, c, 'snps', by.snpRsid(rs), `SNP ${rs}`);
  },
  '/singleNucleotidePolymorphisms/search/findByChromBpLocationRange': (ctx, c) => {
    const chrom = required(c.query, 'chrom', 'a chromosome name, e.g. 10 or X');
    const start = requiredInt(c.query, 'bpStart', 'a base-pair position, a whole number');
    const end = requiredInt(c.query, 'bpEnd', 'a base-pair position, a whole number');
    return pagedList(ctx, c, 'snps', by.snpsInRange(chrom, start, end), finder);
  },
  '/singleNucleotidePolymorphisms/search/findByGene': (ctx, c) => pagedList(ctx, c, 'snps', by.snpsOfGene(required(c.query, 'geneName', 'a gene symbol, e.g. TCF7L2')), finder),
  '/singleNucleotidePolymorphisms/search/findByPubmedId': (ctx, c) => pagedList(ctx, c, 'snps', by.snpsOfPubmed(required(c.query, 'pubmedId', 'a PubMed id, e.g. 19430480')), finder),
  '/singleNucleotidePolymorphisms/search/findByEfoTrait': (ctx, c) =>
    fullList(ctx, c, 'snps', by.snpsOfTraitLabel(required(c.query, 'efoTrait', 'an EFO trait label, e.g. type 2 diabetes mellitus')), finder),
  '/singleNucleotidePolymorphisms/:rsId': (ctx, c) => single(ctx, c, 'snps', by.snpRsid(P(c, 'rsId')), `SNP ${P(c, 'rsId')}`),
  '/singleNucleotidePolymorphisms/:rsId/associations': async (ctx, c) => {
    await requireOne(ctx, 'snps', by.snpRsid(P(c, 'rsId')), `SNP ${P(c, 'rsId')}`);
    return pagedList(ctx, c, 'associations', by.associationsOfSnp(P(c, 'rsId')));
  },
  '/singleNucleotidePolymorphisms/:rsId/studies': async (ctx, c) => {
    await requireOne(ctx, 'snps', by.snpRsid(P(c, 'rsId')), `SNP ${P(c, 'rsId')}`);
    return fullList(ctx, c, 'studies', by.studiesOfSnp(P(c, 'rsId')));
  },

  // EFO traits
  '/efoTraits': (ctx, c) => pagedList(ctx, c, 'efoTraits', undefined, { search: true }),
  '/efoTraits/search': (_ctx, c) => searchIndex(c, 'efoTraits', TRAIT_FINDERS),
  '/efoTraits/search/findByEfoUri': (ctx, c) => pagedList(ctx, c, 'efoTraits', by.traitUri(required(c.query, 'uri', 'an EFO term URI, e.g. http://www.ebi.ac.uk/efo/EFO_0001359')), finder),
  '/efoTraits/search/findByEfoTrait': (ctx, c) => pagedList(ctx, c, 'efoTraits', by.traitLabel(required(c.query, 'trait', 'an EFO trait label')), finder),
  '/efoTraits/search/findByTraitIgnoreCase': (ctx, c) => pagedList(ctx, c, 'efoTraits', by.traitLabel(required(c.query, 'trait', 'an EFO trait label')), finder),
  '/efoTraits/search/findByPubmedId': (ctx, c) => pagedList(ctx, c, 'efoTraits', by.traitsOfPubmed(required(c.query, 'pubmedId', 'a PubMed id, e.g. 19430480')), finder),
  '/efoTraits/search/findByShortForm': (ctx, c) => {
    const sf = required(c.query, 'shortForm', 'an EFO short form, e.g. EFO_0001359');
    return single(ctx, c, 'efoTraits', by.traitShortForm(sf), `EFO trait ${sf}`);
  },
  '/efoTraits/:efoId': (ctx, c) => single(ctx, c, 'efoTraits', by.traitShortForm(P(c, 'efoId')), `EFO trait ${P(c, 'efoId')}`),
  '/efoTraits/:efoId/associations': async (ctx, c) => {
    await requireOne(ctx, 'efoTraits', by.traitShortForm(P(c, 'efoId')), `EFO trait ${P(c, 'efoId')}`);
    return pagedList(ctx, c, 'associations', by.associationsOfTrait(P(c, 'efoId')));
  },
  '/efoTraits/:efoId/studies': async (ctx, c) => {
    await requireOne(ctx, 'efoTraits', by.traitShortForm(P(c, 'efoId')), `EFO trait ${P(c, 'efoId')}`);
    return fullList(ctx, c, 'studies', by.studiesOfTrait(P(c, 'efoId')));
  },

  // Publications
  '/publications': (ctx, c) => pagedList(ctx, c, 'publications', undefined, { search: true }),
  '/publications/search': (_ctx, c) => searchIndex(c, 'publications', PUBLICATION_FINDERS),
  '/publications/search/findByPubmedId': (ctx, c) => {
    const pm = required(c.query, 'pubmedId', 'a PubMed id, e.g. 19430480');
    return single(ctx, c, 'publications', by.publication(pm), `Publication ${pm}`);
  },
  '/publications/:publicationId': (ctx, c) => single(ctx, c, 'publications', by.publication(P(c, 'publicationId')), `Publication ${P(c, 'publicationId')}`),
  '/publications/:publicationId/studies': async (ctx, c) => {
    await requireOne(ctx, 'publications', by.publication(P(c, 'publicationId')), `Publication ${P(c, 'publicationId')}`);
    return fullList(ctx, c, 'studies', by.studyPubmed(P(c, 'publicationId')));
  },

  // Genes
  '/genes': (ctx, c) => pagedList(ctx, c, 'genes', undefined, { search: true }),
  '/genes/search': (_ctx, c) => searchIndex(c, 'genes', GENE_FINDERS),
  '/genes/search/findByGeneName': (ctx, c) => pagedList(ctx, c, 'genes', by.geneName(required(c.query, 'geneName', 'a gene symbol, e.g. TCF7L2')), finder),
  '/genes/:geneId': (ctx, c) => single(ctx, c, 'genes', by.geneName(P(c, 'geneId')), `Gene ${P(c, 'geneId')}`),
  '/genes/:geneId/snps': async (ctx, c) => {
    await requireOne(ctx, 'genes', by.geneName(P(c, 'geneId')), `Gene ${P(c, 'geneId')}`);
    return pagedList(ctx, c, 'snps', by.snpsOfGene(P(c, 'geneId')));
  },
};
