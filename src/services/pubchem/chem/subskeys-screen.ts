/**
 * Which of PubChem's 881 substructure keys a substructure screen may require. A compound matches a
 * query (RDKit's substructure match) only if it holds every key of the query that a larger
 * molecule cannot lose; many keys can be lost, and requiring them would drop real matches:
 *
 * - hydrogens: query hydrogens do not constrain the match (a query CH3 matches a CCl3), so no key
 *   that counts or names H;
 * - rings: the ring set is the compound's own (its smallest rings and their envelopes), and a larger
 *   molecule can hold a query's rings without having them in its set (decalin's 10-ring envelope
 *   is not in the set of a compound that fuses a third ring to it): no ring key of section 2;
 * - aromaticity: PubChem's keys follow CACTVS's model, the match follows RDKit's, and the two
 *   disagree on some rings (pyridones, quinoid rings): no key that needs an aromatic bond (":",
 *   lower-case atoms), and the keys whose "-" and "=" also match aromatic bonds (sections 5 and 6)
 *   only for a query without aromatic rings;
 * - section 7's substituted rings, whose upper-case atoms match across aromatic and single bonds,
 *   are left out for the same reason.
 *
 * What is kept: heavy-element counts, bonded pairs and neighbourhoods of heavy atoms, and (for a query without aromatic rings) bond-order patterns of heavy atoms. The
 * test over real PubChem records (test/pubchem-screen-keys.test.ts) checks that no RDKit match
 * between them loses a kept key.
 */
import { ATOM_PAIRS, DETAILED_NEIGHBOURS, ELEMENT_COUNTS, SIMPLE_NEIGHBOURS, SIMPLE_PATTERNS } from './subskeys/tables.js';

const BYTES = 111;
const AROMATIC_RINGS = [255, 263] as const;
const SECTION3 = 263;
const SECTION4 = 327;
const SECTION5 = 416;
const SECTION6 = 460;

const namesH = (p: string) => /(^|[(~\-=#:])H(\)|$)|\[#1\]/.test(p);
// Sections 4-6 write aromatic bonds as ":" (lower-case atoms appear only in section 7).
const aromatic = (p: string) => p.includes(':');

function bitsOf(list: number[]): Uint8Array {
  const m = new Uint8Array(BYTES);
  for (const k of list) m[k >> 3] = (m[k >> 3] as number) | (0x80 >> (k & 7));
  return m;
}

function always(): number[] {
  const out: number[] = [];
  let k = 0;
  for (const [element, counts] of ELEMENT_COUNTS) {
    for (let i = 0; i < counts.length; i++, k++) if (element !== 'H') out.push(k);
  }
  ATOM_PAIRS.forEach((p, i) => !namesH(p) && out.push(SECTION3 + i));
  SIMPLE_NEIGHBOURS.forEach((p, i) => !namesH(p) && !aromatic(p) && out.push(SECTION4 + i));
  return out;
}

function withoutAromaticRings(): number[] {
  const out: number[] = [];
  DETAILED_NEIGHBOURS.forEach((p, i) => !namesH(p) && out.push(SECTION5 + i));
  SIMPLE_PATTERNS.forEach((p, i) => !namesH(p) && !aromatic(p) && !/\[/.test(p) && out.push(SECTION6 + i));
  return out;
}

export const SCREEN_ALWAYS = bitsOf(always());
export const SCREEN_NON_AROMATIC = bitsOf(withoutAromaticRings());

function hasAromaticRing(keys: Uint8Array): boolean {
  for (let k = AROMATIC_RINGS[0]; k < AROMATIC_RINGS[1]; k++) if ((((keys[k >> 3] as number) >> (7 - (k & 7))) & 1) === 1) return true;
  return false;
}

/** The keys of a query (its computed 111 bytes) that every compound holding it must have. */
export function screenKeys(queryKeys: Uint8Array): Uint8Array {
  const extra = !hasAromaticRing(queryKeys);
  const out = new Uint8Array(BYTES);
  for (let i = 0; i < BYTES; i++) out[i] = (queryKeys[i] as number) & ((SCREEN_ALWAYS[i] as number) | (extra ? (SCREEN_NON_AROMATIC[i] as number) : 0));
  return out;
}

/**
 * For a superstructure search: the keys a compound may hold and still be part of the query, i.e.
 * a compound whose kept keys (`screenKeys` of its own, with its aromatic rings) fall outside the
 * query's keys cannot be inside it. Returned as the bits that rule a compound out.
 */
export function superForbidden(queryKeys: Uint8Array): Uint8Array {
  const out = new Uint8Array(BYTES);
  for (let i = 0; i < BYTES; i++) out[i] = (SCREEN_ALWAYS[i] as number) & ~(queryKeys[i] as number);
  return out;
}
