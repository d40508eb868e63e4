/**
 * Drug-like molecules for the PubChem benchmark, built from fragments: a ring system with two or
 * three attachment points, a linker, and substituents. The n-th molecule is always the same (mixed
 * radix over the fragment lists, scrambled), so runs are repeatable. One substituent, benzothiazole,
 * is rare (about one molecule in a thousand): the selective substructure query looks for it.
 */

// Cores: {0} {1} {2} mark attachment points (written as branches so any group fits). Cores close
// rings 1-2, substituents 5-6, so a substituent never closes a core's ring.
const CORES = [
  'c1cc({0})ccc1{1}',
  'c1cc({0})cc({1})c1{2}',
  'c1ccc2c(c1{0})cc({1})[nH]2',
  'c1cc({0})ncc1{1}',
  'c1nc({0})ncc1{1}',
  'C1CC({0})CCN1{1}',
  'C1CN({0})CCN1{1}',
  'c1cc({0})sc1{1}',
  'c1cc({0})oc1{1}',
  'c1cn({0})c({1})n1',
  'O=C1CC({0})CN1{1}',
  'c1ccc2nc({0})oc2c1{1}',
  'c1cc2cc({0})ccc2cc1{1}',
  'C1CCC({0})C({1})C1',
  'c1cc({0})c2ncccc2c1{1}',
  'c1nnc({0})o1',
  'c1cc({0})nn1{1}',
  'C1COC({0})CN1{1}',
  'c1ccc(cc1{0})-c1ccc({1})cc1',
  'O=c1cc({0})oc2ccc({1})cc12',
];
const LINKERS = ['C(=O)N', 'CN', 'O', 'S(=O)(=O)N', 'C(=O)O', 'CC', 'NC(=O)N', 'N', 'C(=O)', 'OCC'];
const GROUPS = [
  'C',
  'CC',
  'C(C)C',
  'C(F)(F)F',
  'Cl',
  'F',
  'Br',
  'OC',
  'O',
  'N',
  'C#N',
  'C(=O)O',
  'C(=O)N',
  'N5CCOCC5',
  'N5CCCC5',
  'N5CCN(C)CC5',
  'c5ccccc5',
  'c5ccc(F)cc5',
  'c5ccc(Cl)cc5',
  'c5ccncc5',
  'C5CC5',
  'C5CCCCC5',
  'OCC',
  'SC',
  'S(C)(=O)=O',
  'N(C)C',
  'CO',
  'CCO',
  'C(=O)C',
  'NC(C)=O',
  'c5ccoc5',
  'c5ccsc5',
  'OC(F)(F)F',
  'CCN(C)C',
  'C[C@H](N)C(=O)O',
  'c5cnc[nH]5',
  'C=C',
  'C#C',
  '[N+](=O)[O-]',
  'CC(C)(C)C',
];
/** The rare substituent the selective substructure query finds. */
export const RARE = 'c5nc6ccccc6s5';
export const RARE_QUERY = 'c1nc2ccccc2s1';

/** A small multiplicative scramble so consecutive CIDs are not near-identical molecules. */
function scramble(n: number): number {
  return Number((BigInt(n) * 2654435761n + 97n) % 4294967291n);
}

export function moleculeFor(i: number): string {
  let x = scramble(i);
  const pick = <T>(list: readonly T[]): T => {
    const v = list[x % list.length] as T;
    x = Math.floor(x / list.length);
    return v;
  };
  const core = pick(CORES);
  const linker = pick(LINKERS);
  const a = pick(GROUPS);
  const b = pick(GROUPS);
  const c = pick([...GROUPS, '']);
  // About one molecule in a thousand carries the rare group on its linker.
  const first = i % 997 === 0 ? RARE : a;
  return core
    .replace('{0}', `${linker}${first}`)
    .replace('{1}', b)
    .replace('{2}', c === '' ? '[H]' : c)
    .replace('([H])', '');
}

/** PubChem's CID-SMILES format (CID, tab, SMILES) for CIDs from..to-1. */
export function cidSmilesLines(from: number, to: number): string {
  const out: string[] = [];
  for (let i = from; i < to; i++) out.push(`${i}\t${moleculeFor(i)}`);
  return out.join('\n') + '\n';
}
