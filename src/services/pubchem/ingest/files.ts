import { FormatError } from '../../../core/ingest/errors.js';
import { openInput, type ByteProgress } from '../../../core/ingest/inputs.js';

/** A whole (small) JSON file, or undefined when it is not JSON. */
export async function readWholeJson(path: string, bytes?: ByteProgress): Promise<unknown> {
  const chunks: Buffer[] = [];
  try {
    for await (const c of openInput(path, bytes)) chunks.push(c as Buffer);
  } catch (err) {
    throw new FormatError(`${path}: cannot be read (${(err as Error).message})`);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}
