/**
 * The types of PubChem's compound and substance records in NCBI's ASN.1 module NCBI-PCSubstance
 * (pcsubstance.asn, with Date and Object-id from NCBI-General), as far as the records served here
 * use them. Members are listed in
 * the module's order: their position is their context tag in BER. Types the records never hold
 * (rare stereo centres, MMDB sources, publications) are named but not described; a record holding
 * one is refused.
 */
import type { AsnMember, AsnModule, AsnType } from '../../../core/asn1/value.js';

const ELEMENT_SYMBOLS =
  'h he li be b c n o f ne na mg al si p s cl ar k ca sc ti v cr mn fe co ni cu zn ga ge as se br kr rb sr y zr nb mo tc ru rh pd ag cd in sn sb te i xe cs ba la ce pr nd pm sm eu gd tb dy ho er tm yb lu hf ta w re os ir pt au hg tl pb bi po at rn fr ra ac th pa u np pu am cm bk cf es fm md no lr rf db sg bh hs mt ds rg cn nh fl mc lv ts og'.split(
    ' ',
  );

export const ELEMENT_NAMES: Record<number, string> = { ...Object.fromEntries(ELEMENT_SYMBOLS.map((s, i) => [i + 1, s])), 252: 'lp', 253: 'r', 254: 'd', 255: 'a' };
export const BOND_TYPES: Record<number, string> = { 1: 'single', 2: 'double', 3: 'triple', 4: 'quadruple', 5: 'dative', 6: 'complex', 7: 'ionic', 255: 'unknown' };
export const COORD_TYPES: Record<number, string> = {
  1: 'twod',
  2: 'threed',
  3: 'submitted',
  4: 'experimental',
  5: 'computed',
  6: 'standardized',
  7: 'augmented',
  8: 'aligned',
  9: 'compact',
  10: 'units-angstroms',
  11: 'units-nanometers',
  12: 'units-pixel',
  13: 'units-points',
  14: 'units-stdbonds',
  255: 'units-unknown',
};
export const BOND_ANNOTATIONS: Record<number, string> = {
  1: 'crossed',
  2: 'dashed',
  3: 'wavy',
  4: 'dotted',
  5: 'wedge-up',
  6: 'wedge-down',
  7: 'arrow',
  8: 'aromatic',
  9: 'resonance',
  10: 'bold',
  11: 'fischer',
  12: 'closeContact',
  255: 'unknown',
};
export const COMPOUND_TYPES: Record<number, string> = { 0: 'deposited', 1: 'standardized', 2: 'component', 3: 'neutralized', 4: 'mixture', 5: 'tautomer', 6: 'pka-state', 255: 'unknown' };
export const URN_DATATYPES: Record<number, string> = {
  1: 'string',
  2: 'stringlist',
  3: 'int',
  4: 'intvec',
  5: 'uint',
  6: 'uintvec',
  7: 'double',
  8: 'doublevec',
  9: 'bool',
  10: 'boolvec',
  11: 'uint64',
  12: 'binary',
  13: 'url',
  14: 'unicode',
  15: 'date',
  16: 'fingerprint',
  255: 'unknown',
};

const INT: AsnType = { kind: 'integer' };
const STR: AsnType = { kind: 'string' };
const REAL: AsnType = { kind: 'real' };
const ints: AsnType = { kind: 'sequenceOf', of: INT };
const reals: AsnType = { kind: 'sequenceOf', of: REAL };
const seq = (...members: AsnMember[]): AsnType => ({ kind: 'sequence', members });
const m = (name: string, type: AsnMember['type'], optional = false): AsnMember => ({ name, type, optional });
const opt = (name: string, type: AsnMember['type']) => m(name, type, true);
const listOf = (of: AsnMember['type']): AsnType => ({ kind: 'sequenceOf', of });

/** PC-XRefData's alternatives, in the module's order. */
const XREF_ALTERNATIVES: [string, 'int' | 'str'][] = [
  ['regid', 'str'],
  ['rn', 'str'],
  ['mesh', 'str'],
  ['pmid', 'int'],
  ['gi', 'int'],
  ['mmdb', 'int'],
  ['sid', 'int'],
  ['cid', 'int'],
  ['dburl', 'str'],
  ['sburl', 'str'],
  ['asurl', 'str'],
  ['protein-gi', 'int'],
  ['nucleotide-gi', 'int'],
  ['taxonomy', 'int'],
  ['aid', 'int'],
  ['mim', 'int'],
  ['gene', 'int'],
  ['probe', 'int'],
  ['biosystem', 'int'],
  ['geogse', 'int'],
  ['geogsm', 'int'],
  ['patent', 'str'],
];

export const PC_MODULE: AsnModule = {
  'PC-Substances': listOf('PC-Substance'),
  'PC-Substance': seq(
    m('sid', 'PC-ID'),
    m('source', 'PC-Source'),
    opt('pub', listOf('Pub')),
    opt('synonyms', listOf(STR)),
    opt('comment', listOf(STR)),
    opt('xref', listOf('PC-XRefData')),
    opt('compound', 'PC-Compounds'),
  ),
  'PC-ID': seq(m('id', INT), m('version', INT)),
  'PC-Source': { kind: 'choice', alternatives: [m('individual', 'Pub'), m('db', 'PC-DBTracking'), m('mmdb', 'PC-MMDBSource')] },
  'PC-DBTracking': seq(m('name', STR), m('source-id', 'Object-id'), opt('date', 'Date'), opt('description', STR), opt('pub', 'Pub')),
  'PC-XRefData': { kind: 'choice', alternatives: XREF_ALTERNATIVES.map(([n, t]) => m(n, t === 'int' ? INT : STR)) },
  'Object-id': { kind: 'choice', alternatives: [m('id', INT), m('str', STR)] },
  'PC-Compounds': listOf('PC-Compound'),
  'PC-Compound': seq(
    m('id', 'PC-CompoundType'),
    opt('atoms', 'PC-Atoms'),
    opt('bonds', 'PC-Bonds'),
    opt('stereo', listOf('PC-StereoCenter')),
    opt('coords', listOf('PC-Coordinates')),
    opt('charge', INT),
    opt('props', listOf('PC-InfoData')),
    opt('stereogroups', listOf('PC-StereoGroup')),
    opt('count', 'PC-Count'),
    opt('vbalt', 'PC-Compounds'),
  ),
  'PC-CompoundType': seq(opt('type', { kind: 'integer', names: COMPOUND_TYPES }), opt('id', { kind: 'choice', alternatives: [m('cid', INT), m('sid', INT), m('xid', INT)] })),
  'PC-Count': seq(
    ...['heavy-atom', 'atom-chiral', 'atom-chiral-def', 'atom-chiral-undef', 'bond-chiral', 'bond-chiral-def', 'bond-chiral-undef', 'isotope-atom', 'covalent-unit', 'tautomers'].map((n) => m(n, INT)),
  ),
  // Only the two common kinds of stereo centre are described; the others are refused.
  'PC-StereoCenter': {
    kind: 'choice',
    alternatives: [m('tetrahedral', 'PC-StereoTetrahedral'), m('planar', 'PC-StereoPlanar'), ...['squareplanar', 'octahedral', 'bipyramid', 'tshape', 'pentagonal'].map((n) => m(n, `PC-Stereo-${n}`))],
  },
  'PC-StereoTetrahedral': seq(
    ...['center', 'above', 'top', 'bottom', 'below'].map((n) => m(n, INT)),
    opt('parity', { kind: 'integer', names: { 1: 'clockwise', 2: 'counterclockwise', 3: 'any', 255: 'unknown' } }),
    opt('type', { kind: 'integer', names: { 1: 'tetrahedral', 2: 'cumulenic', 3: 'biaryl' } }),
  ),
  'PC-StereoPlanar': seq(
    ...['left', 'ltop', 'lbottom', 'right', 'rtop', 'rbottom'].map((n) => m(n, INT)),
    opt('parity', { kind: 'integer', names: { 1: 'same', 2: 'opposite', 3: 'any', 255: 'unknown' } }),
    opt('type', { kind: 'integer', names: { 1: 'planar', 2: 'cumulenic' } }),
  ),
  'PC-StereoGroup': seq(m('type', { kind: 'integer', names: { 1: 'absolute', 2: 'or', 3: 'and', 255: 'unknown' } }), m('aid', ints)),
  'PC-InfoData': seq(
    m('urn', 'PC-Urn'),
    m('value', {
      kind: 'choice',
      alternatives: [
        m('bval', { kind: 'boolean' }),
        m('bvec', listOf({ kind: 'boolean' })),
        m('ival', INT),
        m('ivec', ints),
        m('fval', REAL),
        m('fvec', reals),
        m('sval', STR),
        m('slist', listOf(STR)),
        m('date', 'Date'),
        m('binary', { kind: 'octets' }),
      ],
    }),
  ),
  'PC-Urn': seq(
    m('label', STR),
    opt('name', STR),
    opt('datatype', { kind: 'integer', names: URN_DATATYPES }),
    ...['parameters', 'implementation', 'version', 'software', 'source', 'release'].map((n) => opt(n, STR)),
  ),
  'PC-Coordinates': seq(
    m('type', listOf({ kind: 'integer', names: COORD_TYPES })),
    m('aid', ints),
    opt('conformers', listOf('PC-Conformer')),
    opt('atomlabels', listOf('PC-AtomString')),
    opt('data', listOf('PC-InfoData')),
  ),
  'PC-Conformer': seq(m('x', reals), m('y', reals), opt('z', reals), opt('style', 'PC-DrawAnnotations'), opt('data', listOf('PC-InfoData'))),
  'PC-DrawAnnotations': seq(m('annotation', listOf({ kind: 'integer', names: BOND_ANNOTATIONS })), m('aid1', ints), m('aid2', ints)),
  'PC-Atoms': seq(
    m('aid', ints),
    m('element', listOf({ kind: 'integer', names: ELEMENT_NAMES })),
    opt('label', listOf('PC-AtomString')),
    opt('isotope', listOf('PC-AtomInt')),
    opt('charge', listOf('PC-AtomInt')),
    opt('radical', listOf('PC-AtomRadical')),
    opt('source', listOf('PC-AtomSource')),
    opt('comment', listOf('PC-AtomString')),
  ),
  'PC-AtomInt': seq(m('aid', INT), m('value', INT)),
  'PC-AtomString': seq(m('aid', INT), m('value', STR)),
  'PC-AtomRadical': seq(
    m('aid', INT),
    m('type', { kind: 'integer', names: { 1: 'singlet', 2: 'doublet', 3: 'triplet', 4: 'quartet', 5: 'quintet', 6: 'hextet', 7: 'heptet', 8: 'octet', 255: 'none' } }),
  ),
  'PC-Bonds': seq(m('aid1', ints), m('aid2', ints), m('order', listOf({ kind: 'integer', names: BOND_TYPES }))),
  Date: { kind: 'choice', alternatives: [m('str', STR), m('std', 'Date-std')] },
  'Date-std': seq(m('year', INT), opt('month', INT), opt('day', INT), opt('season', STR), opt('hour', INT), opt('minute', INT), opt('second', INT)),
};
