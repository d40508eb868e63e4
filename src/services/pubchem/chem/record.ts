/**
 * A compound as PubChem's full-record JSON (`PC_Compounds[]`): atoms, bonds, 2D coordinates,
 * charge, `props` (each value under its `urn`) and `count`, in the shape of the recorded CID 7840
 * record. Built once at load from the molfile and the property values.
 */
import { atomicNumberOf } from './graph.js';
import type { Props } from './properties.js';
import { readMolfile } from './sdf.js';
import { decodeSubskeys, subskeysHex } from './subskeys-codec.js';

interface Urn {
  label: string;
  name?: string;
  datatype: number;
  implementation?: string;
  parameters?: string;
  software?: string;
  source?: string;
}

// PubChem's urn datatypes: 1 string, 5 unsigned integer, 7 double, 16 binary (hex).
const STRING = 1;
const UINT = 5;
const DOUBLE = 7;
const BINARY = 16;

/** Where each property goes in `props`, in the order PubChem lists them. */
const URNS: { prop: string; urn: Urn; as: 'sval' | 'ival' | 'fval' | 'binary' }[] = [
  { prop: 'Complexity', urn: { label: 'Compound Complexity', datatype: DOUBLE, implementation: 'E_COMPLEXITY' }, as: 'fval' },
  { prop: 'HBondAcceptorCount', urn: { label: 'Count', name: 'Hydrogen Bond Acceptor', datatype: UINT, implementation: 'E_NHACCEPTORS' }, as: 'ival' },
  { prop: 'HBondDonorCount', urn: { label: 'Count', name: 'Hydrogen Bond Donor', datatype: UINT, implementation: 'E_NHDONORS' }, as: 'ival' },
  { prop: 'RotatableBondCount', urn: { label: 'Count', name: 'Rotatable Bond', datatype: UINT, implementation: 'E_NROTBONDS' }, as: 'ival' },
  {
    prop: 'Fingerprint2D',
    urn: { label: 'Fingerprint', name: 'SubStructure Keys', datatype: BINARY, parameters: 'extended 2', implementation: 'E_SCREEN' },
    as: 'binary',
  },
  { prop: 'IUPACName', urn: { label: 'IUPAC Name', name: 'Preferred', datatype: STRING }, as: 'sval' },
  { prop: 'InChI', urn: { label: 'InChI', name: 'Standard', datatype: STRING }, as: 'sval' },
  { prop: 'InChIKey', urn: { label: 'InChIKey', name: 'Standard', datatype: STRING }, as: 'sval' },
  { prop: 'XLogP', urn: { label: 'Log P', name: 'XLogP3', datatype: DOUBLE }, as: 'fval' },
  { prop: 'ExactMass', urn: { label: 'Mass', name: 'Exact', datatype: DOUBLE }, as: 'fval' },
  { prop: 'MolecularFormula', urn: { label: 'Molecular Formula', datatype: STRING }, as: 'sval' },
  { prop: 'MolecularWeight', urn: { label: 'Molecular Weight', datatype: DOUBLE }, as: 'fval' },
  // Since 2025 PubChem names its two SMILES "Absolute" (with stereo and isotopes) and "Connectivity".
  { prop: 'SMILES', urn: { label: 'SMILES', name: 'Absolute', datatype: STRING }, as: 'sval' },
  { prop: 'ConnectivitySMILES', urn: { label: 'SMILES', name: 'Connectivity', datatype: STRING }, as: 'sval' },
  { prop: 'TPSA', urn: { label: 'Topological', name: 'Polar Surface Area', datatype: DOUBLE, implementation: 'E_TPSA' }, as: 'fval' },
  { prop: 'MonoisotopicMass', urn: { label: 'Weight', name: 'MonoIsotopic', datatype: DOUBLE }, as: 'fval' },
];

/** Other IUPAC name styles PubChem's SD files carry, under their urn names. */
const IUPAC_STYLES: [string, string][] = [
  ['PUBCHEM_IUPAC_OPENEYE_NAME', 'Allowed'],
  ['PUBCHEM_IUPAC_CAS_NAME', 'CAS-like Style'],
  ['PUBCHEM_IUPAC_NAME_MARKUP', 'Markup'],
  ['PUBCHEM_IUPAC_SYSTEMATIC_NAME', 'Systematic'],
  ['PUBCHEM_IUPAC_TRADITIONAL_NAME', 'Traditional'],
];

/** The record's hexadecimal form of the substructure keys (base64 in the properties), or undefined. */
function hexOf(base64: string): string | undefined {
  const keys = decodeSubskeys(base64);
  return typeof keys === 'string' ? undefined : subskeysHex(keys);
}

// PC-BondAnnotation codes for drawn stereo bonds (molfile 1 = wedge, 6 = hash, 4 = either).
const STYLE: Record<number, number> = { 1: 5, 6: 6, 4: 3 };

export interface RecordInput {
  /** Undefined for a structure that is not in the database (computed on request). */
  cid: number | undefined;
  molblock: string;
  props: Props;
  tags: ReadonlyMap<string, string>;
  /** Property names whose value the project computed, marked in their urn. */
  computed: ReadonlySet<string>;
  rdkitVersion: string;
}

/** Atoms, bonds, coordinates and charge of a molfile, as a PubChem record holds them. */
export function structureParts(molblock: string): Record<string, unknown> | string {
  const mf = readMolfile(molblock);
  if (typeof mf === 'string') return mf;
  const aid = mf.atoms.map((_, i) => i + 1);
  const element: number[] = [];
  for (const a of mf.atoms) {
    const z = atomicNumberOf(a.symbol);
    if (z === undefined) return `unknown element symbol "${a.symbol}"`;
    element.push(z);
  }
  const atoms: Record<string, unknown> = { aid, element };
  const charged = mf.atoms.map((a, i) => ({ aid: i + 1, value: a.charge })).filter((c) => c.value !== 0);
  if (charged.length) atoms.charge = charged;
  const pairs = mf.bonds.map((b) => ({ a1: Math.min(b.a, b.b), a2: Math.max(b.a, b.b), order: b.order, stereo: b.stereo, from: b.a }));
  const conformer: Record<string, unknown> = { x: mf.atoms.map((a) => a.x), y: mf.atoms.map((a) => a.y) };
  const styled = pairs.filter((b) => STYLE[b.stereo] !== undefined);
  if (styled.length) {
    conformer.style = {
      annotation: styled.map((b) => STYLE[b.stereo]),
      aid1: styled.map((b) => b.from),
      aid2: styled.map((b) => (b.from === b.a1 ? b.a2 : b.a1)),
    };
  }
  const out: Record<string, unknown> = { atoms };
  if (pairs.length) out.bonds = { aid1: pairs.map((b) => b.a1), aid2: pairs.map((b) => b.a2), order: pairs.map((b) => b.order) };
  if (aid.length) out.coords = [{ type: [1, 5, 255], aid, conformers: [conformer] }];
  out.charge = mf.atoms.reduce((sum, a) => sum + a.charge, 0);
  return out;
}

export function compoundRecord(input: RecordInput): Record<string, unknown> | string {
  const parts = structureParts(input.molblock);
  if (typeof parts === 'string') return parts;
  const props: Record<string, unknown>[] = [{ urn: { label: 'Compound', name: 'Canonicalized', datatype: UINT }, value: { ival: 1 } }];
  for (const u of URNS) {
    const v = input.props[u.prop];
    if (v === undefined) continue;
    const urn: Urn = { ...u.urn };
    if (input.computed.has(u.prop)) {
      urn.software = 'RDKit';
      urn.source = `biomirror (computed with RDKit ${input.rdkitVersion})`;
    }
    const hex = u.as === 'binary' ? hexOf(String(v)) : undefined;
    if (u.as === 'binary' && hex === undefined) continue;
    const value = hex !== undefined ? { binary: hex } : u.as === 'sval' ? { sval: String(v) } : { [u.as]: Number(v) };
    props.push({ urn, value });
    if (u.prop === 'IUPACName') {
      for (const [tag, name] of IUPAC_STYLES) {
        const other = input.tags.get(tag);
        if (other) props.push({ urn: { label: 'IUPAC Name', name, datatype: STRING }, value: { sval: other } });
      }
    }
  }
  const int = (k: string) => (typeof input.props[k] === 'number' ? (input.props[k] as number) : 0);
  const record: Record<string, unknown> = {
    id: input.cid === undefined ? {} : { id: { cid: input.cid } },
    atoms: parts.atoms,
    ...(parts.bonds ? { bonds: parts.bonds } : {}),
    ...(parts.coords ? { coords: parts.coords } : {}),
    charge: typeof input.props.Charge === 'number' ? input.props.Charge : parts.charge,
    props,
    count: {
      heavy_atom: int('HeavyAtomCount'),
      atom_chiral: int('DefinedAtomStereoCount') + int('UndefinedAtomStereoCount'),
      atom_chiral_def: int('DefinedAtomStereoCount'),
      atom_chiral_undef: int('UndefinedAtomStereoCount'),
      bond_chiral: int('DefinedBondStereoCount') + int('UndefinedBondStereoCount'),
      bond_chiral_def: int('DefinedBondStereoCount'),
      bond_chiral_undef: int('UndefinedBondStereoCount'),
      isotope_atom: int('IsotopeAtomCount'),
      covalent_unit: int('CovalentUnitCount'),
      tautomers: -1,
    },
  };
  return record;
}

const RENAMED_SMILES: Record<string, string> = { Canonical: 'Connectivity', Isomeric: 'Absolute' };

/** A record loaded before 2025's labels, with its SMILES under their current names. */
export function currentLabels(record: Record<string, unknown>): Record<string, unknown> {
  const props = record.props;
  if (!Array.isArray(props)) return record;
  for (const p of props as { urn?: { label?: string; name?: string } }[]) {
    const renamed = p.urn?.label === 'SMILES' && p.urn.name !== undefined ? RENAMED_SMILES[p.urn.name] : undefined;
    if (renamed && p.urn) p.urn.name = renamed;
  }
  return record;
}
