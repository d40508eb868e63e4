/** Sequence checksums: UniProt's CRC64 (ISO polynomial, 16 upper-case hex digits) and MD5 (v6 records). */
import { createHash } from 'node:crypto';

// The table as high and low 32-bit halves: BigInt arithmetic per residue is far slower.
const HI = new Uint32Array(256);
const LO = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let c = BigInt(i);
  for (let k = 0; k < 8; k++) c = c & 1n ? (c >> 1n) ^ 0xd800000000000000n : c >> 1n;
  HI[i] = Number(c >> 32n);
  LO[i] = Number(c & 0xffffffffn);
}

export function crc64(seq: string): string {
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < seq.length; i++) {
    const k = (lo ^ seq.charCodeAt(i)) & 0xff;
    // crc = TABLE[k] ^ (crc >> 8)
    const shiftedLo = ((lo >>> 8) | ((hi & 0xff) << 24)) >>> 0;
    const shiftedHi = hi >>> 8;
    hi = ((HI[k] as number) ^ shiftedHi) >>> 0;
    lo = ((LO[k] as number) ^ shiftedLo) >>> 0;
  }
  return (hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0')).toUpperCase();
}

export function md5(seq: string): string {
  return createHash('md5').update(seq).digest('hex');
}
