/**
 * Compound properties: PubChem's names, JSON types and SD tags. MolecularWeight and the masses are
 * strings, as PubChem sends them; counts are integers; XLogP, TPSA, Complexity and 3D values are
 * numbers. A property a compound does not have is left out of its row, as PubChem does.
 */
import type { Computed } from './compute.js';
import { massString, weightString } from './compute.js';

export type PropValue = string | number;
export type Props = Record<string, PropValue>;

/** Every property name accepted in `property/{list}`, as PubChem spells it. */
/** The 3D property names PUG REST serves, in PubChem's order. */
export const PROPERTIES_3D = [
  'Volume3D',
  'XStericQuadrupole3D',
  'YStericQuadrupole3D',
  'ZStericQuadrupole3D',
  'FeatureCount3D',
  'FeatureAcceptorCount3D',
  'FeatureDonorCount3D',
  'FeatureAnionCount3D',
  'FeatureCationCount3D',
  'FeatureRingCount3D',
  'FeatureHydrophobeCount3D',
  'ConformerModelRMSD3D',
  'EffectiveRotorCount3D',
  'ConformerCount3D',
] as const;

export const PROPERTY_NAMES = [
  'MolecularFormula',
  'MolecularWeight',
  'SMILES',
  'ConnectivitySMILES',
  'CanonicalSMILES',
  'IsomericSMILES',
  'InChI',
  'InChIKey',
  'IUPACName',
  'Title',
  'XLogP',
  'ExactMass',
  'MonoisotopicMass',
  'TPSA',
  'Complexity',
  'Charge',
  'HBondDonorCount',
  'HBondAcceptorCount',
  'RotatableBondCount',
  'HeavyAtomCount',
  'IsotopeAtomCount',
  'AtomStereoCount',
  'DefinedAtomStereoCount',
  'UndefinedAtomStereoCount',
  'BondStereoCount',
  'DefinedBondStereoCount',
  'UndefinedBondStereoCount',
  'CovalentUnitCount',
  'PatentCount',
  'PatentFamilyCount',
  'LiteratureCount',
  'AnnotationTypes',
  'AnnotationTypeCount',
  'SourceCategories',
  ...PROPERTIES_3D,
  'Fingerprint2D',
] as const;

const BY_LOWER = new Map(PROPERTY_NAMES.map((n) => [n.toLowerCase(), n] as const));

/** The spec's names for the two SMILES read the values PubChem now files under its newer names. */
const STORED_AS: Record<string, string> = { CanonicalSMILES: 'ConnectivitySMILES', IsomericSMILES: 'SMILES' };

/** The canonical spelling of a property name (PubChem accepts any case), or undefined. */
export function propertyName(given: string): string | undefined {
  return BY_LOWER.get(given.toLowerCase());
}

export function storedName(name: string): string {
  return STORED_AS[name] ?? name;
}

type Kind = 'string' | 'int' | 'number';

/** SD tags of PubChem's Compound files, the property each fills and its JSON type. */
export const SDF_TAGS: readonly { tag: string; prop: string; kind: Kind }[] = [
  { tag: 'PUBCHEM_MOLECULAR_FORMULA', prop: 'MolecularFormula', kind: 'string' },
  { tag: 'PUBCHEM_MOLECULAR_WEIGHT', prop: 'MolecularWeight', kind: 'string' },
  { tag: 'PUBCHEM_SMILES', prop: 'SMILES', kind: 'string' },
  { tag: 'PUBCHEM_OPENEYE_ISO_SMILES', prop: 'SMILES', kind: 'string' },
  { tag: 'PUBCHEM_CONNECTIVITY_SMILES', prop: 'ConnectivitySMILES', kind: 'string' },
  { tag: 'PUBCHEM_OPENEYE_CAN_SMILES', prop: 'ConnectivitySMILES', kind: 'string' },
  { tag: 'PUBCHEM_IUPAC_INCHI', prop: 'InChI', kind: 'string' },
  { tag: 'PUBCHEM_IUPAC_INCHIKEY', prop: 'InChIKey', kind: 'string' },
  { tag: 'PUBCHEM_IUPAC_NAME', prop: 'IUPACName', kind: 'string' },
  { tag: 'PUBCHEM_XLOGP3', prop: 'XLogP', kind: 'number' },
  { tag: 'PUBCHEM_XLOGP3_AA', prop: 'XLogP', kind: 'number' },
  { tag: 'PUBCHEM_EXACT_MASS', prop: 'ExactMass', kind: 'string' },
  { tag: 'PUBCHEM_MONOISOTOPIC_WEIGHT', prop: 'MonoisotopicMass', kind: 'string' },
  { tag: 'PUBCHEM_CACTVS_TPSA', prop: 'TPSA', kind: 'number' },
  { tag: 'PUBCHEM_CACTVS_COMPLEXITY', prop: 'Complexity', kind: 'number' },
  { tag: 'PUBCHEM_TOTAL_CHARGE', prop: 'Charge', kind: 'int' },
  { tag: 'PUBCHEM_CACTVS_HBOND_DONOR', prop: 'HBondDonorCount', kind: 'int' },
  { tag: 'PUBCHEM_CACTVS_HBOND_ACCEPTOR', prop: 'HBondAcceptorCount', kind: 'int' },
  { tag: 'PUBCHEM_CACTVS_ROTATABLE_BOND', prop: 'RotatableBondCount', kind: 'int' },
  { tag: 'PUBCHEM_HEAVY_ATOM_COUNT', prop: 'HeavyAtomCount', kind: 'int' },
  { tag: 'PUBCHEM_ISOTOPIC_ATOM_COUNT', prop: 'IsotopeAtomCount', kind: 'int' },
  { tag: 'PUBCHEM_ATOM_DEF_STEREO_COUNT', prop: 'DefinedAtomStereoCount', kind: 'int' },
  { tag: 'PUBCHEM_ATOM_UDEF_STEREO_COUNT', prop: 'UndefinedAtomStereoCount', kind: 'int' },
  { tag: 'PUBCHEM_BOND_DEF_STEREO_COUNT', prop: 'DefinedBondStereoCount', kind: 'int' },
  { tag: 'PUBCHEM_BOND_UDEF_STEREO_COUNT', prop: 'UndefinedBondStereoCount', kind: 'int' },
  { tag: 'PUBCHEM_COMPONENT_COUNT', prop: 'CovalentUnitCount', kind: 'int' },
  { tag: 'PUBCHEM_CACTVS_SUBSKEYS', prop: 'Fingerprint2D', kind: 'string' },
];

/** The tags the project writes when it generates an SD record (one per property). */
export const WRITTEN_TAGS: readonly string[] = [
  'PUBCHEM_COMPOUND_CANONICALIZED',
  'PUBCHEM_CACTVS_COMPLEXITY',
  'PUBCHEM_CACTVS_HBOND_ACCEPTOR',
  'PUBCHEM_CACTVS_HBOND_DONOR',
  'PUBCHEM_CACTVS_ROTATABLE_BOND',
  'PUBCHEM_CACTVS_SUBSKEYS',
  'PUBCHEM_IUPAC_NAME',
  'PUBCHEM_IUPAC_INCHI',
  'PUBCHEM_IUPAC_INCHIKEY',
  'PUBCHEM_XLOGP3',
  'PUBCHEM_EXACT_MASS',
  'PUBCHEM_MOLECULAR_FORMULA',
  'PUBCHEM_MOLECULAR_WEIGHT',
  'PUBCHEM_OPENEYE_CAN_SMILES',
  'PUBCHEM_OPENEYE_ISO_SMILES',
  'PUBCHEM_CACTVS_TPSA',
  'PUBCHEM_MONOISOTOPIC_WEIGHT',
  'PUBCHEM_TOTAL_CHARGE',
  'PUBCHEM_HEAVY_ATOM_COUNT',
  'PUBCHEM_ATOM_DEF_STEREO_COUNT',
  'PUBCHEM_ATOM_UDEF_STEREO_COUNT',
  'PUBCHEM_BOND_DEF_STEREO_COUNT',
  'PUBCHEM_BOND_UDEF_STEREO_COUNT',
  'PUBCHEM_ISOTOPIC_ATOM_COUNT',
  'PUBCHEM_COMPONENT_COUNT',
];

/** A tag's value as its property holds it, or undefined when the tag gives none. */
export function typed(kind: Kind, raw: string): PropValue | undefined {
  const v = raw.trim();
  if (v === '') return undefined;
  if (kind === 'string') return v;
  const n = Number(v);
  if (!Number.isFinite(n)) return undefined;
  return kind === 'int' ? Math.trunc(n) : n;
}

/** Property values the SD tags carry. */
export function propsFromTags(tags: ReadonlyMap<string, string>): Props {
  const p: Props = {};
  for (const t of SDF_TAGS) {
    if (p[t.prop] !== undefined) continue;
    const raw = tags.get(t.tag);
    if (raw === undefined) continue;
    const v = typed(t.kind, raw);
    if (v !== undefined) p[t.prop] = v;
  }
  return p;
}

/** Property values computed by the project. */
export function propsFromComputed(c: Computed): Props {
  const p: Props = {
    MolecularFormula: c.formula,
    MolecularWeight: weightString(c.mw),
    SMILES: c.smiles,
    ConnectivitySMILES: c.connectivitySmiles,
    XLogP: c.xlogp,
    ExactMass: massString(c.monoisotopic),
    MonoisotopicMass: massString(c.monoisotopic),
    TPSA: c.tpsa,
    Complexity: c.complexity,
    Charge: c.charge,
    HBondDonorCount: c.hbondDonors,
    HBondAcceptorCount: c.hbondAcceptors,
    RotatableBondCount: c.rotatableBonds,
    HeavyAtomCount: c.heavyAtoms,
    IsotopeAtomCount: c.isotopeAtoms,
    DefinedAtomStereoCount: c.definedAtomStereo,
    UndefinedAtomStereoCount: c.atomStereo - c.definedAtomStereo,
    DefinedBondStereoCount: c.definedBondStereo,
    UndefinedBondStereoCount: c.bondStereo - c.definedBondStereo,
    CovalentUnitCount: c.covalentUnits,
  };
  if (c.inchi) p.InChI = c.inchi;
  if (c.inchikey) p.InChIKey = c.inchikey;
  return p;
}

/** Tag values for a generated SD record, from property values. */
export function tagsFromProps(p: Props): [string, string][] {
  const out: [string, string][] = [['PUBCHEM_COMPOUND_CANONICALIZED', '1']];
  const written = new Set<string>(['PUBCHEM_COMPOUND_CANONICALIZED']);
  for (const tag of WRITTEN_TAGS) {
    const entry = SDF_TAGS.find((t) => t.tag === tag);
    if (!entry) continue;
    const v = p[entry.prop];
    if (v === undefined || written.has(tag)) continue;
    written.add(tag);
    out.push([tag, String(v)]);
  }
  return out;
}

/** Stereo totals from their defined and undefined parts. */
export function withTotals(p: Props): Props {
  const sum = (a: string, b: string) => (typeof p[a] === 'number' && typeof p[b] === 'number' ? (p[a] as number) + (p[b] as number) : undefined);
  const atoms = sum('DefinedAtomStereoCount', 'UndefinedAtomStereoCount');
  const bonds = sum('DefinedBondStereoCount', 'UndefinedBondStereoCount');
  return { ...p, ...(atoms !== undefined ? { AtomStereoCount: atoms } : {}), ...(bonds !== undefined ? { BondStereoCount: bonds } : {}) };
}
