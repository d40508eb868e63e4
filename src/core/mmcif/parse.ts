/** Reading mmCIF and BinaryCIF, plain or gzipped, with Mol*'s readers. */
import { gunzipSync } from 'node:zlib';
import { CIF, type CifFile } from 'molstar/lib/mol-io/reader/cif.js';
import { CifFormatError } from './errors.js';
import { cifLimits } from './limits.js';

export type { CifFile };

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** The bytes inflated when gzipped, within the bounds; a corrupt or truncated stream is a CifFormatError. */
export function inflate(data: Uint8Array): Uint8Array {
  if (data.byteLength > cifLimits.maxInputBytes) {
    throw new CifFormatError(`input of ${data.byteLength} bytes exceeds the limit of ${cifLimits.maxInputBytes}`);
  }
  if (!isGzip(data)) return data;
  try {
    return gunzipSync(data, { maxOutputLength: cifLimits.maxInflatedBytes });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new CifFormatError(`gzip content inflates past the limit of ${cifLimits.maxInflatedBytes} bytes`);
    }
    throw new CifFormatError(`corrupt or truncated gzip data: ${err.message}`);
  }
}

/**
 * Text CIF starts (after optional white space) with a comment or a data block; BinaryCIF is a
 * MessagePack map (0x80-0x8f fixmap, 0xde map16, 0xdf map32).
 */
function looksBinary(b: Uint8Array): boolean {
  let i = 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  const c = b[i];
  if (c === undefined) return false;
  return (c >= 0x80 && c <= 0x8f) || c === 0xde || c === 0xdf;
}

/** Parses CIF text or BinaryCIF (gunzipping first when the bytes are gzip). Throws CifFormatError. */
export async function parseCif(data: Uint8Array | string): Promise<CifFile> {
  let result;
  try {
    if (typeof data === 'string') {
      result = await CIF.parseText(data).run();
    } else {
      const bytes = inflate(data);
      if (looksBinary(bytes)) result = await CIF.parseBinary(bytes).run();
      else {
        if (bytes.byteLength > 0x1fffffe8) throw new CifFormatError('CIF text too large to decode');
        result = await CIF.parseText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')).run();
      }
    }
  } catch (e) {
    if (e instanceof CifFormatError) throw e;
    // Mol*'s binary reader throws on MessagePack it cannot decode.
    throw new CifFormatError(`unreadable CIF: ${(e as Error).message}`);
  }
  if (result.isError) {
    throw new CifFormatError(`malformed CIF${result.line > 0 ? ` at line ${result.line}` : ''}: ${result.message}`);
  }
  const file = result.result;
  if (!file.blocks.length) throw new CifFormatError('no data block in the CIF input');
  return file;
}

/** The first block, which holds the entry (archive files have exactly one). */
export function firstBlock(file: CifFile) {
  const block = file.blocks[0];
  if (!block) throw new CifFormatError('no data block in the CIF input');
  return block;
}
