/** Bit counts of fingerprints held as 32-bit words (PubChem's substructure keys, subskeys-codec.ts). */

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
