/**
 * The fingerprints kept for search beside PubChem's substructure keys (subskeys-codec.ts, which
 * similarity ranks by): the RDKit pattern fingerprint (2048 bits) screens substructure and
 * superstructure candidates. Every bit of a substructure's pattern fingerprint is set in each
 * molecule that contains it, which PubChem's keys do not promise: several of them count (at least
 * so many hydrogens, rings of a size in the smallest set of rings), and a molecule can lose such a
 * key by containing more (a hydrogen replaced by a substituent), so screening by keys would drop
 * real matches.
 */
import type { Mol } from './rdkit.js';

export const PATTERN_BITS = 2048;
export const PATTERN_WORDS = PATTERN_BITS / 32;

const PATTERN = JSON.stringify({ nBits: PATTERN_BITS });

export function patternOf(mol: Mol): Buffer {
  return Buffer.from(mol.get_pattern_fp_as_uint8array(PATTERN) as Uint8Array);
}

/** A fingerprint's bytes as 32-bit words (little-endian, as the index holds them). */
export function words(bytes: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < count && i * 4 + 3 < bytes.byteLength; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function popcount(w: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < w.length; i++) n += popcount32(w[i] as number);
  return n;
}
