import type { Readable } from 'node:stream';
import { FormatError } from './errors.js';
import { openInput, type ByteProgress } from './inputs.js';
import StreamJson from 'stream-json';
import Pick from 'stream-json/filters/Pick.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';

/**
 * The elements of a JSON array streamed one at a time: the top-level array, or the array under
 * `member` of the top-level object (e.g. `studies` of a saved API page). Memory holds one element.
 */
export async function* jsonArrayItems(stream: Readable, member?: string): AsyncGenerator<{ index: number; value: unknown }> {
  const stages: NodeJS.ReadWriteStream[] = [StreamJson.parser()];
  if (member) stages.push(Pick.pick({ filter: member }));
  stages.push(StreamArray.streamArray());
  let s: NodeJS.ReadableStream = stream;
  for (const stage of stages) s = s.pipe(stage);
  const last = s as unknown as Readable;
  // `pipe` does not carry errors downstream; a damaged file must end the iteration with its error.
  for (const src of [stream, ...stages.slice(0, -1)]) src.on('error', (err: Error) => last.destroy(err));
  try {
    for await (const item of last as AsyncIterable<{ key: number; value: unknown }>) {
      yield { index: item.key, value: item.value };
    }
  } finally {
    stream.destroy();
  }
}

/** The elements of the JSON array in a file (see jsonArrayItems); a damaged file is a FormatError. */
export async function* jsonFileItems(path: string, bytes?: ByteProgress, member?: string): AsyncGenerator<{ index: number; value: unknown }> {
  try {
    yield* jsonArrayItems(openInput(path, bytes), member);
  } catch (err) {
    if (err instanceof FormatError) throw err;
    throw new FormatError(`${path}: damaged JSON (${(err as Error).message})`);
  }
}
