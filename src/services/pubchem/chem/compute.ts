/**
 * What the project computes for a structure with RDKit when the bulk data does not carry it (and
 * for structures given in requests). Definitions follow PubChem's where they are documented; the
 * values may still differ from PubChem's own (Cactvs, OEChem, XLogP3): see
 * docs/compatibility.md.
 */
import { bertzComplexity, componentCount, formulaOf, graphOf, stereoBondCandidates } from './graph.js';
import { averageMass, monoisotopicMass } from './masses.js';
import { parseQuery, type Mol, type RDKit } from './rdkit.js';

export interface Computed {
  formula: string;
  /** Average molecular weight, g/mol. */
  mw: number;
  monoisotopic: number;
  smiles: string;
  connectivitySmiles: string;
  inchi: string;
  inchikey: string;
  xlogp: number;
  tpsa: number;
  complexity: number;
  charge: number;
  hbondDonors: number;
  hbondAcceptors: number;
  rotatableBonds: number;
  heavyAtoms: number;
  isotopeAtoms: number;
  atomStereo: number;
  definedAtomStereo: number;
  bondStereo: number;
  definedBondStereo: number;
  covalentUnits: number;
}

// Donors: N or O bearing hydrogen. Acceptors (PubChem counts every O and F, and N unless it is
// cationic, an amide N or a pyrrole-type aromatic N). Rotatable: single, acyclic, between
// non-terminal atoms, not a triple-bond neighbour, not an amide C-N.
const SMARTS = {
  donor: '[N,n,O;!H0]',
  acceptor: '[$([#8;!+]),$([F]),$([N;!+;!$(N-[#6]=[O,S])]),$([n;!+;X2;H0])]',
  rotatable: '[!$([NH]!@C(=O))&!D1&!$(*#*)]-&!@[!$([NH]!@C(=O))&!D1&!$(*#*)]',
};

// RDKit stops at 1000 matches by default; large molecules have more acceptors or bonds than that.
const MANY = JSON.stringify({ maxMatches: 100000 });

const queries = new WeakMap<RDKit, Record<keyof typeof SMARTS, Mol>>();

function patterns(r: RDKit): Record<keyof typeof SMARTS, Mol> {
  let q = queries.get(r);
  if (!q) {
    const make = (s: string) => {
      const m = parseQuery(r, s);
      if (!m) throw new Error(`internal SMARTS does not parse: ${s}`);
      return m;
    };
    q = { donor: make(SMARTS.donor), acceptor: make(SMARTS.acceptor), rotatable: make(SMARTS.rotatable) };
    queries.set(r, q);
  }
  return q;
}

function matchCount(mol: Mol, query: Mol, unique: 'atoms' | 'bonds'): number {
  const raw = mol.get_substruct_matches(query, MANY);
  const list = JSON.parse(raw) as { atoms: number[]; bonds: number[] }[] | Record<string, never>;
  if (!Array.isArray(list)) return 0;
  const seen = new Set<number>();
  for (const m of list) {
    const ids = unique === 'atoms' ? m.atoms.slice(0, 1) : m.bonds.slice(0, 1);
    for (const i of ids) seen.add(i);
  }
  return seen.size;
}

/** PubChem's SMILES are Kekulé forms (RDKit's canonical atom order otherwise); connectivity SMILES drop stereo and isotopes. */
export function smilesOf(mol: Mol, isomeric: boolean): string {
  return mol.get_smiles(JSON.stringify({ doKekule: true, doIsomericSmiles: isomeric }));
}

export function inchiOf(r: RDKit, mol: Mol): { inchi: string; inchikey: string } {
  let inchi = '';
  try {
    inchi = mol.get_inchi();
  } catch {
    inchi = '';
  }
  let inchikey = '';
  if (inchi) {
    try {
      inchikey = r.get_inchikey_for_inchi(inchi);
    } catch {
      inchikey = '';
    }
  }
  return { inchi, inchikey };
}

/** Everything above, for a molecule without explicit hydrogens. */
export function compute(r: RDKit, mol: Mol): Computed {
  const tags = JSON.parse(mol.get_stereo_tags()) as { CIP_atoms: [number, string][]; CIP_bonds: [number, number, string][] };
  const graph = graphOf(mol.get_json());
  const d = JSON.parse(mol.get_descriptors()) as Record<string, number>;
  const q = patterns(r);
  const { inchi, inchikey } = inchiOf(r, mol);
  const candidates = stereoBondCandidates(graph);
  const definedBonds = tags.CIP_bonds.filter((b) => b[2] === '(E)' || b[2] === '(Z)').length;
  return {
    formula: formulaOf(graph),
    mw: averageMass(graph) ?? d.amw ?? 0,
    monoisotopic: monoisotopicMass(graph) ?? d.exactmw ?? 0,
    smiles: smilesOf(mol, true),
    connectivitySmiles: smilesOf(mol, false),
    inchi,
    inchikey,
    xlogp: Math.round((d.CrippenClogP ?? 0) * 10) / 10,
    tpsa: Math.round((d.tpsa ?? 0) * 10) / 10,
    complexity: Math.round(bertzComplexity(graph)),
    charge: graph.atoms.reduce((s, a) => s + a.charge, 0),
    hbondDonors: matchCount(mol, q.donor, 'atoms'),
    hbondAcceptors: matchCount(mol, q.acceptor, 'atoms'),
    rotatableBonds: matchCount(mol, q.rotatable, 'bonds'),
    heavyAtoms: graph.atoms.filter((a) => a.z > 1).length,
    isotopeAtoms: graph.atoms.filter((a) => a.isotope > 0).length,
    atomStereo: tags.CIP_atoms.length,
    definedAtomStereo: tags.CIP_atoms.filter((a) => a[1] !== '(?)').length,
    bondStereo: Math.max(candidates, definedBonds),
    definedBondStereo: definedBonds,
    covalentUnits: componentCount(graph),
  };
}

/** MolecularWeight as PubChem writes it: a string, two decimals at most. */
export function weightString(mw: number): string {
  return String(Math.round(mw * 100) / 100);
}

/** Exact and monoisotopic masses as PubChem writes them: a string, eight decimals at most. */
export function massString(m: number): string {
  // Truncated, not rounded: PubChem's 180.04225873 for aspirin is 180.042258736... cut.
  const t = Math.floor(m * 1e8 + 1e-7) / 1e8;
  return String(Number(t.toFixed(8)));
}
