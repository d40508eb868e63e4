/** SD records streamed from a (gzipped) file: memory holds a chunk of the file and one record. */
import type { Readable } from 'node:stream';
import { lines } from '../../../core/ingest/inputs.js';
import { parseSdfText, type SdfRecord } from '../chem/sdf.js';

export interface SdfItem {
  /** Line where the record starts (1-based). */
  line: number;
  record: SdfRecord | string;
}

// A record longer than this is not a molecule PubChem would carry (its biggest are a few MB).
const MAX_LINES = 200_000;
const MAX_BYTES = MAX_LINES * 82;

/** One record's bytes in a chunk: `[start, end)`, through its `$$$$` line. */
export interface RecordSpan {
  /** Line where the record starts (1-based). */
  line: number;
  start: number;
  end: number;
  /** Longer than any record PubChem writes: skipped as it streamed, its bytes not kept. */
  oversized?: boolean;
  /** The file's last record, without a `$$$$` line. */
  unterminated?: boolean;
}

/** A chunk of the decompressed file, the same bytes as Latin-1 text (one character a byte), and its whole records. */
export interface SdfChunk {
  bytes: Buffer;
  /** Offsets in it are byte offsets; ASCII reads as itself, other bytes must be decoded from `bytes`. */
  latin1: string;
  spans: RecordSpan[];
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/**
 * Records cut at their `$$$$` lines, found in the bytes (UTF-8 never hides a `$` or a line break
 * inside a character), a chunk at a time: a load of PubChem's files reads gigabytes, and decoding
 * every record to text only to find its end cost a quarter of the reading.
 */
export async function* sdfChunks(stream: Readable): AsyncGenerator<SdfChunk> {
  let carry: Buffer | undefined;
  let start = 1;
  let oversized = false;
  let oversizedFrom = 0;
  for await (const chunk of stream) {
    const part = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    const bytes = carry ? Buffer.concat([carry, part]) : part;
    const latin1 = bytes.toString('latin1');
    const spans: RecordSpan[] = [];
    let from = 0;
    for (;;) {
      // A `$$$$` at the start of a line ends a record; the record runs through that line's end.
      let at = latin1.indexOf('$$$$', from);
      while (at > from && latin1.charCodeAt(at - 1) !== 10) at = latin1.indexOf('$$$$', at + 4);
      if (at < 0) break;
      const eol = latin1.indexOf('\n', at);
      if (eol < 0) break;
      spans.push(oversized ? { line: oversizedFrom, start: from, end: eol + 1, oversized: true } : { line: start, start: from, end: eol + 1 });
      start += countLines(latin1, from, eol + 1);
      oversized = false;
      from = eol + 1;
    }
    carry = from < bytes.length ? Buffer.from(bytes.subarray(from)) : undefined;
    // A record longer than any PubChem writes is skipped as it streams, not held.
    if (carry && carry.length > MAX_BYTES) {
      if (!oversized) oversizedFrom = start;
      start += countLines(latin1, from, latin1.length);
      carry = undefined;
      oversized = true;
    }
    if (spans.length) yield { bytes, latin1, spans };
  }
  const rest = carry ?? Buffer.alloc(0);
  if (oversized || rest.toString('utf8').trim() !== '') {
    const bytes = rest.length && rest[rest.length - 1] !== 10 ? Buffer.concat([rest, Buffer.from('\n')]) : rest;
    const span: RecordSpan = { line: oversized ? oversizedFrom : start, start: 0, end: bytes.length, unterminated: true, ...(oversized ? { oversized } : {}) };
    yield { bytes, latin1: bytes.toString('latin1'), spans: [span] };
  }
}

/** A record of a chunk as text and parsed, or why it is not one. */
export function spanRecord(chunk: SdfChunk, span: RecordSpan): SdfItem {
  if (span.oversized) return { line: span.line, record: `record longer than ${MAX_LINES} lines` };
  const text = chunk.bytes.toString('utf8', span.start, span.end);
  const record = parseSdfText(text);
  if (typeof record !== 'string') record.text = text;
  return { line: span.line, record };
}

/** Records cut at their `$$$$` lines, each parsed from its own text (which the record keeps). */
export async function* sdfRecords(stream: Readable): AsyncGenerator<SdfItem> {
  for await (const chunk of sdfChunks(stream)) for (const span of chunk.spans) yield spanRecord(chunk, span);
}

/** Lines of a tab-separated file, split, with their numbers. */
export async function* tsvRows(stream: Readable): AsyncGenerator<{ no: number; cells: string[] }> {
  for await (const { line, no } of lines(stream)) {
    if (line === '') continue;
    yield { no, cells: line.split('\t') };
  }
}
