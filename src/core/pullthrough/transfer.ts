/**
 * Kept answers as a file another biomirror can import (CI fixtures, an offline machine): JSON
 * lines, one answer a line with its body in base64, gzip-compressed when the file name ends in
 * `.gz`. The first line names the format, so that a wrong file is refused before anything is
 * written.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { KeptAnswer, KeptStore } from './store.js';

export const FORMAT = 'biomirror-kept-answers/1';

/** One answer of the file: the stored answer with its body in base64. */
type Line = Omit<KeptAnswer, 'body'> & { body: string };

const gz = (file: string) => file.endsWith('.gz');

export async function exportKept(store: KeptStore, file: string, service?: string): Promise<number> {
  let n = 0;
  async function* lines() {
    yield JSON.stringify({ format: FORMAT, exportedAt: new Date().toISOString() }) + '\n';
    for await (const a of store.all(service)) {
      n++;
      const line: Line = { ...a, body: a.body.toString('base64') };
      yield JSON.stringify(line) + '\n';
    }
  }
  const out = createWriteStream(file);
  if (gz(file)) await pipeline(Readable.from(lines()), createGzip(), out);
  else await pipeline(Readable.from(lines()), out);
  return n;
}

export class ImportError extends Error {
  override readonly name = 'ImportError';
}

/** Imports a file written by exportKept; an answer kept already for the same request is replaced. */
export async function importKept(store: KeptStore, file: string): Promise<number> {
  const input = gz(file) ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  let first = true;
  for await (const text of rl) {
    if (!text.trim()) continue;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ImportError(`${file}: line ${n + 2} is not JSON`);
    }
    if (first) {
      if (v.format !== FORMAT) throw new ImportError(`${file} is not an export of kept answers (its first line does not say format "${FORMAT}")`);
      first = false;
      continue;
    }
    const l = v as unknown as Line;
    if (typeof l.key !== 'string' || typeof l.service !== 'string' || typeof l.status !== 'number' || typeof l.body !== 'string') {
      throw new ImportError(`${file}: line ${n + 2} is not a kept answer`);
    }
    const a: KeptAnswer = { ...l, headers: l.headers ?? {}, contentType: l.contentType ?? null, body: Buffer.from(l.body, 'base64') };
    await store.put(a);
    n++;
  }
  if (first) throw new ImportError(`${file} is empty`);
  return n;
}
