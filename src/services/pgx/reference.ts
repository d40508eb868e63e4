/**
 * The pharmacogenomics API's operations described for biomirror's reference page (PharmGKB
 * publishes no OpenAPI document of its API): the interface's paths and the real service's
 * `/v1/data/...` forms, with the parameters params.ts reads and examples from the demo data.
 */
import type { ApiReference, OperationDoc, ParamDoc } from '../types.js';
import { CHROMOSOMES, CPIC_LEVELS, EVIDENCE_LEVELS, GUIDELINE_SOURCES, LABEL_SOURCES } from './enums.js';

const JSON_ONLY = ['application/json'];
const q = (name: string, description: string, extra: Partial<ParamDoc> = {}): ParamDoc => ({ name, in: 'query', description, ...extra });
const id = (name: string, description: string, example: string): ParamDoc => ({ name, in: 'path', description, example });

const gene = q('gene', 'Gene symbol');
const drug = q('drug', 'Drug name (generic or trade) or PharmGKB accession');

/** An operation of the interface's paths: bare objects and arrays. */
const op = (path: string, summary: string, params: ParamDoc[]): OperationDoc => ({ path: `/v1${path}`, tag: 'Resources', summary, params, answers: JSON_ONLY });

/** An operation of the real service's `/v1/data/...` paths: `{"data": ..., "status": "success"}`, a search without results a 404. */
const data = (path: string, summary: string, params: ParamDoc[]): OperationDoc => ({ path: `/v1/data${path}`, tag: 'Data (PharmGKB paths)', summary, params, answers: JSON_ONLY });

const relatedGene = q('relatedGenes.symbol', 'Related gene symbol');
const relatedDrug = q('relatedChemicals.name', 'Related chemical name (or `relatedChemicals.accessionId`)');

export const PGX_REFERENCE: ApiReference = {
  description:
    'The pharmacogenomics API (PharmGKB / ClinPGx v1): genes, chemicals, gene-drug pairs, guidelines, alleles, variants, clinical annotations, drug labels and pathways. Enumerated values are matched without regard to case. The demo holds CYP2D6, CYP2C9, CYP2C19, VKORC1, TPMT and their drugs (codeine, warfarin, clopidogrel, ...).',
  tags: { Resources: "The interface's paths: objects and arrays", 'Data (PharmGKB paths)': "The real service's /v1/data paths, in its envelope" },
  operations: [
    op('/gene/{gene_symbol}', 'A gene by symbol or PharmGKB accession', [id('gene_symbol', 'Gene symbol or accession', 'CYP2D6')]),
    op('/gene', 'Search genes by symbol or name', [q('q', 'Part of a symbol, name or alias', { example: 'CYP2C' })]),
    op('/chemical/{drug_id}', 'A chemical by PharmGKB accession or name', [id('drug_id', 'Accession or name', 'PA449088')]),
    op('/chemical', 'Search chemicals by name', [q('name', 'Generic or trade name', { example: 'warfarin' })]),
    op('/geneDrugPair', 'Gene-drug pairs with their CPIC level', [gene, { ...drug, example: 'warfarin' }, q('cpicLevel', 'CPIC level', { enum: CPIC_LEVELS })]),
    op('/guideline', 'Dosing guidelines', [q('source', 'Guideline body', { enum: GUIDELINE_SOURCES, example: 'CPIC' }), gene, drug]),
    op('/guideline/{guideline_id}', 'A dosing guideline', [id('guideline_id', 'Guideline accession', 'PA990010001')]),
    op('/allele', 'The star alleles of a gene', [q('gene', 'Gene symbol', { required: true, example: 'CYP2D6' })]),
    op('/allele/{allele_name}', 'An allele by name', [id('allele_name', 'Allele name, with its gene (`CYP2D6*1`) or with `gene`', 'CYP2D6*1'), q('gene', 'Gene of a bare allele name (`*3`)')]),
    op('/variant/{rsid}', 'A variant by rsID or accession', [id('rsid', 'dbSNP rsID or accession', 'rs4244285')]),
    op('/variant', 'Variants by location', [q('chromosome', 'Chromosome', { enum: CHROMOSOMES, example: '10' }), q('position', 'GRCh38 position', { type: 'integer' })]),
    op('/clinicalAnnotation', 'Clinical annotations', [
      { ...gene, example: 'CYP2C19' },
      drug,
      q('evidenceLevel', 'Level of evidence', { enum: EVIDENCE_LEVELS }),
      q('phenotype', 'Part of a phenotype'),
    ]),
    op('/clinicalAnnotation/{id}', 'A clinical annotation', [id('id', 'Clinical annotation id', '990000004')]),
    op('/drugLabel', 'Drug labels of a drug', [{ ...drug, required: true, example: 'codeine' }, q('source', 'Regulatory body', { enum: LABEL_SOURCES })]),
    op('/drugLabel/{id}', 'A drug label', [id('id', 'Label accession', 'PA990020006')]),
    op('/pathway/{pathway_id}', 'A pathway', [id('pathway_id', 'Pathway accession', 'PA990030002')]),
    op('/pathway', 'Pathways', [gene, { ...drug, example: 'simvastatin' }]),
    data('/gene', 'Genes, or the gene of a symbol', [q('symbol', 'Gene symbol', { example: 'CYP2C9' })]),
    data('/gene/{id}', 'A gene', [id('id', 'Gene accession or symbol', 'PA126')]),
    data('/chemical', 'Chemicals by name', [q('name', 'Generic or trade name', { example: 'Zocor' })]),
    data('/chemical/{id}', 'A chemical', [id('id', 'Chemical accession', 'PA451363')]),
    data('/variant', 'Variants, or the variant of an rsID', [q('symbol', 'dbSNP rsID (also `name`)', { example: 'rs1057910' })]),
    data('/variant/{id}', 'A variant', [id('id', 'Variant accession or rsID', 'PA990040005')]),
    data('/clinicalAnnotation', 'Clinical annotations', [
      q('location.genes.symbol', 'Gene symbol', { example: 'CYP2C9' }),
      { ...relatedDrug, example: 'warfarin' },
      q('levelOfEvidence.term', 'Level of evidence', { enum: EVIDENCE_LEVELS }),
      q('location.fingerprint', 'Variant rsID'),
    ]),
    data('/clinicalAnnotation/{id}', 'A clinical annotation', [id('id', 'Clinical annotation id', '990000006')]),
    data('/guidelineAnnotation', 'Guideline annotations', [q('source', 'Guideline body', { enum: GUIDELINE_SOURCES, example: 'CPIC' }), { ...relatedGene, example: 'CYP2C19' }, relatedDrug]),
    data('/guidelineAnnotation/{id}', 'A guideline annotation', [id('id', 'Guideline accession', 'PA990010002')]),
    data('/label', 'Drug label annotations', [q('source', 'Regulatory body', { enum: LABEL_SOURCES, example: 'FDA' }), { ...relatedGene, example: 'CYP2D6' }, relatedDrug]),
    data('/label/{id}', 'A drug label annotation', [id('id', 'Label accession', 'PA990020006')]),
    data('/pathway', 'Pathways', [relatedGene, { ...relatedDrug, example: 'warfarin' }]),
    data('/pathway/{id}', 'A pathway', [id('id', 'Pathway accession', 'PA990030003')]),
  ],
};
