import { readText, type ByteProgress } from '../../../core/ingest/inputs.js';

/** A whole (small) JSON file, or undefined when it is not JSON. */
export async function readWholeJson(path: string, bytes?: ByteProgress): Promise<unknown> {
  const text = await readText(path, bytes);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}
