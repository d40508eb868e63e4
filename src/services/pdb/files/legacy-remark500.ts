/**
 * REMARK 500 (geometry and stereochemistry) from the pdbx_validate_* categories, one subtopic per
 * category in wwPDB's order, each table in its stated FORMAT. A table longer than 50 rows is cut at
 * 50 and followed by the total, as wwPDB writes it.
 */
import { atomField, type Block, multiModel, pad80, reader, remarkLine, residueColumns, rows } from './legacy-cif.js';

const MAX_ROWS = 50;
const line = (text = '') => remarkLine(500, text);
const num = (v: string, digits: number, width: number) => (v && Number.isFinite(Number(v)) ? Number(v).toFixed(digits).padStart(width) : ' '.repeat(width));

const SIX_RMSD = [
  'THE STEREOCHEMICAL PARAMETERS OF THE FOLLOWING RESIDUES',
  'HAVE VALUES WHICH DEVIATE FROM EXPECTED VALUES BY MORE',
  'THAN 6*RMSD (M=MODEL NUMBER; RES=RESIDUE NAME; C=CHAIN',
  'IDENTIFIER; SSEQ=SEQUENCE NUMBER; I=INSERTION CODE).',
  '',
  'STANDARD TABLE:',
];
const EXPECTED = ['', 'EXPECTED VALUES PROTEIN: ENGH AND HUBER, 1999', 'EXPECTED VALUES NUCLEIC ACID: CLOWNEY ET AL 1996', ''];
const KEY = ['(M=MODEL NUMBER; RES=RESIDUE NAME; C=CHAIN IDENTIFIER;', 'SSEQ=SEQUENCE NUMBER; I=INSERTION CODE).'];

interface Subtopic {
  category: string;
  title: string;
  intro: string[];
  /** Label of the total written after a table cut at 50 rows. */
  total: string;
  row: (v: (field: string, row?: number) => string, i: number, model: (i: number) => string, block: Block) => string;
}

/** An atom as the contact tables write it: name, alternate location, residue, chain, number, insertion code. */
function contactAtom(v: (field: string, row?: number) => string, i: number, k: 1 | 2, block: Block): string {
  const comp = v(`auth_comp_id_${k}`, i);
  return `${atomField(v(`auth_atom_id_${k}`, i), comp, block)}${v(`label_alt_id_${k}`, i) || ' '} ${comp.padStart(3)} ${v(`auth_asym_id_${k}`, i) || ' '}  ${v(`auth_seq_id_${k}`, i).padStart(4)}${v(`PDB_ins_code_${k}`, i) || ' '}`;
}

/** Residue columns of atom k of a bond or angle row. */
function atomResidue(v: (field: string, row?: number) => string, i: number, k: number, model: string): string {
  return residueColumns(model, v(`auth_comp_id_${k}`, i), v(`auth_asym_id_${k}`, i), v(`auth_seq_id_${k}`, i), v(`PDB_ins_code_${k}`, i));
}

const SUBTOPICS: Subtopic[] = [
  {
    category: 'pdbx_validate_close_contact',
    title: 'CLOSE CONTACTS IN SAME ASYMMETRIC UNIT',
    intro: ['THE FOLLOWING ATOMS ARE IN CLOSE CONTACT.', '', ' ATM1  RES C  SSEQI   ATM2  RES C  SSEQI           DISTANCE'],
    total: 'CLOSE CONTACTS',
    row: (v, i, _model, block) => `  ${contactAtom(v, i, 1, block)}   ${contactAtom(v, i, 2, block)}${num(v('dist', i), 2, 17)}`,
  },
  {
    category: 'pdbx_validate_symm_contact',
    title: 'CLOSE CONTACTS',
    intro: [
      'THE FOLLOWING ATOMS THAT ARE RELATED BY CRYSTALLOGRAPHIC',
      'SYMMETRY ARE IN CLOSE CONTACT.  AN ATOM LOCATED WITHIN 0.15',
      'ANGSTROMS OF A SYMMETRY RELATED ATOM IS ASSUMED TO BE ON A',
      'SPECIAL POSITION AND IS, THEREFORE, LISTED IN REMARK 375',
      'INSTEAD OF REMARK 500.  ATOMS WITH NON-BLANK ALTERNATE',
      'LOCATION INDICATORS ARE NOT INCLUDED IN THE CALCULATIONS.',
      '',
      'DISTANCE CUTOFF:',
      '2.2 ANGSTROMS FOR CONTACTS NOT INVOLVING HYDROGEN ATOMS',
      '1.6 ANGSTROMS FOR CONTACTS INVOLVING HYDROGEN ATOMS',
      '',
      ' ATM1  RES C  SSEQI   ATM2  RES C  SSEQI  SSYMOP   DISTANCE',
    ],
    total: 'SYMMETRY CONTACTS',
    row: (v, i, _model, block) => `  ${contactAtom(v, i, 1, block)}   ${contactAtom(v, i, 2, block)}${v('site_symmetry_2', i).replace('_', '').padStart(8)}${num(v('dist', i), 2, 9)}`,
  },
  {
    category: 'pdbx_validate_rmsd_bond',
    title: 'COVALENT BOND LENGTHS',
    intro: [...SIX_RMSD, 'FORMAT: (10X,I3,1X,2(A3,1X,A1,I4,A1,1X,A4,3X),1X,F6.3)', ...EXPECTED, ' M RES CSSEQI ATM1   RES CSSEQI ATM2   DEVIATION'],
    total: 'BOND DEVIATIONS',
    row: (v, i, model, block) =>
      `${atomResidue(v, i, 1, model(i))} ${atomField(v('auth_atom_id_1', i), v('auth_comp_id_1', i), block)}   ${atomResidue(v, i, 2, '').slice(4)} ${atomField(v('auth_atom_id_2', i), v('auth_comp_id_2', i), block)}    ${num(v('bond_deviation', i), 3, 6)}`,
  },
  {
    category: 'pdbx_validate_rmsd_angle',
    title: 'COVALENT BOND ANGLES',
    intro: [...SIX_RMSD, 'FORMAT: (10X,I3,1X,A3,1X,A1,I4,A1,3(1X,A4,2X),12X,F5.1)', ...EXPECTED, ' M RES CSSEQI ATM1   ATM2   ATM3'],
    total: 'ANGLE DEVIATIONS',
    // The residue of the middle atom (the angle's vertex) is the one named.
    row: (v, i, model, block) => {
      const atom = (k: number) => atomField(v(`auth_atom_id_${k}`, i), v(`auth_comp_id_${k}`, i), block);
      return `${atomResidue(v, i, 2, model(i))} ${atom(1)} - ${atom(2)} - ${atom(3)} ANGL. DEV. = ${num(v('angle_deviation', i), 1, 5)} DEGREES`;
    },
  },
  {
    category: 'pdbx_validate_torsion',
    title: 'TORSION ANGLES',
    intro: [
      'TORSION ANGLES OUTSIDE THE EXPECTED RAMACHANDRAN REGIONS:',
      ...KEY,
      '',
      'STANDARD TABLE:',
      'FORMAT:(10X,I3,1X,A3,1X,A1,I4,A1,4X,F7.2,3X,F7.2)',
      '',
      'EXPECTED VALUES: GJ KLEYWEGT AND TA JONES (1996). PHI/PSI-',
      'CHOLOGY: RAMACHANDRAN REVISITED. STRUCTURE 4, 1395 - 1400',
      '',
      ' M RES CSSEQI        PSI       PHI',
    ],
    total: 'RAMACHANDRAN OUTLIERS',
    row: (v, i, model) => `${residueColumns(model(i), v('auth_comp_id', i), v('auth_asym_id', i), v('auth_seq_id', i), v('PDB_ins_code', i))}    ${num(v('psi', i), 2, 7)}   ${num(v('phi', i), 2, 7)}`,
  },
  {
    category: 'pdbx_validate_peptide_omega',
    title: 'NON-CIS, NON-TRANS',
    intro: [
      'THE FOLLOWING PEPTIDE BONDS DEVIATE SIGNIFICANTLY FROM BOTH',
      'CIS AND TRANS CONFORMATION.  CIS BONDS, IF ANY, ARE LISTED',
      'ON CISPEP RECORDS.  TRANS IS DEFINED AS 180 +/- 30 AND',
      'CIS IS DEFINED AS 0 +/- 30 DEGREES.',
      '                                MODEL     OMEGA',
    ],
    total: 'PEPTIDE OMEGA OUTLIERS',
    row: (v, i, model) => {
      const residue = (k: number) => `${v(`auth_comp_id_${k}`, i).padStart(3)} ${v(`auth_asym_id_${k}`, i) || ' '}${v(`auth_seq_id_${k}`, i).padStart(5)}${v(`PDB_ins_code_${k}`, i) || ' '}`;
      return ` ${residue(1)}    ${residue(2)}${model(i).padStart(11)}${num(v('omega', i), 2, 12)}`;
    },
  },
  {
    category: 'pdbx_validate_planes',
    title: 'PLANAR GROUPS',
    intro: [
      'PLANAR GROUPS IN THE FOLLOWING RESIDUES HAVE A TOTAL',
      'RMS DISTANCE OF ALL ATOMS FROM THE BEST-FIT PLANE',
      'BY MORE THAN AN EXPECTED VALUE OF 6*RMSD, WITH AN',
      'RMSD 0.02 ANGSTROMS, OR AT LEAST ONE ATOM HAS',
      'AN RMSD GREATER THAN THIS VALUE',
      ...KEY,
      '',
      ' M RES CSSEQI        RMS     TYPE',
    ],
    total: 'PLANE DEVIATIONS',
    row: (v, i, model) =>
      `${residueColumns(model(i), v('auth_comp_id', i), v('auth_asym_id', i), v('auth_seq_id', i), v('PDB_ins_code', i))}${num(v('rmsd', i), 2, 12)}    ${v('type', i).toUpperCase()}`,
  },
  {
    category: 'pdbx_validate_main_chain_plane',
    title: 'MAIN CHAIN PLANARITY',
    intro: [
      'THE FOLLOWING RESIDUES HAVE A PSEUDO PLANARITY',
      'TORSION ANGLE, C(I) - CA(I) - N(I+1) - O(I), GREATER',
      '10.0 DEGREES. (M=MODEL NUMBER; RES=RESIDUE NAME;',
      'C=CHAIN IDENTIFIER; SSEQ=SEQUENCE NUMBER;',
      'I=INSERTION CODE).',
      '',
      ' M RES CSSEQI        ANGLE',
    ],
    total: 'MAIN CHAIN PLANARITY DEVIATIONS',
    row: (v, i, model) => `${residueColumns(model(i), v('auth_comp_id', i), v('auth_asym_id', i), v('auth_seq_id', i), v('PDB_ins_code', i))}${num(v('improper_torsion_angle', i), 2, 13)}`,
  },
];

function subtopic(block: Block, s: Subtopic, multi: boolean): string[] {
  const n = rows(block, s.category);
  if (!n) return [];
  const v = reader(block, s.category);
  const model = (i: number) => (multi ? v('PDB_model_num', i) : '');
  const out = [line(), line('GEOMETRY AND STEREOCHEMISTRY'), line(`SUBTOPIC: ${s.title}`), line(), ...s.intro.map((t) => line(t))];
  // Rows are written whole from column 11 (the tables' FORMAT starts with 10X).
  for (let i = 0; i < Math.min(n, MAX_ROWS); i++) out.push(pad80(`REMARK 500${s.row(v, i, model, block)}`));
  if (n > MAX_ROWS) out.push(line(), line(`THIS ENTRY HAS${String(n).padStart(8)} ${s.total}.`));
  return [...out, line(), line('REMARK: NULL')];
}

export function remark500(block: Block): string[] {
  const multi = multiModel(block);
  return SUBTOPICS.flatMap((s) => subtopic(block, s, multi));
}
