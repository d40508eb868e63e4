/**
 * GENERATED PubChem substructure keys (881 bits) for the key-file benchmark and tests. Nothing
 * here is real PubChem data: CIDs start at GENERATED_CID_BASE + 1, far past every CID PubChem has
 * issued, and the keys come from a model shaped like PubChem's key sections
 * (pubchem_fingerprints.txt), so that popcounts, bit frequencies and correlations look alike:
 *
 * - a compound is a list of fragments (ring systems, linkers, substituents; a few large ones such
 *   as peptides), each with its atoms, rings and a fixed set of pattern bits;
 * - section 1 (bits 0-114) is computed from the element counts, nested as PubChem's are (>= 2 C
 *   implies >= 1 C... the >= 4 C bit is set only with the >= 2 C one); section 2 (115-262) from
 *   the rings, nested by count per ring size and kind;
 * - sections 3-7 (263-880): each fragment's pattern bits (drawn once, with a Zipf-like popularity
 *   so that some bits are in most compounds and most are rare), element-pair bits, bits for each
 *   pair of joined fragments, size bits nested by heavy-atom count, and a little noise;
 * - compounds come in families (analog series, as deposited): members vary a prototype by swapping,
 *   adding or dropping substituents, so near neighbours exist as they do in PubChem.
 *
 * The n-th compound depends only on (seed, n): runs are repeatable and nothing is held in memory.
 */

export const GENERATED_CID_BASE = 900_000_000;
export const KEY_BYTES = 112;

/** splitmix32: small, fast, good enough for a model. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

const setBit = (k: Uint8Array, bit: number) => {
  k[bit >> 3] = (k[bit >> 3] as number) | (0x80 >> (bit & 7));
};

// Section 1: element count thresholds and their first bit, as in PubChem's keys.
const ELEMENT_BITS: [string, number[], number][] = [
  ['H', [4, 8, 16, 32], 0],
  ['Li', [1, 2], 4],
  ['B', [1, 2, 4], 6],
  ['C', [2, 4, 8, 16, 32], 9],
  ['N', [1, 2, 4, 8], 14],
  ['O', [1, 2, 4, 8, 16], 18],
  ['F', [1, 2, 4], 23],
  ['Na', [1, 2], 26],
  ['Si', [1, 2], 28],
  ['P', [1, 2, 4], 30],
  ['S', [1, 2, 4, 8], 33],
  ['Cl', [1, 2, 4, 8], 37],
  ['K', [1, 2], 41],
  ['Br', [1, 2, 4], 43],
  ['I', [1, 2, 4], 46],
];
const ELEMENTS = ELEMENT_BITS.map(([e]) => e);
const EL = new Map(ELEMENTS.map((e, i) => [e, i]));
/** Bits 49-114: one "at least one" bit per rarer element. */
const RARE_ELEMENT_BITS = [49, 115];

// Section 2: rings. Kinds: 0 any, 1 saturated/aromatic C-only, 2 .. N-containing, 3 .. heteroatom-
// containing, 4 unsaturated non-aromatic C-only, 5 .. N-containing, 6 .. heteroatom-containing.
const RING_SIZES: [number, number][] = [
  [3, 2],
  [4, 2],
  [5, 3],
  [6, 5],
  [7, 2],
  [8, 2],
  [9, 1],
  [10, 1],
];
const RING_BASE = new Map<number, number>();
{
  let b = 115;
  for (const [size, max] of RING_SIZES) {
    RING_BASE.set(size, b);
    b += max * 7;
  }
}
const AROMATIC_BITS = 241; // >= 1..4 aromatic rings
const HETEROAROMATIC_BITS = 245; // >= 1..4 heteroaromatic rings
const RING_TOTAL_BITS = 249; // >= 1..14 rings
const PAIR_BITS = 263; // element pairs: C-H C-C C-N C-O C-S C-F C-Cl C-Br C-I N-H O-H N-O S-O P-O
const PAIRS: [string, string][] = [
  ['C', 'H'],
  ['C', 'C'],
  ['C', 'N'],
  ['C', 'O'],
  ['C', 'S'],
  ['C', 'F'],
  ['C', 'Cl'],
  ['C', 'Br'],
  ['C', 'I'],
  ['N', 'H'],
  ['O', 'H'],
  ['N', 'O'],
  ['S', 'O'],
  ['P', 'O'],
];
const SIZE_BITS = 460; // heavy atoms >= 6, 9, 12, 16, 20, 25, 30, 40 (chain-like SMARTS)
const SIZES = [6, 9, 12, 16, 20, 25, 30, 40];
/** Bits fragments draw their patterns from: sections 3-5 and 6-7, minus the ones above. */
const LOW = { from: PAIR_BITS + PAIRS.length, to: 460 };
const HIGH = { from: SIZE_BITS + SIZES.length, to: 881 };

type RingKind = 'aromC' | 'aromN' | 'aromHet' | 'satC' | 'satN' | 'satHet' | 'unsatC';
interface Fragment {
  name: string;
  atoms: string;
  rings: [number, RingKind][];
  role: 'ring' | 'link' | 'sub' | 'residue';
  weight: number;
}

// Common medicinal-chemistry fragments; weights are relative frequencies within a role.
const FRAGMENTS: Fragment[] = [
  { name: 'benzene', atoms: 'C6H4', rings: [[6, 'aromC']], role: 'ring', weight: 40 },
  { name: 'pyridine', atoms: 'C5H3N', rings: [[6, 'aromN']], role: 'ring', weight: 9 },
  { name: 'pyrimidine', atoms: 'C4H2N2', rings: [[6, 'aromN']], role: 'ring', weight: 5 },
  { name: 'thiophene', atoms: 'C4H2S', rings: [[5, 'aromHet']], role: 'ring', weight: 4 },
  { name: 'furan', atoms: 'C4H2O', rings: [[5, 'aromHet']], role: 'ring', weight: 3 },
  { name: 'imidazole', atoms: 'C3H2N2', rings: [[5, 'aromN']], role: 'ring', weight: 3 },
  { name: 'pyrazole', atoms: 'C3H2N2', rings: [[5, 'aromN']], role: 'ring', weight: 3 },
  { name: 'triazole', atoms: 'C2HN3', rings: [[5, 'aromN']], role: 'ring', weight: 2 },
  { name: 'tetrazole', atoms: 'CHN4', rings: [[5, 'aromN']], role: 'ring', weight: 1 },
  { name: 'oxadiazole', atoms: 'C2N2O', rings: [[5, 'aromN']], role: 'ring', weight: 1 },
  { name: 'thiazole', atoms: 'C3HNS', rings: [[5, 'aromN']], role: 'ring', weight: 2 },
  {
    name: 'indole',
    atoms: 'C8H5N',
    rings: [
      [6, 'aromC'],
      [5, 'aromN'],
    ],
    role: 'ring',
    weight: 4,
  },
  {
    name: 'quinoline',
    atoms: 'C9H5N',
    rings: [
      [6, 'aromC'],
      [6, 'aromN'],
    ],
    role: 'ring',
    weight: 3,
  },
  {
    name: 'benzimidazole',
    atoms: 'C7H4N2',
    rings: [
      [6, 'aromC'],
      [5, 'aromN'],
    ],
    role: 'ring',
    weight: 2,
  },
  {
    name: 'naphthalene',
    atoms: 'C10H6',
    rings: [
      [6, 'aromC'],
      [6, 'aromC'],
    ],
    role: 'ring',
    weight: 2,
  },
  {
    name: 'coumarin',
    atoms: 'C9H4O2',
    rings: [
      [6, 'aromC'],
      [6, 'aromHet'],
    ],
    role: 'ring',
    weight: 1,
  },
  { name: 'piperidine', atoms: 'C5H9N', rings: [[6, 'satN']], role: 'ring', weight: 6 },
  { name: 'piperazine', atoms: 'C4H8N2', rings: [[6, 'satN']], role: 'ring', weight: 5 },
  { name: 'morpholine', atoms: 'C4H8NO', rings: [[6, 'satN']], role: 'ring', weight: 4 },
  { name: 'pyrrolidine', atoms: 'C4H7N', rings: [[5, 'satN']], role: 'ring', weight: 4 },
  { name: 'cyclohexane', atoms: 'C6H10', rings: [[6, 'satC']], role: 'ring', weight: 3 },
  { name: 'cyclopentane', atoms: 'C5H8', rings: [[5, 'satC']], role: 'ring', weight: 1 },
  { name: 'cyclopropane', atoms: 'C3H4', rings: [[3, 'satC']], role: 'ring', weight: 2 },
  { name: 'azetidine', atoms: 'C3H5N', rings: [[4, 'satN']], role: 'ring', weight: 1 },
  { name: 'oxetane', atoms: 'C3H4O', rings: [[4, 'satHet']], role: 'ring', weight: 0.5 },
  { name: 'tetrahydrofuran', atoms: 'C4H6O', rings: [[5, 'satHet']], role: 'ring', weight: 1 },
  { name: 'lactam', atoms: 'C4H5NO', rings: [[5, 'satN']], role: 'ring', weight: 2 },
  { name: 'cyclohexene', atoms: 'C6H8', rings: [[6, 'unsatC']], role: 'ring', weight: 1 },
  { name: 'azepane', atoms: 'C6H11N', rings: [[7, 'satN']], role: 'ring', weight: 0.5 },
  { name: 'sugar', atoms: 'C6H10O5', rings: [[6, 'satHet']], role: 'ring', weight: 1 },
  {
    name: 'steroid',
    atoms: 'C17H26',
    rings: [
      [6, 'satC'],
      [6, 'satC'],
      [6, 'satC'],
      [5, 'satC'],
    ],
    role: 'ring',
    weight: 0.6,
  },
  { name: 'macrocycle', atoms: 'C10H16O2', rings: [[10, 'satHet']], role: 'ring', weight: 0.2 },
  { name: 'amide', atoms: 'CHNO', rings: [], role: 'link', weight: 10 },
  { name: 'methylene', atoms: 'CH2', rings: [], role: 'link', weight: 6 },
  { name: 'ethylene', atoms: 'C2H4', rings: [], role: 'link', weight: 3 },
  { name: 'ether', atoms: 'O', rings: [], role: 'link', weight: 4 },
  { name: 'amine', atoms: 'NH', rings: [], role: 'link', weight: 4 },
  { name: 'sulfonamide', atoms: 'HNO2S', rings: [], role: 'link', weight: 3 },
  { name: 'urea', atoms: 'CH2N2O', rings: [], role: 'link', weight: 2 },
  { name: 'ester', atoms: 'CO2', rings: [], role: 'link', weight: 2 },
  { name: 'ketone', atoms: 'CO', rings: [], role: 'link', weight: 2 },
  { name: 'thioether', atoms: 'S', rings: [], role: 'link', weight: 1 },
  { name: 'carbamate', atoms: 'CHNO2', rings: [], role: 'link', weight: 1 },
  { name: 'direct', atoms: '', rings: [], role: 'link', weight: 4 },
  { name: 'methyl', atoms: 'CH3', rings: [], role: 'sub', weight: 12 },
  { name: 'ethyl', atoms: 'C2H5', rings: [], role: 'sub', weight: 4 },
  { name: 'isopropyl', atoms: 'C3H7', rings: [], role: 'sub', weight: 2 },
  { name: 'tert-butyl', atoms: 'C4H9', rings: [], role: 'sub', weight: 2 },
  { name: 'fluoro', atoms: 'F', rings: [], role: 'sub', weight: 7 },
  { name: 'chloro', atoms: 'Cl', rings: [], role: 'sub', weight: 7 },
  { name: 'bromo', atoms: 'Br', rings: [], role: 'sub', weight: 3 },
  { name: 'iodo', atoms: 'I', rings: [], role: 'sub', weight: 0.7 },
  { name: 'trifluoromethyl', atoms: 'CF3', rings: [], role: 'sub', weight: 3 },
  { name: 'methoxy', atoms: 'CH3O', rings: [], role: 'sub', weight: 7 },
  { name: 'hydroxy', atoms: 'HO', rings: [], role: 'sub', weight: 6 },
  { name: 'amino', atoms: 'H2N', rings: [], role: 'sub', weight: 4 },
  { name: 'dimethylamino', atoms: 'C2H6N', rings: [], role: 'sub', weight: 2 },
  { name: 'nitro', atoms: 'NO2', rings: [], role: 'sub', weight: 2 },
  { name: 'nitrile', atoms: 'CN', rings: [], role: 'sub', weight: 2 },
  { name: 'carboxylic acid', atoms: 'CHO2', rings: [], role: 'sub', weight: 3 },
  { name: 'carboxamide', atoms: 'CH2NO', rings: [], role: 'sub', weight: 2 },
  { name: 'acetyl', atoms: 'C2H3O', rings: [], role: 'sub', weight: 2 },
  { name: 'methylsulfonyl', atoms: 'CH3O2S', rings: [], role: 'sub', weight: 1 },
  { name: 'thiol', atoms: 'HS', rings: [], role: 'sub', weight: 0.5 },
  { name: 'phosphate', atoms: 'H2O4P', rings: [], role: 'sub', weight: 0.5 },
  { name: 'trimethylsilyl', atoms: 'C3H9Si', rings: [], role: 'sub', weight: 0.2 },
  { name: 'boronic acid', atoms: 'H2BO2', rings: [], role: 'sub', weight: 0.2 },
  { name: 'glycine', atoms: 'C2H3NO', rings: [], role: 'residue', weight: 3 },
  { name: 'alanine', atoms: 'C3H5NO', rings: [], role: 'residue', weight: 3 },
  { name: 'serine', atoms: 'C3H5NO2', rings: [], role: 'residue', weight: 2 },
  { name: 'leucine', atoms: 'C6H11NO', rings: [], role: 'residue', weight: 3 },
  { name: 'lysine', atoms: 'C6H12N2O', rings: [], role: 'residue', weight: 2 },
  { name: 'aspartate', atoms: 'C4H5NO3', rings: [], role: 'residue', weight: 2 },
  { name: 'phenylalanine', atoms: 'C9H9NO', rings: [[6, 'aromC']], role: 'residue', weight: 2 },
  { name: 'cysteine', atoms: 'C3H5NOS', rings: [], role: 'residue', weight: 1 },
  {
    name: 'tryptophan',
    atoms: 'C11H10N2O',
    rings: [
      [6, 'aromC'],
      [5, 'aromN'],
    ],
    role: 'residue',
    weight: 1,
  },
  { name: 'proline', atoms: 'C5H7NO', rings: [[5, 'satN']], role: 'residue', weight: 2 },
];

interface Prepared {
  counts: Int32Array;
  heavy: number;
  /** Pattern bits as 32-bit words (OR-ed word by word: 28 operations a fragment). */
  mask: Int32Array;
}

function parseAtoms(s: string): Int32Array {
  const counts = new Int32Array(ELEMENTS.length);
  for (const m of s.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
    const i = EL.get(m[1] as string);
    if (i === undefined) throw new Error(`unknown element ${m[1]}`);
    counts[i] = (counts[i] as number) + (m[2] ? Number(m[2]) : 1);
  }
  return counts;
}

/** Zipf-like draw of a bit in [from, to): a fixed scramble makes popular bits spread over the range. */
function zipfBit(r: () => number, range: { from: number; to: number }, salt: number): number {
  const n = range.to - range.from;
  const rank = Math.min(n - 1, Math.floor(Math.pow(n + 1, r()) - 1));
  return range.from + ((rank * 7919 + salt * 104729) % n);
}

const PREPARED: Prepared[] = FRAGMENTS.map((f, i) => {
  const counts = parseAtoms(f.atoms);
  let heavy = 0;
  counts.forEach((c, e) => (heavy += e === 0 ? 0 : c));
  const mask = new Uint8Array(KEY_BYTES);
  const r = rng(0x5eed + i * 7717);
  // Larger fragments match more patterns; about a third of them among atom pairs and neighbourhoods.
  const bits = Math.min(100, 14 + Math.round(5 * heavy + 8 * f.rings.length));
  for (let b = 0; b < bits; b++) setBit(mask, r() < 0.35 ? zipfBit(r, LOW, 1) : zipfBit(r, HIGH, 2));
  return { counts, heavy, mask: new Int32Array(mask.buffer) };
});
interface Role {
  ids: number[];
  /** Cumulative weights. */
  cum: number[];
}
function byRole(role: Fragment['role']): Role {
  const ids = FRAGMENTS.flatMap((f, i) => (f.role === role ? [i] : []));
  let total = 0;
  return { ids, cum: ids.map((i) => (total += (FRAGMENTS[i] as Fragment).weight)) };
}
const ROLES = { ring: byRole('ring'), link: byRole('link'), sub: byRole('sub'), residue: byRole('residue') };
const IS_SUB = FRAGMENTS.map((f) => f.role === 'sub');
const RING_KINDS = FRAGMENTS.map((f) =>
  f.rings.map(([size, kind]) => {
    // A ring counts as "any", and as its kind; N-containing rings are heteroatom-containing too.
    const kinds = [0];
    if (kind === 'aromC' || kind === 'satC') kinds.push(1);
    if (kind === 'aromN' || kind === 'satN') kinds.push(2, 3);
    if (kind === 'aromHet' || kind === 'satHet') kinds.push(3);
    if (kind === 'unsatC') kinds.push(4);
    return { size, kinds, aromatic: kind.startsWith('arom'), hetero: kind === 'aromN' || kind === 'aromHet' };
  }),
);
const PAIR_EL = PAIRS.map(([a, b]) => [EL.get(a) as number, EL.get(b) as number, a === b ? 1 : 0] as const);

function pick(r: () => number, role: Role): number {
  const x = r() * (role.cum[role.cum.length - 1] as number);
  for (let j = 0; j < role.cum.length; j++) if (x < (role.cum[j] as number)) return role.ids[j] as number;
  return role.ids[role.ids.length - 1] as number;
}

/** Bits for two joined fragments (patterns that span the bond), cached by pair. */
const junctions = new Map<number, number[]>();
function junction(a: number, b: number): number[] {
  const key = a * 1024 + b;
  let bits = junctions.get(key);
  if (!bits) {
    const r = rng(0x10ca1 + key * 31);
    bits = [zipfBit(r, LOW, 3), zipfBit(r, LOW, 4), zipfBit(r, HIGH, 5), zipfBit(r, HIGH, 6), zipfBit(r, HIGH, 7), zipfBit(r, HIGH, 8)];
    junctions.set(key, bits);
  }
  return bits;
}

/** A prototype: the fragment list of a family, in bond order. */
function prototype(r: () => number): number[] {
  const x = r();
  const out: number[] = [];
  if (x < 0.04) {
    // Peptides and other long chains: the long tail of popcounts.
    const n = 4 + Math.floor(r() * 16);
    for (let i = 0; i < n; i++) out.push(pick(r, ROLES.residue));
    return out;
  }
  if (x < 0.12) {
    // Small molecules: reagents, salts, solvents.
    out.push(r() < 0.7 ? pick(r, ROLES.ring) : pick(r, ROLES.sub));
    if (r() < 0.6) out.push(pick(r, ROLES.sub));
    return out;
  }
  const y = r();
  const rings = y < 0.25 ? 1 : y < 0.65 ? 2 : y < 0.88 ? 3 : y < 0.97 ? 4 : 5;
  for (let i = 0; i < rings; i++) {
    if (i > 0) out.push(pick(r, ROLES.link));
    out.push(pick(r, ROLES.ring));
  }
  const subs = Math.floor(r() * 5);
  for (let i = 0; i < subs; i++) out.push(pick(r, ROLES.sub));
  return out;
}

/** A family member: the prototype with substituents swapped, added or dropped, and alkyl length. */
function member(r: () => number, proto: number[]): { frags: number[]; extraC: number } {
  const frags = proto.slice();
  const subAt = () => {
    let n = 0;
    for (const f of frags) if (IS_SUB[f]) n++;
    if (n === 0) return -1;
    let j = Math.floor(r() * n);
    for (let i = 0; i < frags.length; i++) if (IS_SUB[frags[i] as number] && j-- === 0) return i;
    return -1;
  };
  if (r() < 0.6) {
    const at = subAt();
    if (at >= 0) frags[at] = pick(r, ROLES.sub);
    else frags.push(pick(r, ROLES.sub));
  }
  if (r() < 0.25) frags.push(pick(r, ROLES.sub));
  if (r() < 0.15) {
    const at = subAt();
    if (at >= 0) frags.splice(at, 1);
  }
  return { frags, extraC: r() < 0.5 ? 0 : Math.floor(r() * 4) };
}

const counts = new Int32Array(ELEMENTS.length);
/** Rings by size (0..10) and kind (0..6): index size * 8 + kind. */
const ringCount = new Int32Array(11 * 8);
const C = EL.get('C') as number;
const H = EL.get('H') as number;

/** Writes the keys of a compound made of `frags` into `k` (zeroed first). */
export function keysOf(frags: number[], extraC: number, k: Uint8Array, noise: () => number = () => 1): void {
  const kw = new Int32Array(k.buffer, k.byteOffset, KEY_BYTES / 4);
  kw.fill(0);
  counts.fill(0);
  ringCount.fill(0);
  let heavy = extraC;
  let aromatic = 0;
  let heteroAromatic = 0;
  let rings = 0;
  for (let i = 0; i < frags.length; i++) {
    const f = frags[i] as number;
    const p = PREPARED[f] as Prepared;
    for (let e = 0; e < counts.length; e++) counts[e] = (counts[e] as number) + (p.counts[e] as number);
    heavy += p.heavy;
    for (let w = 0; w < kw.length; w++) kw[w] = (kw[w] as number) | (p.mask[w] as number);
    if (i > 0) for (const bit of junction(frags[i - 1] as number, f)) setBit(k, bit);
    for (const ring of RING_KINDS[f] as (typeof RING_KINDS)[number]) {
      rings++;
      if (ring.aromatic) aromatic++;
      if (ring.hetero) heteroAromatic++;
      for (const kd of ring.kinds) ringCount[ring.size * 8 + kd] = (ringCount[ring.size * 8 + kd] as number) + 1;
    }
  }
  counts[C] = (counts[C] as number) + extraC;
  counts[H] = (counts[H] as number) + 2 * extraC + 2;
  for (let e = 0; e < ELEMENT_BITS.length; e++) {
    const [, thresholds, first] = ELEMENT_BITS[e] as [string, number[], number];
    const n = counts[e] as number;
    for (let j = 0; j < thresholds.length && n >= (thresholds[j] as number); j++) setBit(k, first + j);
  }
  for (const [size, max] of RING_SIZES) {
    for (let kind = 0; kind < 7; kind++) {
      const n = Math.min(ringCount[size * 8 + kind] as number, max);
      for (let t = 1; t <= n; t++) setBit(k, (RING_BASE.get(size) as number) + (t - 1) * 7 + kind);
    }
  }
  for (let t = 1; t <= Math.min(aromatic, 4); t++) setBit(k, AROMATIC_BITS + t - 1);
  for (let t = 1; t <= Math.min(heteroAromatic, 4); t++) setBit(k, HETEROAROMATIC_BITS + t - 1);
  for (let t = 1; t <= Math.min(rings, 14); t++) setBit(k, RING_TOTAL_BITS + t - 1);
  for (let j = 0; j < PAIR_EL.length; j++) {
    const [a, b, same] = PAIR_EL[j] as readonly [number, number, number];
    if ((counts[a] as number) > 0 && (counts[b] as number) > same) setBit(k, PAIR_BITS + j);
  }
  for (let j = 0; j < SIZES.length && heavy >= (SIZES[j] as number); j++) setBit(k, SIZE_BITS + j);
  // Rare elements and odd patterns: a little noise, as real keys have.
  const x = noise();
  if (x < 0.01) setBit(k, (RARE_ELEMENT_BITS[0] as number) + Math.floor(x * 100 * ((RARE_ELEMENT_BITS[1] as number) - (RARE_ELEMENT_BITS[0] as number))));
  else if (x < 0.3) setBit(k, HIGH.from + Math.floor(((x - 0.01) / 0.29) * (HIGH.to - HIGH.from)));
}

/** Family sizes: many singletons, a geometric middle, and a few large combinatorial series. */
function familySize(r: () => number): number {
  const x = r();
  if (x < 0.45) return 1 + Math.floor(r() * 3);
  if (x < 0.97) return 1 + Math.floor(-Math.log(1 - r()) * 20);
  return 100 + Math.floor(r() * 1900);
}

/**
 * `count` generated compounds in CID order. The yielded `keys` buffer is reused: copy it to keep it.
 */
export function* generateKeys(count: number, seed = 1): Generator<{ cid: number; keys: Uint8Array }> {
  const keys = new Uint8Array(KEY_BYTES);
  const fam = rng(seed);
  let n = 0;
  for (let family = 0; n < count; family++) {
    const size = familySize(fam);
    const proto = prototype(rng(seed * 1_000_003 + family));
    const r = rng((seed ^ 0x2545f491) + family * 7);
    for (let i = 0; i < size && n < count; i++) {
      const m = i === 0 ? { frags: proto, extraC: 0 } : member(r, proto);
      keysOf(m.frags, m.extraC, keys, r);
      n++;
      yield { cid: GENERATED_CID_BASE + n, keys };
    }
  }
}

/** Keys of a lone fragment (a substructure query: the fragment with hydrogens), e.g. 'benzene'. */
export function fragmentKeys(name: string): Uint8Array {
  const i = FRAGMENTS.findIndex((f) => f.name === name);
  if (i < 0) throw new Error(`no fragment ${name}`);
  const k = new Uint8Array(KEY_BYTES);
  keysOf([i], 0, k, () => 1);
  return k;
}
