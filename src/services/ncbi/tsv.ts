/**
 * NCBI's tab-separated bulk files: a header line starting with "#" names the columns; every other
 * line is a record. Readers address cells by column name, so added columns do not break a load.
 */
import { FormatError } from '../../core/ingest/errors.js';
import { lines, openInput, type ByteProgress } from '../../core/ingest/inputs.js';

export interface TsvRow {
  no: number;
  get(column: string): string | undefined;
}

export interface TsvFile {
  path: string;
  columns: string[];
  rows: AsyncGenerator<TsvRow>;
}

/** Columns of a header line ("#tax_id\tGeneID..."), or undefined when the line is not one. */
export function headerColumns(line: string): string[] | undefined {
  if (!line.startsWith('#')) return undefined;
  return line
    .slice(1)
    .split('\t')
    .map((c) => c.trim());
}

/** Streams a TSV whose first line is its header; fails when a required column is missing. */
export async function* tsvRows(path: string, required: readonly string[], bytes?: ByteProgress, signal?: AbortSignal): AsyncGenerator<TsvRow> {
  let index: Map<string, number> | undefined;
  for await (const { line, no } of lines(openInput(path, bytes))) {
    if (signal?.aborted) return;
    if (!index) {
      const cols = headerColumns(line);
      if (!cols) throw new FormatError(`${path}: line 1 is not a header line starting with "#"`);
      index = new Map(cols.map((c, i) => [c, i]));
      const missing = required.filter((c) => !index?.has(c));
      if (missing.length) throw new FormatError(`${path}: the header lacks column(s) ${missing.join(', ')}`);
      continue;
    }
    if (line.length === 0) continue;
    const cells = line.split('\t');
    const map = index;
    yield {
      no,
      get: (column) => {
        const i = map.get(column);
        return i === undefined ? undefined : cells[i];
      },
    };
  }
}
