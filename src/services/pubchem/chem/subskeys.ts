/**
 * PubChem's 881 substructure keys ("PubChem Substructure Fingerprint" V1.3, the keys CACTVS
 * computes for PubChem and PubChem stores as PUBCHEM_CACTVS_SUBSKEYS), computed on RDKit for
 * queries and for records without the stored tag.
 *
 * RDKit gives the graph (Kekulé bond orders, hydrogen counts, formal charges, smallest rings); the
 * rest is done here, because the keys depend on how CACTVS sees a molecule more than on the
 * definition's wording:
 * - hydrogens are atoms: counted in section 1 and matched by patterns that name them;
 * - rings are the extended SSSR: the smallest rings plus, for each ring atom, the shortest ring
 *   through two of its ring bonds that no ring yet holds together (naphthalene's envelope);
 * - aromaticity is decided here, not taken from RDKit: a ring is aromatic when it has 4n + 2 pi
 *   electrons and some Kekulé structure keeps all of its double bonds inside it, so pyridones,
 *   uracils, coumarins and quinoid rings are not aromatic (RDKit says they are) and every ring
 *   of pyrene is;
 * - the definition's notation is read the way PubChem's keys show it was matched (see the notes
 *   in subskeys/tables.ts, and docs/compatibility.md for what is known to differ). Its patterns
 *   are compiled once into small query graphs (subskeys/patterns.ts) and matched there, not as
 *   RDKit query molecules (which would bring RDKit's aromaticity and hydrogen handling, and cost
 *   a WASM call each); the graph, its rings and aromaticity are in subskeys/molecule.ts.
 *
 * Bytes: key k is bit 7 - (k & 7) of byte k >> 3, the 111 bytes that follow the 4-byte length in
 * PubChem's base64 tag.
 */
import { parseMol, type Mol, type RDKit } from './rdkit.js';
import { aromaticRing, inc, ringBondsOf, targetOf, type Target } from './subskeys/molecule.js';
import { compiled, matches, reserveScratch } from './subskeys/patterns.js';
import { RING_COUNTS } from './subskeys/tables.js';

export const SUBSKEYS_BITS = 881;
export const SUBSKEYS_BYTES = 111;

// ---------------------------------------------------------------------------------------------
// The keys.

function setBit(out: Uint8Array, k: number): void {
  out[k >> 3] = (out[k >> 3] as number) | (0x80 >> (k & 7));
}

function keyBit(keys: Uint8Array, k: number): boolean {
  return ((((keys[k >> 3] ?? 0) as number) >> (7 - (k & 7))) & 1) === 1;
}

/**
 * Section 2. Saturated means every ring bond single or aromatic; unsaturated non-aromatic means a
 * ring with a double or triple bond that is not all aromatic. PubChem sets the unsaturated bits
 * for carbon-only rings only: the nitrogen- and heteroatom-containing unsaturated bits stay 0.
 */
function ringBits(t: Target, out: Uint8Array): void {
  // counts[size][kind]: 0 any; 1–3 saturated or aromatic (carbon only, with N, with a
  // heteroatom); 4 unsaturated non-aromatic carbon only.
  const counts = Array.from({ length: 11 }, () => new Int32Array(7));
  let aromatic = 0;
  let heteroAromatic = 0;
  for (const r of t.rings) {
    const size = r.length;
    let carbonOnly = true;
    let nitrogen = false;
    let allAromatic = true;
    let saturated = true;
    for (const a of r) {
      if (t.z[a] !== 6) carbonOnly = false;
      if (t.z[a] === 7) nitrogen = true;
    }
    for (const b of ringBondsOf(t, r)) {
      if (!t.bondArom[b]) {
        allAromatic = false;
        if (t.order[b] !== 1) saturated = false;
      }
    }
    if (allAromatic && aromaticRing(t, r)) {
      aromatic++;
      if (!carbonOnly) heteroAromatic++;
    }
    if (size > 10) continue;
    const c = counts[size] as Int32Array;
    inc(c, 0);
    if (saturated) {
      if (carbonOnly) inc(c, 1);
      else {
        inc(c, 3);
        if (nitrogen) inc(c, 2);
      }
    } else if (carbonOnly) inc(c, 4);
  }
  let bit = 115;
  for (const [size, thresholds] of RING_COUNTS) {
    const c = counts[size] as Int32Array;
    for (const k of thresholds) {
      for (let kind = 0; kind < 7; kind++) if ((c[kind] as number) >= k) setBit(out, bit + kind);
      bit += 7;
    }
  }
  for (let k = 1; k <= 4; k++) {
    if (aromatic >= k) setBit(out, 255 + 2 * (k - 1));
    if (heteroAromatic >= k) setBit(out, 256 + 2 * (k - 1));
  }
}

/**
 * The 881 keys of a molecule, as 111 bytes (key k is bit 7 - (k & 7) of byte k >> 3). A molecule
 * RDKit cannot describe, or an empty one, has no keys set.
 */
export function subskeysOf(mol: Mol): Uint8Array {
  const out = new Uint8Array(SUBSKEYS_BYTES);
  let t: Target;
  try {
    t = targetOf(mol.get_json());
  } catch {
    return out;
  }
  if (t.n === 0 && t.elements.size === 0) return out;
  const { elements, patterns } = compiled();
  reserveScratch(t.n);
  for (const [bit, z, c] of elements) if ((t.elements.get(z) ?? 0) >= c) setBit(out, bit);
  ringBits(t, out);
  for (const [bit, q] of patterns) if (matches(q, t)) setBit(out, bit);
  // PubChem sets S(-O)(=O) for every S(=O)(=O), sulfones included.
  if (keyBit(out, 459)) setBit(out, 458);
  return out;
}

/** The keys of a SMILES (or a molfile, or anything else RDKit reads), or undefined when unreadable. */
export function subskeysOfText(r: RDKit, text: string): Uint8Array | undefined {
  const mol = parseMol(r, text);
  if (!mol) return undefined;
  try {
    return subskeysOf(mol);
  } finally {
    mol.delete();
  }
}
