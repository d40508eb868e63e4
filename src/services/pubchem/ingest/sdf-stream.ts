/** SD records streamed from a (gzipped) file: memory holds one record at a time. */
import { lines } from '../../../core/ingest/inputs.js';
import type { Readable } from 'node:stream';
import { parseSdfRecord, type SdfRecord } from '../chem/sdf.js';

export interface SdfItem {
  /** Line where the record starts (1-based). */
  line: number;
  record: SdfRecord | string;
}

// A record longer than this is not a molecule PubChem would carry (its biggest are a few MB).
const MAX_LINES = 200_000;

export async function* sdfRecords(stream: Readable): AsyncGenerator<SdfItem> {
  let buf: string[] = [];
  let start = 1;
  let oversized = false;
  for await (const { line, no } of lines(stream)) {
    if (line.startsWith('$$$$')) {
      yield { line: start, record: oversized ? `record longer than ${MAX_LINES} lines` : parseSdfRecord(buf) };
      buf = [];
      oversized = false;
      start = no + 1;
      continue;
    }
    if (oversized) continue;
    if (buf.length >= MAX_LINES) {
      oversized = true;
      buf = [];
      continue;
    }
    buf.push(line);
  }
  if (buf.some((l) => l.trim() !== '')) yield { line: start, record: parseSdfRecord(buf) };
}

/** Lines of a tab-separated file, split, with their numbers. */
export async function* tsvRows(stream: Readable): AsyncGenerator<{ no: number; cells: string[] }> {
  for await (const { line, no } of lines(stream)) {
    if (line === '') continue;
    yield { no, cells: line.split('\t') };
  }
}
