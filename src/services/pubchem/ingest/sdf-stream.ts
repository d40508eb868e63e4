/** SD records streamed from a (gzipped) file: memory holds a chunk of the file and one record. */
import { StringDecoder } from 'node:string_decoder';
import { lines } from '../../../core/ingest/inputs.js';
import type { Readable } from 'node:stream';
import { parseSdfText, type SdfRecord } from '../chem/sdf.js';

export interface SdfItem {
  /** Line where the record starts (1-based). */
  line: number;
  record: SdfRecord | string;
}

// A record longer than this is not a molecule PubChem would carry (its biggest are a few MB).
const MAX_LINES = 200_000;
const MAX_CHARS = MAX_LINES * 82;

/**
 * Records cut at their `$$$$` lines from the decoded text, each parsed from its own text (which the
 * record keeps, so that a load can store it as it came) and numbered by the line it starts on.
 */
export async function* sdfRecords(stream: Readable): AsyncGenerator<SdfItem> {
  const decoder = new StringDecoder('utf8');
  let buf = '';
  let start = 1;
  let oversized = false;
  let oversizedFrom = 0;
  const item = (text: string): SdfItem => {
    const line = oversized ? oversizedFrom : start;
    let n = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
    start += n;
    if (oversized) return { line, record: `record longer than ${MAX_LINES} lines` };
    const record = parseSdfText(text);
    if (typeof record !== 'string') record.text = text;
    return { line, record };
  };
  for await (const chunk of stream) {
    buf += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    let from = 0;
    for (;;) {
      // A `$$$$` at the start of a line ends a record; the record runs through that line's end.
      let at = buf.indexOf('$$$$', from);
      while (at > 0 && buf[at - 1] !== '\n') at = buf.indexOf('$$$$', at + 4);
      if (at < 0) break;
      const eol = buf.indexOf('\n', at);
      if (eol < 0) break;
      yield item(buf.slice(from, eol + 1));
      oversized = false;
      from = eol + 1;
    }
    buf = buf.slice(from);
    // A record longer than any PubChem writes is skipped as it streams, not held.
    if (buf.length > MAX_CHARS) {
      if (!oversized) oversizedFrom = start;
      for (let at = buf.indexOf('\n'); at >= 0; at = buf.indexOf('\n', at + 1)) start++;
      buf = '';
      oversized = true;
    }
  }
  buf += decoder.end();
  if (buf.trim() !== '' || oversized) yield item(buf.endsWith('\n') ? buf : buf + '\n');
}

/** Lines of a tab-separated file, split, with their numbers. */
export async function* tsvRows(stream: Readable): AsyncGenerator<{ no: number; cells: string[] }> {
  for await (const { line, no } of lines(stream)) {
    if (line === '') continue;
    yield { no, cells: line.split('\t') };
  }
}
