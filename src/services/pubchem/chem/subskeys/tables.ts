/** The tables of PubChem's substructure key definitions (V1.3), section by section. */
// ---------------------------------------------------------------------------------------------
// The definition's tables.

/** Section 1 (bits 0–114): an element, then the counts its bits test, in order. */
// prettier-ignore
export const ELEMENT_COUNTS: [string, number[]][] = [
  ['H', [4, 8, 16, 32]], ['Li', [1, 2]], ['B', [1, 2, 4]], ['C', [2, 4, 8, 16, 32]], ['N', [1, 2, 4, 8]],
  ['O', [1, 2, 4, 8, 16]], ['F', [1, 2, 4]], ['Na', [1, 2]], ['Si', [1, 2]], ['P', [1, 2, 4]],
  ['S', [1, 2, 4, 8]], ['Cl', [1, 2, 4, 8]], ['K', [1, 2]], ['Br', [1, 2, 4]], ['I', [1, 2, 4]],
  ...(
    'Be Mg Al Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Kr Rb Sr Y Zr Nb Mo Ru Rh Pd Ag Cd In Sn Sb Te Xe ' +
    'Cs Ba Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Tc U'
  )
    .split(' ')
    .map((s): [string, number[]] => [s, [1]]),
];

/**
 * Section 2 (bits 115–254): a ring size, then the counts its groups of seven bits test (any ring;
 * saturated or aromatic with carbon only, with nitrogen, with any heteroatom; unsaturated
 * non-aromatic likewise). Bits 255–262 count aromatic and heteroaromatic rings of any size.
 */
// prettier-ignore
export const RING_COUNTS: [number, number[]][] = [
  [3, [1, 2]], [4, [1, 2]], [5, [1, 2, 3, 4, 5]], [6, [1, 2, 3, 4, 5]], [7, [1, 2]], [8, [1, 2]], [9, [1]], [10, [1]],
];

/** Section 3 (bits 263–326): bonded pairs, any bond; X-H is an atom X with a hydrogen. */
// prettier-ignore
export const ATOM_PAIRS = [
  'Li-H', 'Li-Li', 'Li-B', 'Li-C', 'Li-O', 'Li-F', 'Li-P', 'Li-S', 'Li-Cl', 'B-H', 'B-B', 'B-C', 'B-N',
  'B-O', 'B-F', 'B-Si', 'B-P', 'B-S', 'B-Cl', 'B-Br', 'C-H', 'C-C', 'C-N', 'C-O', 'C-F', 'C-Na', 'C-Mg',
  'C-Al', 'C-Si', 'C-P', 'C-S', 'C-Cl', 'C-As', 'C-Se', 'C-Br', 'C-I', 'N-H', 'N-N', 'N-O', 'N-F', 'N-Si',
  'N-P', 'N-S', 'N-Cl', 'N-Br', 'O-H', 'O-O', 'O-Mg', 'O-Na', 'O-Al', 'O-Si', 'O-P', 'O-K', 'F-P', 'F-S',
  'Al-H', 'Al-Cl', 'Si-H', 'Si-Si', 'Si-Cl', 'P-H', 'P-P', 'As-H', 'As-As',
];

/** Section 4 (bits 327–415): an atom's neighbours; "~" any bond, ":" an aromatic one. */
// prettier-ignore
export const SIMPLE_NEIGHBOURS = [
  'C(~Br)(~C)', 'C(~Br)(~C)(~C)', 'C(~Br)(~H)', 'C(~Br)(:C)', 'C(~Br)(:N)', 'C(~C)(~C)', 'C(~C)(~C)(~C)',
  'C(~C)(~C)(~C)(~C)', 'C(~C)(~C)(~C)(~H)', 'C(~C)(~C)(~C)(~N)', 'C(~C)(~C)(~C)(~O)', 'C(~C)(~C)(~H)(~N)',
  'C(~C)(~C)(~H)(~O)', 'C(~C)(~C)(~N)', 'C(~C)(~C)(~O)', 'C(~C)(~Cl)', 'C(~C)(~Cl)(~H)', 'C(~C)(~H)',
  'C(~C)(~H)(~N)', 'C(~C)(~H)(~O)', 'C(~C)(~H)(~O)(~O)', 'C(~C)(~H)(~P)', 'C(~C)(~H)(~S)', 'C(~C)(~I)',
  'C(~C)(~N)', 'C(~C)(~O)', 'C(~C)(~S)', 'C(~C)(~Si)', 'C(~C)(:C)', 'C(~C)(:C)(:C)', 'C(~C)(:C)(:N)',
  'C(~C)(:N)', 'C(~C)(:N)(:N)', 'C(~Cl)(~Cl)', 'C(~Cl)(~H)', 'C(~Cl)(:C)', 'C(~F)(~F)', 'C(~F)(:C)',
  'C(~H)(~N)', 'C(~H)(~O)', 'C(~H)(~O)(~O)', 'C(~H)(~S)', 'C(~H)(~Si)', 'C(~H)(:C)', 'C(~H)(:C)(:C)',
  'C(~H)(:C)(:N)', 'C(~H)(:N)', 'C(~H)(~H)(~H)', 'C(~N)(~N)', 'C(~N)(:C)', 'C(~N)(:C)(:C)', 'C(~N)(:C)(:N)',
  'C(~N)(:N)', 'C(~O)(~O)', 'C(~O)(:C)', 'C(~O)(:C)(:C)', 'C(~S)(:C)', 'C(:C)(:C)', 'C(:C)(:C)(:C)',
  'C(:C)(:C)(:N)', 'C(:C)(:N)', 'C(:C)(:N)(:N)', 'C(:N)(:N)', 'N(~C)(~C)', 'N(~C)(~C)(~C)', 'N(~C)(~C)(~H)',
  'N(~C)(~H)', 'N(~C)(~H)(~N)', 'N(~C)(~O)', 'N(~C)(:C)', 'N(~C)(:C)(:C)', 'N(~H)(~N)', 'N(~H)(:C)',
  'N(~H)(:C)(:C)', 'N(~O)(~O)', 'N(~O)(:O)', 'N(:C)(:C)', 'N(:C)(:C)(:C)', 'O(~C)(~C)', 'O(~C)(~H)',
  'O(~C)(~P)', 'O(~H)(~S)', 'O(:C)(:C)', 'P(~C)(~C)', 'P(~O)(~O)', 'S(~C)(~C)', 'S(~C)(~H)', 'S(~C)(~O)',
  'Si(~C)(~C)',
];

/**
 * Section 5 (bits 416–459): an atom's neighbours with bond orders; an aromatic bond matches "-"
 * and "=".
 */
// prettier-ignore
export const DETAILED_NEIGHBOURS = [
  'C=C', 'C#C', 'C=N', 'C#N', 'C=O', 'C=S', 'N=N', 'N=O', 'N=P', 'P=O', 'P=P', 'C(#C)(-C)', 'C(#C)(-H)',
  'C(#N)(-C)', 'C(-C)(-C)(=C)', 'C(-C)(-C)(=N)', 'C(-C)(-C)(=O)', 'C(-C)(-Cl)(=O)', 'C(-C)(-H)(=C)',
  'C(-C)(-H)(=N)', 'C(-C)(-H)(=O)', 'C(-C)(-N)(=C)', 'C(-C)(-N)(=N)', 'C(-C)(-N)(=O)', 'C(-C)(-O)(=O)',
  'C(-C)(=C)', 'C(-C)(=N)', 'C(-C)(=O)', 'C(-Cl)(=O)', 'C(-H)(-N)(=C)', 'C(-H)(=C)', 'C(-H)(=N)',
  'C(-H)(=O)', 'C(-N)(=C)', 'C(-N)(=N)', 'C(-N)(=O)', 'C(-O)(=O)', 'N(-C)(=C)', 'N(-C)(=O)', 'N(-O)(=O)',
  'P(-O)(=O)', 'S(-C)(=O)', 'S(-O)(=O)', 'S(=O)(=O)',
];

/** Section 6 (bits 460–712): paths with bond orders; an aromatic bond matches "-" and "=". */
// prettier-ignore
export const SIMPLE_PATTERNS = [
  'C-C-C#C', 'O-C-C=N', 'O-C-C=O', 'N:C-S-[#1]', 'N-C-C=C', 'O=S-C-C', 'N#C-C=C', 'C=N-N-C', 'O=S-C-N',
  'S-S-C:C', 'C:C-C=C', 'S:C:C:C', 'C:N:C-C', 'S-C:N:C', 'S:C:C:N', 'S-C=N-C', 'C-O-C=C', 'N-N-C:C',
  'S-C=N-[#1]', 'S-C-S-C', 'C:S:C-C', 'O-S-C:C', 'C:N-C:C', 'N-S-C:C', 'N-C:N:C', 'N:C:C:N', 'N-C:N:N',
  'N-C=N-C', 'N-C=N-[#1]', 'N-C-S-C', 'C-C-C=C', 'C-N:C-[#1]', 'N-C:O:C', 'O=C-C:C', 'O=C-C:N', 'C-N-C:C',
  'N:N-C-[#1]', 'O-C:C:N', 'O-C=C-C', 'N-C:C:N', 'C-S-C:C', 'Cl-C:C-C', 'N-C=C-[#1]', 'Cl-C:C-[#1]',
  'N:C:N-C', 'Cl-C:C-O', 'C-C:N:C', 'C-C-S-C', 'S=C-N-C', 'Br-C:C-C', '[#1]-N-N-[#1]', 'S=C-N-[#1]',
  'C-[As]-O-[#1]', 'S:C:C-[#1]', 'O-N-C-C', 'N-N-C-C', '[#1]-C=C-[#1]', 'N-N-C-N', 'O=C-N-N', 'N=C-N-C',
  'C=C-C:C', 'C:N-C-[#1]', 'C-N-N-[#1]', 'N:C:C-C', 'C-C=C-C', '[As]-C:C-[#1]', 'Cl-C:C-Cl', 'C:C:N-[#1]',
  '[#1]-N-C-[#1]', 'Cl-C-C-Cl', 'N:C-C:C', 'S-C:C-C', 'S-C:C-[#1]', 'S-C:C-N', 'S-C:C-O', 'O=C-C-C',
  'O=C-C-N', 'O=C-C-O', 'N=C-C-C', 'N=C-C-[#1]', 'C-N-C-[#1]', 'O-C:C-C', 'O-C:C-[#1]', 'O-C:C-N', 'O-C:C-O',
  'N-C:C-C', 'N-C:C-[#1]', 'N-C:C-N', 'O-C-C:C', 'N-C-C:C', 'Cl-C-C-C', 'Cl-C-C-O', 'C:C-C:C', 'O=C-C=C',
  'Br-C-C-C', 'N=C-C=C', 'C=C-C-C', 'N:C-O-[#1]', 'O=N-C:C', 'O-C-N-[#1]', 'N-C-N-C', 'Cl-C-C=O', 'Br-C-C=O',
  'O-C-O-C', 'C=C-C=C', 'C:C-O-C', 'O-C-C-N', 'O-C-C-O', 'N#C-C-C', 'N-C-C-N', 'C:C-C-C', '[#1]-C-O-[#1]',
  'N:C:N:C', 'O-C-C=C', 'O-C-C:C-C', 'O-C-C:C-O', 'N=C-C:C-[#1]', 'C:C-N-C:C', 'C-C:C-C:C', 'O=C-C-C-C',
  'O=C-C-C-N', 'O=C-C-C-O', 'C-C-C-C-C', 'Cl-C:C-O-C', 'C:C-C=C-C', 'C-C:C-N-C', 'C-S-C-C-C', 'N-C:C-O-[#1]',
  'O=C-C-C=O', 'C-C:C-O-C', 'C-C:C-O-[#1]', 'Cl-C-C-C-C', 'N-C-C-C-C', 'N-C-C-C-N', 'C-O-C-C=C', 'C:C-C-C-C',
  'N=C-N-C-C', 'O=C-C-C:C', 'Cl-C:C:C-C', '[#1]-C-C=C-[#1]', 'N-C:C:C-C', 'N-C:C:C-N', 'O=C-C-N-C',
  'C-C:C:C-C', 'C-O-C-C:C', 'O=C-C-O-C', 'O-C:C-C-C', 'N-C-C-C:C', 'C-C-C-C:C', 'Cl-C-C-N-C', 'C-O-C-O-C',
  'N-C-C-N-C', 'N-C-O-C-C', 'C-N-C-C-C', 'C-C-O-C-C', 'N-C-C-O-C', 'C:C:N:N:C', 'C-C-C-O-[#1]', 'C:C-C-C:C',
  'O-C-C=C-C', 'C:C-O-C-C', 'N-C:C:C:N', 'O=C-O-C:C', 'O=C-C:C-C', 'O=C-C:C-N', 'O=C-C:C-O', 'C-O-C:C-C',
  'O=[As]-C:C:C', 'C-N-C-C:C', 'S-C:C:C-N', 'O-C:C-O-C', 'O-C:C-O-[#1]', 'C-C-O-C:C', 'N-C-C:C-C',
  'C-C-C:C-C', 'N-N-C-N-[#1]', 'C-N-C-N-C', 'O-C-C-C-C', 'O-C-C-C-N', 'O-C-C-C-O', 'C=C-C-C-C', 'O-C-C-C=C',
  'O-C-C-C=O', '[#1]-C-C-N-[#1]', 'C-C=N-N-C', 'O=C-N-C-C', 'O=C-N-C-[#1]', 'O=C-N-C-N', 'O=N-C:C-N',
  'O=N-C:C-O', 'O=C-N-C=O', 'O-C:C:C-C', 'O-C:C:C-N', 'O-C:C:C-O', 'N-C-N-C-C', 'O-C-C-C:C', 'C-C-N-C-C',
  'C-N-C:C-C', 'C-C-S-C-C', 'O-C-C-N-C', 'C-C=C-C-C', 'O-C-O-C-C', 'O-C-C-O-C', 'O-C-C-O-[#1]', 'C-C=C-C=C',
  'N-C:C-C-C', 'C=C-C-O-C', 'C=C-C-O-[#1]', 'C-C:C-C-C', 'Cl-C:C-C=O', 'Br-C:C:C-C', 'O=C-C=C-C',
  'O=C-C=C-[#1]', 'O=C-C=C-N', 'N-C-N-C:C', 'Br-C-C-C:C', 'N#C-C-C-C', 'C-C=C-C:C', 'C-C-C=C-C',
  'C-C-C-C-C-C', 'O-C-C-C-C-C', 'O-C-C-C-C-O', 'O-C-C-C-C-N', 'N-C-C-C-C-C', 'O=C-C-C-C-C', 'O=C-C-C-C-N',
  'O=C-C-C-C-O', 'O=C-C-C-C=O', 'C-C-C-C-C-C-C', 'O-C-C-C-C-C-C', 'O-C-C-C-C-C-O', 'O-C-C-C-C-C-N',
  'O=C-C-C-C-C-C', 'O=C-C-C-C-C-O', 'O=C-C-C-C-C=O', 'O=C-C-C-C-C-N', 'C-C-C-C-C-C-C-C', 'C-C-C-C-C-C(C)-C',
  'O-C-C-C-C-C-C-C', 'O-C-C-C-C-C(C)-C', 'O-C-C-C-C-C-O-C', 'O-C-C-C-C-C(O)-C', 'O-C-C-C-C-C-N-C',
  'O-C-C-C-C-C(N)-C', 'O=C-C-C-C-C-C-C', 'O=C-C-C-C-C(O)-C', 'O=C-C-C-C-C(=O)-C', 'O=C-C-C-C-C(N)-C',
  'C-C(C)-C-C', 'C-C(C)-C-C-C', 'C-C-C(C)-C-C', 'C-C(C)(C)-C-C', 'C-C(C)-C(C)-C',
];

/**
 * Section 7 (bits 713–880): substituted rings. As PubChem matches them, an upper-case atom is any
 * atom of that element, a "-" or unwritten bond between upper-case atoms single or aromatic, and
 * lower-case atoms aromatic ones joined by aromatic bonds (so the cyclohexane patterns also match
 * benzene rings). Bit 876 is a four-membered ring as the definition prints it.
 */
// prettier-ignore
export const COMPLEX_PATTERNS = [
  'Cc1ccc(C)cc1', 'Cc1ccc(O)cc1', 'Cc1ccc(S)cc1', 'Cc1ccc(N)cc1', 'Cc1ccc(Cl)cc1', 'Cc1ccc(Br)cc1',
  'Oc1ccc(O)cc1', 'Oc1ccc(S)cc1', 'Oc1ccc(N)cc1', 'Oc1ccc(Cl)cc1', 'Oc1ccc(Br)cc1', 'Sc1ccc(S)cc1',
  'Sc1ccc(N)cc1', 'Sc1ccc(Cl)cc1', 'Sc1ccc(Br)cc1', 'Nc1ccc(N)cc1', 'Nc1ccc(Cl)cc1', 'Nc1ccc(Br)cc1',
  'Clc1ccc(Cl)cc1', 'Clc1ccc(Br)cc1', 'Brc1ccc(Br)cc1', 'Cc1cc(C)ccc1', 'Cc1cc(O)ccc1', 'Cc1cc(S)ccc1',
  'Cc1cc(N)ccc1', 'Cc1cc(Cl)ccc1', 'Cc1cc(Br)ccc1', 'Oc1cc(O)ccc1', 'Oc1cc(S)ccc1', 'Oc1cc(N)ccc1',
  'Oc1cc(Cl)ccc1', 'Oc1cc(Br)ccc1', 'Sc1cc(S)ccc1', 'Sc1cc(N)ccc1', 'Sc1cc(Cl)ccc1', 'Sc1cc(Br)ccc1',
  'Nc1cc(N)ccc1', 'Nc1cc(Cl)ccc1', 'Nc1cc(Br)ccc1', 'Clc1cc(Cl)ccc1', 'Clc1cc(Br)ccc1', 'Brc1cc(Br)ccc1',
  'Cc1c(C)cccc1', 'Cc1c(O)cccc1', 'Cc1c(S)cccc1', 'Cc1c(N)cccc1', 'Cc1c(Cl)cccc1', 'Cc1c(Br)cccc1',
  'Oc1c(O)cccc1', 'Oc1c(S)cccc1', 'Oc1c(N)cccc1', 'Oc1c(Cl)cccc1', 'Oc1c(Br)cccc1', 'Sc1c(S)cccc1',
  'Sc1c(N)cccc1', 'Sc1c(Cl)cccc1', 'Sc1c(Br)cccc1', 'Nc1c(N)cccc1', 'Nc1c(Cl)cccc1', 'Nc1c(Br)cccc1',
  'Clc1c(Cl)cccc1', 'Clc1c(Br)cccc1', 'Brc1c(Br)cccc1', 'CC1CCC(C)CC1', 'CC1CCC(O)CC1', 'CC1CCC(S)CC1',
  'CC1CCC(N)CC1', 'CC1CCC(Cl)CC1', 'CC1CCC(Br)CC1', 'OC1CCC(O)CC1', 'OC1CCC(S)CC1', 'OC1CCC(N)CC1',
  'OC1CCC(Cl)CC1', 'OC1CCC(Br)CC1', 'SC1CCC(S)CC1', 'SC1CCC(N)CC1', 'SC1CCC(Cl)CC1', 'SC1CCC(Br)CC1',
  'NC1CCC(N)CC1', 'NC1CCC(Cl)CC1', 'NC1CCC(Br)CC1', 'ClC1CCC(Cl)CC1', 'ClC1CCC(Br)CC1', 'BrC1CCC(Br)CC1',
  'CC1CC(C)CCC1', 'CC1CC(O)CCC1', 'CC1CC(S)CCC1', 'CC1CC(N)CCC1', 'CC1CC(Cl)CCC1', 'CC1CC(Br)CCC1',
  'OC1CC(O)CCC1', 'OC1CC(S)CCC1', 'OC1CC(N)CCC1', 'OC1CC(Cl)CCC1', 'OC1CC(Br)CCC1', 'SC1CC(S)CCC1',
  'SC1CC(N)CCC1', 'SC1CC(Cl)CCC1', 'SC1CC(Br)CCC1', 'NC1CC(N)CCC1', 'NC1CC(Cl)CCC1', 'NC1CC(Br)CCC1',
  'ClC1CC(Cl)CCC1', 'ClC1CC(Br)CCC1', 'BrC1CC(Br)CCC1', 'CC1C(C)CCCC1', 'CC1C(O)CCCC1', 'CC1C(S)CCCC1',
  'CC1C(N)CCCC1', 'CC1C(Cl)CCCC1', 'CC1C(Br)CCCC1', 'OC1C(O)CCCC1', 'OC1C(S)CCCC1', 'OC1C(N)CCCC1',
  'OC1C(Cl)CCCC1', 'OC1C(Br)CCCC1', 'SC1C(S)CCCC1', 'SC1C(N)CCCC1', 'SC1C(Cl)CCCC1', 'SC1C(Br)CCCC1',
  'NC1C(N)CCCC1', 'NC1C(Cl)CCCC1', 'NC1C(Br)CCCC1', 'ClC1C(Cl)CCCC1', 'ClC1C(Br)CCCC1', 'BrC1C(Br)CCCC1',
  'CC1CC(C)CC1', 'CC1CC(O)CC1', 'CC1CC(S)CC1', 'CC1CC(N)CC1', 'CC1CC(Cl)CC1', 'CC1CC(Br)CC1', 'OC1CC(O)CC1',
  'OC1CC(S)CC1', 'OC1CC(N)CC1', 'OC1CC(Cl)CC1', 'OC1CC(Br)CC1', 'SC1CC(S)CC1', 'SC1CC(N)CC1', 'SC1CC(Cl)CC1',
  'SC1CC(Br)CC1', 'NC1CC(N)CC1', 'NC1CC(Cl)CC1', 'NC1CC(Br)CC1', 'ClC1CC(Cl)CC1', 'ClC1CC(Br)CC1',
  'BrC1CC(Br)CC1', 'CC1C(C)CCC1', 'CC1C(O)CCC1', 'CC1C(S)CCC1', 'CC1C(N)CCC1', 'CC1C(Cl)CCC1',
  'CC1C(Br)CCC1', 'OC1C(O)CCC1', 'OC1C(S)CCC1', 'OC1C(N)CCC1', 'OC1C(Cl)CCC1', 'OC1C(Br)CCC1', 'SC1C(S)CCC1',
  'SC1C(N)CCC1', 'SC1C(Cl)CCC1', 'SC1C(Br)CCC1', 'NC1C(N)CCC1', 'NC1C(Cl)CC1', 'NC1C(Br)CCC1',
  'ClC1C(Cl)CCC1', 'ClC1C(Br)CCC1', 'BrC1C(Br)CCC1',
];
