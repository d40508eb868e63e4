/** Sequence checksums: UniProt's CRC64 (ISO polynomial, 16 upper-case hex digits) and MD5 (v6 records). */
import { createHash } from 'node:crypto';

const TABLE = (() => {
  const t: bigint[] = [];
  const poly = 0xd800000000000000n;
  for (let i = 0n; i < 256n; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1n ? (c >> 1n) ^ poly : c >> 1n;
    t.push(c);
  }
  return t;
})();

export function crc64(seq: string): string {
  let crc = 0n;
  for (let i = 0; i < seq.length; i++) crc = (TABLE[Number((crc ^ BigInt(seq.charCodeAt(i))) & 0xffn)] as bigint) ^ (crc >> 8n);
  return crc.toString(16).toUpperCase().padStart(16, '0');
}

export function md5(seq: string): string {
  return createHash('md5').update(seq).digest('hex');
}
