/**
 * Reads what the API returns, saved: pages (`{"messages": [...], "collection": [...]}`) of
 * `details` or `pubs`, JSON arrays of their records, JSON lines, each optionally gzipped; and, in
 * the same folder, full-text files named as their site addresses end (see fulltext.ts).
 */
import type { ReadContext } from '../../core/ingest/dataset.js';
import { FormatError } from '../../core/ingest/errors.js';
import { FileGuard } from '../../core/ingest/file-guard.js';
import { ByteProgress, baseName, lines, listInputs, openInput, peek, type InputFile } from '../../core/ingest/inputs.js';
import { jsonFileItems } from '../../core/ingest/json.js';
import type { Sourced } from '../../core/ingest/load.js';
import { fullTextFile } from './fulltext.js';
import { recordKind, toPaper, toPub } from './records.js';
import type { Item } from './store.js';

const EXPECTED =
  'saved bioRxiv API pages ({"messages": [...], "collection": [...]} of details or pubs), JSON arrays or JSON lines of their records (.json, .jsonl, optionally gzipped), and full-text files named {DOI suffix}v{version}.full.pdf, .source.xml or .full.html';
// Saved pages up to this size are parsed whole (several times faster than streaming).
const WHOLE = 32 * 1024 * 1024;

type Kind = 'json' | 'jsonl';

function kindOf(path: string): Kind | undefined {
  const name = baseName(path);
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  return undefined;
}

/** Checks one parsed value and makes it an item, or says why it is not a preprint record. */
export function toItem(value: unknown): Item | string {
  const kind = recordKind(value);
  if (kind === 'paper') {
    const paper = toPaper(value as Record<string, unknown>);
    return typeof paper === 'string' ? paper : { kind: 'paper', paper };
  }
  if (kind === 'pub') {
    const pub = toPub(value as Record<string, unknown>);
    return typeof pub === 'string' ? pub : { kind: 'pub', pub };
  }
  return kind;
}

export async function* readPreprints(input: string, ctx: ReadContext): AsyncGenerator<Sourced<Item>> {
  const files = await listInputs(input);
  const records = files.filter((f) => kindOf(f.path));
  const texts = files.map((f) => fullTextFile(f.path));
  if (records.length === 0 && !texts.some(Boolean)) {
    throw new FormatError(files.length === 1 ? `${input}: not ${EXPECTED}` : `${input}: no preprint files found; expected ${EXPECTED}`);
  }
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );

  for (const [i, f] of files.entries()) {
    if (ctx.signal.aborted) return;
    const text = texts[i];
    if (text) {
      bytes.add(f.size);
      yield { value: { kind: 'file', file: text }, place: { file: f.path, position: 'file' } };
      continue;
    }
    const kind = kindOf(f.path);
    if (!kind) {
      ctx.skip({ file: f.path, position: 'file' }, `not ${EXPECTED}`);
      bytes.add(f.size);
      continue;
    }
    const guard = new FileGuard(f.path, 'bioRxiv records', EXPECTED);
    for await (const { value, position } of kind === 'jsonl' ? jsonLines(f, bytes, ctx) : jsonRecords(f, bytes, files.length === 1)) {
      if (ctx.signal.aborted) return;
      const item = toItem(value);
      if (typeof item === 'string') {
        guard.reject();
        ctx.skip({ file: f.path, position }, item);
        continue;
      }
      guard.accept();
      if (item.kind === 'paper') ctx.release(item.paper.date);
      yield { value: item, place: { file: f.path, position } };
    }
  }
}

type Parsed = { value: unknown; position: string };

async function* jsonLines(f: InputFile, bytes: ByteProgress, ctx: ReadContext): AsyncGenerator<Parsed> {
  for await (const { line, no } of lines(openInput(f.path, bytes))) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      // An unreadable line is reported like a record that is not a preprint.
      ctx.skip({ file: f.path, position: `line ${no}` }, `invalid JSON: ${(err as Error).message}`);
      continue;
    }
    yield { value, position: `line ${no}` };
  }
}

/** The records of a .json file: a saved page's collection, an array, or one record. */
async function* jsonRecords(f: InputFile, bytes: ByteProgress, only: boolean): AsyncGenerator<Parsed> {
  const gz = f.path.toLowerCase().endsWith('.gz');
  if (!gz && f.size <= WHOLE) {
    const chunks: Buffer[] = [];
    for await (const c of openInput(f.path, bytes)) chunks.push(c as Buffer);
    let value: unknown;
    try {
      value = JSON.parse(
        Buffer.concat(chunks)
          .toString('utf8')
          .replace(/^\uFEFF/, ''),
      );
    } catch (err) {
      if (only) throw new FormatError(`${f.path}: invalid JSON (${(err as Error).message}); expected ${EXPECTED}`);
      yield { value: undefined, position: `file (invalid JSON: ${(err as Error).message})` };
      return;
    }
    const page = value as { collection?: unknown };
    const list = Array.isArray(value) ? value : page && typeof page === 'object' && Array.isArray(page.collection) ? page.collection : undefined;
    if (!list) {
      yield { value, position: 'file' };
      return;
    }
    const where = Array.isArray(value) ? 'item' : 'collection';
    for (const [i, v] of (list as unknown[]).entries()) yield { value: v, position: `${where}[${i}]` };
    return;
  }
  // Large or compressed: streamed, one record in memory at a time.
  const head = (await peek(f.path)).replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('[') && !head.startsWith('{')) throw new FormatError(`${f.path}: not JSON; expected ${EXPECTED}`);
  const member = head.startsWith('{') ? 'collection' : undefined;
  for await (const { index, value } of jsonFileItems(f.path, bytes, member)) {
    yield { value, position: member ? `collection[${index}]` : `item ${index}` };
  }
}
