/**
 * PUG REST and PUG View described for biomirror's reference page (PubChem publishes no OpenAPI
 * document): the URL grammar request.ts reads, the operations and outputs of the dispatch tables
 * (so the enumerations are what this server answers), the options of options.ts, and examples
 * from the demo compounds (aspirin, CID 2244), substances and assays.
 */
import type { ApiReference, OperationDoc, ParamDoc } from '../types.js';
import { PROPERTY_NAMES } from './chem/properties.js';
import { ASSAY_OPS } from './ops/assay.js';
import { COMPOUND_OPS } from './ops/compound.js';
import { SUBSTANCE_OPS } from './ops/substance.js';
import { CONTENT_TYPES, type Output } from './output/formats.js';
import { XREF_TYPES } from './request.js';

type Table = Record<string, { outputs: Output[] }>;

/** The operations of a table other than those given, and the outputs any of them writes. */
function opsOf(table: Table, without: string[]): { ops: string[]; outputs: Output[] } {
  const ops = Object.keys(table).filter((o) => !without.includes(o));
  return { ops, outputs: [...new Set(ops.flatMap((o) => table[o]?.outputs ?? []))] };
}

const output = (outputs: readonly Output[], example: Output = 'JSON'): ParamDoc => ({ name: 'output', in: 'path', description: 'Output format', enum: outputs, example });
const answers = (outputs: readonly Output[]) => [...new Set(outputs.map((o) => CONTENT_TYPES[o]))];
const identifiers = (description: string, example: string): ParamDoc => ({ name: 'identifiers', in: 'path', description, example });
const namespace = (names: string[], example: string): ParamDoc => ({ name: 'namespace', in: 'path', description: 'What the identifiers are', enum: names, example });
const linkType = (name: string, choices: string[]): ParamDoc => ({ name, in: 'query', description: 'Which links are followed', enum: choices });
const COMPOUND_NAMESPACES = ['cid', 'name', 'smiles', 'inchikey', 'inchi', 'formula', 'fastformula'];
const SEARCHES = ['fastidentity', 'fastsimilarity_2d', 'fastsubstructure', 'fastsuperstructure', 'identity', 'similarity', 'substructure', 'superstructure'];
const REST = 'PUG REST';

const op = (path: string, summary: string, params: ParamDoc[], outs: readonly Output[], description?: string): OperationDoc => ({
  path: `/rest/pug${path}`,
  tag: REST,
  summary,
  ...(description ? { description } : {}),
  params,
  answers: answers(outs),
});

const compoundOther = opsOf(COMPOUND_OPS, ['record', 'property', 'xrefs']);
const substanceOther = opsOf(SUBSTANCE_OPS, ['record']);
const assayOps = opsOf(ASSAY_OPS, []);
const recordOptions: ParamDoc[] = [
  { name: 'record_type', in: 'query', description: '2D or 3D coordinates (3D computed where no conformer is loaded)', enum: ['2d', '3d'], default: '2d' },
  { name: 'image_size', in: 'query', description: 'PNG size: small, large or WIDTHxHEIGHT', example: 'large' },
];

export const PUBCHEM_REFERENCE: ApiReference = {
  description:
    "PubChem PUG REST (`/rest/pug/<domain>/<namespace>/<identifiers>/<operation>/<output>`) and PUG View (`/rest/pug_view/data/compound/<cid>/<output>`), served from PubChem's bulk files. Identifiers may also come as a query or form parameter named after the namespace (POST). The demo holds 219 compounds (aspirin is CID 2244), their substances and four assays (AID 9000001 to 9000004).",
  tags: { [REST]: 'pubchem.ncbi.nlm.nih.gov/rest/pug', 'PUG View': 'pubchem.ncbi.nlm.nih.gov/rest/pug_view' },
  operations: [
    op(
      '/compound/{namespace}/{identifiers}/{output}',
      'Compound records',
      [namespace(COMPOUND_NAMESPACES, 'cid'), identifiers('CIDs (comma-separated), a name, SMILES, InChIKey, InChI or formula', '2244'), output(COMPOUND_OPS.record?.outputs ?? []), ...recordOptions],
      COMPOUND_OPS.record?.outputs ?? [],
      'The full record: structure, identifiers and computed properties (SDF and PNG draw it).',
    ),
    op(
      '/compound/{namespace}/{identifiers}/property/{properties}/{output}',
      'Compound properties',
      [
        namespace(COMPOUND_NAMESPACES, 'name'),
        identifiers('CIDs (comma-separated), a name, SMILES, InChIKey, InChI or formula', 'aspirin'),
        { name: 'properties', in: 'path', description: `Comma-separated property names: ${PROPERTY_NAMES.join(', ')}`, example: 'MolecularFormula,MolecularWeight,IsomericSMILES' },
        output(COMPOUND_OPS.property?.outputs ?? []),
      ],
      COMPOUND_OPS.property?.outputs ?? [],
      'A table of the named properties per compound (PropertyTable).',
    ),
    op(
      '/compound/{namespace}/{identifiers}/{operation}/{output}',
      'Compound synonyms, links and descriptions',
      [
        namespace(COMPOUND_NAMESPACES, 'cid'),
        identifiers('CIDs (comma-separated), a name, SMILES, InChIKey, InChI or formula', '2244'),
        { name: 'operation', in: 'path', description: 'What is answered of each compound', enum: compoundOther.ops, example: 'synonyms' },
        output(compoundOther.outputs),
        linkType('cids_type', ['original', 'same_connectivity']),
        linkType('sids_type', ['standardized', 'component', 'all', 'original']),
        linkType('aids_type', ['all', 'active', 'inactive']),
        { name: 'list_return', in: 'query', description: 'Lists grouped by input, flat, or as a ListKey', enum: ['grouped', 'flat', 'listkey'] },
        { name: 'name_type', in: 'query', description: 'Names matched whole or by word (namespace name)', enum: ['complete', 'word'] },
      ],
      compoundOther.outputs,
      'CSV and TXT are written by the operations that have them (assaysummary: CSV; the lists and synonyms: TXT).',
    ),
    op(
      '/compound/{namespace}/{identifiers}/xrefs/{xrefs}/{output}',
      'Compound cross-references',
      [
        namespace(COMPOUND_NAMESPACES, 'cid'),
        identifiers('CIDs (comma-separated), a name, SMILES, InChIKey, InChI or formula', '2244'),
        { name: 'xrefs', in: 'path', description: `Cross-reference types, comma-separated (RN served; ${XREF_TYPES.join(', ')} named)`, example: 'RN' },
        output(COMPOUND_OPS.xrefs?.outputs ?? []),
      ],
      COMPOUND_OPS.xrefs?.outputs ?? [],
    ),
    op(
      '/compound/{search}/{input}/{query}/cids/{output}',
      'Structure search: the CIDs matching a structure',
      [
        { name: 'search', in: 'path', description: 'Search type; the `fast` ones answer at once, the others may answer 202 with a ListKey', enum: SEARCHES, example: 'fastsubstructure' },
        { name: 'input', in: 'path', description: 'How the structure is given', enum: ['smiles', 'smarts', 'inchi', 'cid'], example: 'smiles' },
        { name: 'query', in: 'path', description: 'The structure', example: 'CC(=O)Oc1ccccc1C(=O)O' },
        output(COMPOUND_OPS.cids?.outputs ?? []),
        { name: 'Threshold', in: 'query', type: 'integer', description: 'Tanimoto similarity threshold, percent (similarity)', default: 90 },
        { name: 'MaxRecords', in: 'query', type: 'integer', description: 'At most this many CIDs' },
        { name: 'MaxSeconds', in: 'query', type: 'integer', description: 'Time limit of a search (at most 3600)' },
        {
          name: 'identity_type',
          in: 'query',
          description: 'Identity search: what must be the same',
          enum: ['same_stereo_isotope', 'same_connectivity', 'same_tautomer', 'same_stereo', 'same_isotope', 'nonconflicting_stereo', 'same_isotope_nonconflicting_stereo'],
        },
      ],
      COMPOUND_OPS.cids?.outputs ?? [],
    ),
    op(
      '/compound/{mass}/range/{low}/{high}/cids/{output}',
      'The CIDs of a mass range',
      [
        { name: 'mass', in: 'path', description: 'Which mass', enum: ['molecular_weight', 'exact_mass', 'monoisotopic_mass'], example: 'molecular_weight' },
        { name: 'low', in: 'path', type: 'number', description: 'Lowest mass', example: 180 },
        { name: 'high', in: 'path', type: 'number', description: 'Highest mass', example: 181 },
        output(COMPOUND_OPS.cids?.outputs ?? []),
      ],
      COMPOUND_OPS.cids?.outputs ?? [],
    ),
    op(
      '/substance/{namespace}/{identifiers}/{output}',
      'Substance records',
      [namespace(['sid', 'name'], 'sid'), identifiers('SIDs (comma-separated) or a name', '900000001'), output(SUBSTANCE_OPS.record?.outputs ?? [])],
      SUBSTANCE_OPS.record?.outputs ?? [],
    ),
    op(
      '/substance/{namespace}/{identifiers}/{operation}/{output}',
      'Substance synonyms and links',
      [
        namespace(['sid', 'name'], 'sid'),
        identifiers('SIDs (comma-separated) or a name', '900000001'),
        { name: 'operation', in: 'path', description: 'What is answered of each substance', enum: substanceOther.ops, example: 'cids' },
        output(substanceOther.outputs),
      ],
      substanceOther.outputs,
    ),
    op(
      '/assay/aid/{aids}/{operation}/{output}',
      'Assay descriptions, results and links',
      [
        { name: 'aids', in: 'path', description: 'AIDs, comma-separated', example: '9000001' },
        { name: 'operation', in: 'path', description: 'What is answered of each assay', enum: assayOps.ops, example: 'description' },
        output(assayOps.outputs),
      ],
      assayOps.outputs,
    ),
    op(
      '/sources/{type}/{output}',
      'The depositors of the loaded substances or assays',
      [{ name: 'type', in: 'path', description: 'Substance or assay sources', enum: ['substance', 'assay'], example: 'substance' }, output(['JSON', 'JSONP', 'XML'])],
      ['JSON', 'JSONP', 'XML'],
    ),
    op(
      '/conformers/{conformer_id}/{output}',
      'One 3D conformer',
      [{ name: 'conformer_id', in: 'path', description: 'Conformer id (as `conformers` of a compound lists them)', example: '000000DE00000001' }, output(['SDF', 'JSON', 'JSONP', 'XML'], 'SDF')],
      ['SDF', 'JSON', 'JSONP', 'XML'],
    ),
    {
      path: '/rest/pug_view/data/compound/{cid}/{output}',
      tag: 'PUG View',
      summary: 'The PUG View record of a compound',
      description: 'Sections built from the loaded data (structures, names and identifiers, properties, bioassay results) and the annotations loaded with it.',
      params: [
        { name: 'cid', in: 'path', type: 'integer', description: 'CID', example: 2244 },
        { name: 'output', in: 'path', description: 'Output format', enum: ['JSON', 'XML'], example: 'JSON' },
        { name: 'heading', in: 'query', description: 'Only the sections of this heading (e.g. Computed Properties)' },
      ],
      answers: [CONTENT_TYPES.JSON, CONTENT_TYPES.XML],
    },
  ],
};
