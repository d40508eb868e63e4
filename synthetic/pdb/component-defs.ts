/**
 * The chemical components the demo entries use, as the wwPDB Chemical Component Dictionary (CCD)
 * names and classes them. Each is given by a SMILES whose heavy atoms appear in the order of the
 * `atoms` names (PDB atom names), or, for heme, by an explicit atom and bond list. Bonds, aromatic
 * flags, stereo labels, formulas, weights and the SMILES/InChI/InChIKey descriptors are computed
 * from these structures with RDKit; hydrogens are implicit (the CCD's hydrogen names are not listed).
 */

export interface ComponentDef {
  id: string;
  name: string;
  type: string;
  /** ATOMP for standard polymer residues, ATOMN for nucleotides, ATOMS for saccharides, HETAIN otherwise. */
  pdbxType: string;
  oneLetter?: string;
  parent?: string;
  synonyms?: string;
  /** IUPAC/systematic name, only where it is certain. */
  systematicName?: string;
  smiles?: string;
  /** For explicit structures: [name, element, formal charge]. */
  explicitAtoms?: Array<[string, string, number]>;
  /** For explicit structures: [atom1, atom2, order 1|2, dative?]. */
  explicitBonds?: Array<[string, string, number, boolean?]>;
  atoms: string[];
  /** Atoms lost when the residue links into a polymer or glycan (CCD pdbx_leaving_atom_flag). */
  leaving?: string[];
  /** Expected CIP labels, checked when the dictionary is built (guards the stereo of each SMILES). */
  cip?: Record<string, 'R' | 'S'>;
}

const aa = (id: string, name: string, oneLetter: string, side: string, sideAtoms: string[], cip: Record<string, 'R' | 'S'> = { CA: 'S' }, systematicName?: string): ComponentDef => ({
  id,
  name,
  type: 'L-peptide linking',
  pdbxType: 'ATOMP',
  oneLetter,
  smiles: `N[C@@H](${side})C(=O)O`,
  atoms: ['N', 'CA', ...sideAtoms, 'C', 'O', 'OXT'],
  leaving: ['OXT'],
  cip,
  ...(systematicName ? { systematicName } : {}),
});

const ribose = { "C1'": 'R', "C2'": 'R', "C3'": 'S', "C4'": 'R' } as const;
const nt = (id: string, name: string, base: string, baseAtoms: string[]): ComponentDef => ({
  id,
  name,
  type: 'RNA linking',
  pdbxType: 'ATOMN',
  oneLetter: id,
  smiles: `OP(=O)(O)OC[C@H]1O[C@@H](${base})[C@H](O)[C@@H]1O`,
  atoms: ['OP3', 'P', 'OP1', 'OP2', "O5'", "C5'", "C4'", "O4'", "C1'", ...baseAtoms, "C2'", "O2'", "C3'", "O3'"],
  leaving: ['OP3'],
  cip: { ...ribose },
});

const HEM_ATOMS: Array<[string, string, number]> = [
  ['FE', 'Fe', 0],
  ...['CHA', 'CHB', 'CHC', 'CHD'].map((n): [string, string, number] => [n, 'C', 0]),
  ...['C1A', 'C2A', 'C3A', 'C4A', 'CMA', 'CAA', 'CBA', 'CGA'].map((n): [string, string, number] => [n, 'C', 0]),
  ['O1A', 'O', 0],
  ['O2A', 'O', 0],
  ...['C1B', 'C2B', 'C3B', 'C4B', 'CMB', 'CAB', 'CBB'].map((n): [string, string, number] => [n, 'C', 0]),
  ...['C1C', 'C2C', 'C3C', 'C4C', 'CMC', 'CAC', 'CBC'].map((n): [string, string, number] => [n, 'C', 0]),
  ...['C1D', 'C2D', 'C3D', 'C4D', 'CMD', 'CAD', 'CBD', 'CGD'].map((n): [string, string, number] => [n, 'C', 0]),
  ['O1D', 'O', 0],
  ['O2D', 'O', 0],
  ['NA', 'N', 0],
  ['NB', 'N', 0],
  ['NC', 'N', 0],
  ['ND', 'N', 0],
];

/** One Kekule structure of iron protoporphyrin IX: NA and NC bound to iron, NB and ND donating. */
const HEM_BONDS: Array<[string, string, number, boolean?]> = [
  ['FE', 'NA', 1],
  ['FE', 'NC', 1],
  ['NB', 'FE', 1, true],
  ['ND', 'FE', 1, true],
  // ring A (pyrrole N) and its methyl and propionate
  ['C1A', 'NA', 1],
  ['C4A', 'NA', 1],
  ['C1A', 'C2A', 2],
  ['C2A', 'C3A', 1],
  ['C3A', 'C4A', 2],
  ['C3A', 'CMA', 1],
  ['C2A', 'CAA', 1],
  ['CAA', 'CBA', 1],
  ['CBA', 'CGA', 1],
  ['CGA', 'O1A', 2],
  ['CGA', 'O2A', 1],
  // ring B (pyrrolenine N), methyl and vinyl
  ['C1B', 'NB', 1],
  ['C4B', 'NB', 2],
  ['C1B', 'C2B', 1],
  ['C2B', 'C3B', 2],
  ['C3B', 'C4B', 1],
  ['C2B', 'CMB', 1],
  ['C3B', 'CAB', 1],
  ['CAB', 'CBB', 2],
  // ring C (pyrrole N), methyl and vinyl
  ['C1C', 'NC', 1],
  ['C4C', 'NC', 1],
  ['C1C', 'C2C', 1],
  ['C2C', 'C3C', 2],
  ['C3C', 'C4C', 1],
  ['C2C', 'CMC', 1],
  ['C3C', 'CAC', 1],
  ['CAC', 'CBC', 2],
  // ring D (pyrrolenine N), methyl and propionate
  ['C1D', 'ND', 2],
  ['C4D', 'ND', 1],
  ['C1D', 'C2D', 1],
  ['C2D', 'C3D', 2],
  ['C3D', 'C4D', 1],
  ['C2D', 'CMD', 1],
  ['C3D', 'CAD', 1],
  ['CAD', 'CBD', 1],
  ['CBD', 'CGD', 1],
  ['CGD', 'O1D', 2],
  ['CGD', 'O2D', 1],
  // meso bridges
  ['C4D', 'CHA', 2],
  ['CHA', 'C1A', 1],
  ['C4A', 'CHB', 1],
  ['CHB', 'C1B', 2],
  ['C4B', 'CHC', 1],
  ['CHC', 'C1C', 2],
  ['C4C', 'CHD', 2],
  ['CHD', 'C1D', 1],
];

export const COMPONENTS: ComponentDef[] = [
  aa('ALA', 'ALANINE', 'A', 'C', ['CB'], undefined, '(2S)-2-aminopropanoic acid'),
  aa('ARG', 'ARGININE', 'R', 'CCCNC(N)=[NH2+]', ['CB', 'CG', 'CD', 'NE', 'CZ', 'NH1', 'NH2']),
  aa('ASN', 'ASPARAGINE', 'N', 'CC(N)=O', ['CB', 'CG', 'ND2', 'OD1']),
  aa('ASP', 'ASPARTIC ACID', 'D', 'CC(=O)O', ['CB', 'CG', 'OD1', 'OD2'], undefined, '(2S)-2-aminobutanedioic acid'),
  aa('CYS', 'CYSTEINE', 'C', 'CS', ['CB', 'SG'], { CA: 'R' }, '(2R)-2-amino-3-sulfanylpropanoic acid'),
  aa('GLN', 'GLUTAMINE', 'Q', 'CCC(N)=O', ['CB', 'CG', 'CD', 'NE2', 'OE1']),
  aa('GLU', 'GLUTAMIC ACID', 'E', 'CCC(=O)O', ['CB', 'CG', 'CD', 'OE1', 'OE2'], undefined, '(2S)-2-aminopentanedioic acid'),
  {
    id: 'GLY',
    name: 'GLYCINE',
    type: 'peptide linking',
    pdbxType: 'ATOMP',
    oneLetter: 'G',
    smiles: 'NCC(=O)O',
    atoms: ['N', 'CA', 'C', 'O', 'OXT'],
    leaving: ['OXT'],
    systematicName: '2-aminoethanoic acid',
  },
  aa('HIS', 'HISTIDINE', 'H', 'Cc1c[nH]c[nH+]1', ['CB', 'CG', 'CD2', 'NE2', 'CE1', 'ND1']),
  aa('ILE', 'ISOLEUCINE', 'I', '[C@@H](C)CC', ['CB', 'CG2', 'CG1', 'CD1'], { CA: 'S', CB: 'S' }),
  aa('LEU', 'LEUCINE', 'L', 'CC(C)C', ['CB', 'CG', 'CD1', 'CD2'], undefined, '(2S)-2-amino-4-methylpentanoic acid'),
  aa('LYS', 'LYSINE', 'K', 'CCCC[NH3+]', ['CB', 'CG', 'CD', 'CE', 'NZ']),
  aa('MET', 'METHIONINE', 'M', 'CCSC', ['CB', 'CG', 'SD', 'CE']),
  aa('PHE', 'PHENYLALANINE', 'F', 'Cc1ccccc1', ['CB', 'CG', 'CD1', 'CE1', 'CZ', 'CE2', 'CD2']),
  {
    id: 'PRO',
    name: 'PROLINE',
    type: 'L-peptide linking',
    pdbxType: 'ATOMP',
    oneLetter: 'P',
    smiles: 'N1[C@@H](CCC1)C(=O)O',
    atoms: ['N', 'CA', 'CB', 'CG', 'CD', 'C', 'O', 'OXT'],
    leaving: ['OXT'],
    cip: { CA: 'S' },
  },
  aa('SER', 'SERINE', 'S', 'CO', ['CB', 'OG'], undefined, '(2S)-2-amino-3-hydroxypropanoic acid'),
  aa('THR', 'THREONINE', 'T', '[C@H](O)C', ['CB', 'OG1', 'CG2'], { CA: 'S', CB: 'R' }),
  aa('TRP', 'TRYPTOPHAN', 'W', 'Cc1c[nH]c2ccccc12', ['CB', 'CG', 'CD1', 'NE1', 'CE2', 'CZ2', 'CH2', 'CZ3', 'CE3', 'CD2']),
  aa('TYR', 'TYROSINE', 'Y', 'Cc1ccc(O)cc1', ['CB', 'CG', 'CD1', 'CE1', 'CZ', 'OH', 'CE2', 'CD2']),
  aa('VAL', 'VALINE', 'V', 'C(C)C', ['CB', 'CG1', 'CG2'], undefined, '(2S)-2-amino-3-methylbutanoic acid'),
  nt('A', "ADENOSINE-5'-MONOPHOSPHATE", 'n2cnc3c(N)ncnc32', ['N9', 'C8', 'N7', 'C5', 'C6', 'N6', 'N1', 'C2', 'N3', 'C4']),
  nt('C', "CYTIDINE-5'-MONOPHOSPHATE", 'N2C=CC(N)=NC2=O', ['N1', 'C6', 'C5', 'C4', 'N4', 'N3', 'C2', 'O2']),
  nt('G', "GUANOSINE-5'-MONOPHOSPHATE", 'n2cnc3c(=O)[nH]c(N)nc32', ['N9', 'C8', 'N7', 'C5', 'C6', 'O6', 'N1', 'C2', 'N2', 'N3', 'C4']),
  nt('U', "URIDINE-5'-MONOPHOSPHATE", 'N2C=CC(=O)NC2=O', ['N1', 'C6', 'C5', 'C4', 'O4', 'N3', 'C2', 'O2']),
  {
    id: 'NAG',
    name: '2-acetamido-2-deoxy-beta-D-glucopyranose',
    type: 'D-saccharide, beta linking',
    pdbxType: 'ATOMS',
    synonyms: 'N-acetyl-beta-D-glucosamine; 2-acetamido-2-deoxy-beta-D-glucose; 2-acetamido-2-deoxy-D-glucose; 2-acetamido-2-deoxy-glucose; N-ACETYL-D-GLUCOSAMINE',
    systematicName: 'N-[(2R,3R,4R,5S,6R)-2,4,5-trihydroxy-6-(hydroxymethyl)oxan-3-yl]acetamide',
    smiles: 'CC(=O)N[C@@H]1[C@@H](O)[C@H](O)[C@@H](CO)O[C@H]1O',
    atoms: ['C8', 'C7', 'O7', 'N2', 'C2', 'C3', 'O3', 'C4', 'O4', 'C5', 'C6', 'O6', 'O5', 'C1', 'O1'],
    leaving: ['O1'],
    cip: { C1: 'R', C2: 'R', C3: 'R', C4: 'S', C5: 'R' },
  },
  {
    id: 'BMA',
    name: 'beta-D-mannopyranose',
    type: 'D-saccharide, beta linking',
    pdbxType: 'ATOMS',
    synonyms: 'beta-D-mannose; D-mannose; mannose',
    systematicName: '(2R,3S,4S,5S,6R)-6-(hydroxymethyl)oxane-2,3,4,5-tetrol',
    smiles: 'O[C@@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@@H]1O',
    atoms: ['O1', 'C1', 'O5', 'C5', 'C6', 'O6', 'C4', 'O4', 'C3', 'O3', 'C2', 'O2'],
    leaving: ['O1'],
    cip: { C1: 'R', C2: 'S', C3: 'S', C4: 'S', C5: 'R' },
  },
  {
    id: 'MAN',
    name: 'alpha-D-mannopyranose',
    type: 'D-saccharide, alpha linking',
    pdbxType: 'ATOMS',
    synonyms: 'alpha-D-mannose; D-mannose; mannose',
    systematicName: '(2S,3S,4S,5S,6R)-6-(hydroxymethyl)oxane-2,3,4,5-tetrol',
    smiles: 'O[C@H]1O[C@H](CO)[C@@H](O)[C@H](O)[C@@H]1O',
    atoms: ['O1', 'C1', 'O5', 'C5', 'C6', 'O6', 'C4', 'O4', 'C3', 'O3', 'C2', 'O2'],
    leaving: ['O1'],
    cip: { C1: 'S', C2: 'S', C3: 'S', C4: 'S', C5: 'R' },
  },
  {
    id: 'HEM',
    name: 'PROTOPORPHYRIN IX CONTAINING FE',
    type: 'non-polymer',
    pdbxType: 'HETAIN',
    synonyms: 'HEME',
    explicitAtoms: HEM_ATOMS,
    explicitBonds: HEM_BONDS,
    atoms: HEM_ATOMS.map((a) => a[0]),
  },
  {
    id: 'PO4',
    name: 'PHOSPHATE ION',
    type: 'non-polymer',
    pdbxType: 'HETAI',
    smiles: 'P(=O)([O-])([O-])[O-]',
    atoms: ['P', 'O1', 'O2', 'O3', 'O4'],
    systematicName: 'phosphate',
  },
  {
    id: 'HOH',
    name: 'WATER',
    type: 'non-polymer',
    pdbxType: 'HETAS',
    smiles: 'O',
    atoms: ['O'],
    systematicName: 'oxidane',
  },
];

const NT_ORDER = ['OP3', 'P', 'OP1', 'OP2', "O5'", "C5'", "C4'", "O4'", "C3'", "O3'", "C2'", "O2'", "C1'"];
const SUGAR_ORDER = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'N2', 'O1', 'O2', 'O3', 'O4', 'O5', 'O6', 'O7'];

/**
 * The order in which the dictionary and archive files list a component's atoms: backbone first
 * for amino acids (N CA C O, side chain, OXT) and nucleotides (phosphate, sugar, then base),
 * ring carbons first for sugars; otherwise the order of the definition.
 */
export function atomOrder(def: ComponentDef): string[] {
  const rank = (list: string[]) => (n: string) => {
    const i = list.indexOf(n);
    return i < 0 ? list.length + def.atoms.indexOf(n) : i;
  };
  let key: ((n: string) => number) | undefined;
  if (def.pdbxType === 'ATOMP') key = (n) => (n === 'OXT' ? 1000 : rank(['N', 'CA', 'C', 'O'])(n));
  else if (def.pdbxType === 'ATOMN') key = rank(NT_ORDER);
  else if (def.pdbxType === 'ATOMS') key = rank(SUGAR_ORDER);
  return key ? [...def.atoms].sort((a, b) => key(a) - key(b)) : [...def.atoms];
}
