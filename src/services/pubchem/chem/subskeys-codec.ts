/**
 * PubChem's 881 substructure keys (the CACTVS "SubStructure Keys", `PUBCHEM_CACTVS_SUBSKEYS`) as
 * its files and services carry them. The SD tag is base64 of 115 bytes: the key count 881 as a
 * 4-byte big-endian integer, then the keys MSB first in 111 bytes, the last byte's low 7 bits zero.
 * The full record carries the same 115 bytes as uppercase hexadecimal (`value.binary`, what
 * pubchempy's `Compound.fingerprint` returns); the `Fingerprint2D` property is the base64 text.
 *
 * In memory a key set is the 111 key bytes: key k (0..880) is `(keys[k >> 3] >> (7 - (k & 7))) & 1`.
 */

export const SUBSKEYS_TAG = 'PUBCHEM_CACTVS_SUBSKEYS';
export const KEY_COUNT = 881;
export const KEY_BYTES = Math.ceil(KEY_COUNT / 8);
/** The encoded form: the 4-byte count, then the key bytes. */
export const TAG_BYTES = 4 + KEY_BYTES;
/** 32-bit words of a key set as the search index holds it (the last one part empty). */
export const KEY_WORDS = Math.ceil(KEY_BYTES / 4);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// Bits of the last byte past key 880: always zero in PubChem's values.
const PAD_MASK = (1 << (KEY_BYTES * 8 - KEY_COUNT)) - 1;

/**
 * The key bytes of a tag value, or why it is not one. Line breaks and spaces inside the value are
 * ignored (some tools wrap long SD values); anything else must be exactly PubChem's layout.
 */
export function decodeSubskeys(value: string): Uint8Array | string {
  const text = value.replace(/\s+/g, '');
  if (text === '') return 'the value is empty';
  if (!BASE64.test(text) || text.length % 4 !== 0) return 'the value is not base64';
  const bytes = Buffer.from(text, 'base64');
  // Node's decoder is lenient: a value that does not encode back to itself had stray bits or padding.
  if (bytes.toString('base64') !== text) return 'the value is not canonical base64';
  if (bytes.length !== TAG_BYTES) return `the value decodes to ${bytes.length} bytes, not ${TAG_BYTES} (a 4-byte key count and ${KEY_BYTES} bytes of keys)`;
  const count = bytes.readUInt32BE(0);
  if (count !== KEY_COUNT) return `the key count is ${count}, not ${KEY_COUNT}`;
  const keys = new Uint8Array(bytes.subarray(4));
  if (((keys[KEY_BYTES - 1] as number) & PAD_MASK) !== 0) return `bits past key ${KEY_COUNT - 1} are set`;
  return keys;
}

/** Why a key set (from the tag or computed) is not 881 keys in 111 bytes, or undefined when it is. */
export function invalidKeys(keys: Uint8Array): string | undefined {
  if (keys.length !== KEY_BYTES) return `${keys.length} bytes of keys, not ${KEY_BYTES}`;
  if (((keys[KEY_BYTES - 1] as number) & PAD_MASK) !== 0) return `bits past key ${KEY_COUNT - 1} are set`;
  return undefined;
}

/** The 115 bytes PubChem encodes: the key count, then the keys. */
export function subskeysBytes(keys: Uint8Array): Buffer {
  const bad = invalidKeys(keys);
  if (bad) throw new RangeError(`not a set of ${KEY_COUNT} substructure keys: ${bad}`);
  const out = Buffer.alloc(TAG_BYTES);
  out.writeUInt32BE(KEY_COUNT, 0);
  out.set(keys, 4);
  return out;
}

/** The SD tag value (and `Fingerprint2D` property) of a key set. */
export function encodeSubskeys(keys: Uint8Array): string {
  return subskeysBytes(keys).toString('base64');
}

/** The record's `binary` value: the same bytes in uppercase hexadecimal (230 digits). */
export function subskeysHex(keys: Uint8Array): string {
  return subskeysBytes(keys).toString('hex').toUpperCase();
}

/** Key k (0..880): 1 when set. */
export function keyBit(keys: Uint8Array, k: number): 0 | 1 {
  if (!Number.isInteger(k) || k < 0 || k >= KEY_COUNT) throw new RangeError(`no key ${k}: keys are numbered 0 to ${KEY_COUNT - 1}`);
  return (((keys[k >> 3] as number) >> (7 - (k & 7))) & 1) as 0 | 1;
}

/** The keys as a string of 881 '0' and '1', key 0 first (what pubchempy's `cactvs_fingerprint` gives). */
export function keyString(keys: Uint8Array): string {
  let s = '';
  for (let k = 0; k < KEY_COUNT; k++) s += keyBit(keys, k);
  return s;
}

const BYTE_BITS = Uint8Array.from({ length: 256 }, (_, i) => {
  let n = 0;
  for (let x = i; x; x >>= 1) n += x & 1;
  return n;
});

/** Keys set. */
export function keyCount(keys: Uint8Array): number {
  let n = 0;
  for (const b of keys) n += BYTE_BITS[b] as number;
  return n;
}

/**
 * The key bytes as the search index's 32-bit words (little-endian, the 111 bytes padded with one
 * zero byte): Tanimoto on words counts the same keys as on bytes.
 */
export function keyWords(keys: Uint8Array): Uint32Array {
  const padded = new Uint8Array(KEY_WORDS * 4);
  padded.set(keys.subarray(0, KEY_BYTES));
  const view = new DataView(padded.buffer);
  return Uint32Array.from({ length: KEY_WORDS }, (_, i) => view.getUint32(i * 4, true));
}

/** Tanimoto of two key sets (0 when neither has a key set). */
export function keyTanimoto(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < KEY_BYTES; i++) {
    both += BYTE_BITS[(a[i] as number) & (b[i] as number)] as number;
    either += BYTE_BITS[(a[i] as number) | (b[i] as number)] as number;
  }
  return either ? both / either : 0;
}
