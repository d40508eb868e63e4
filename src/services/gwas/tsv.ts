/**
 * Tab-separated files as the GWAS Catalog publishes them: plain, gzipped, or inside a zip (the
 * catalog's association download is a zip holding one large TSV). Zip entries are streamed, never
 * read whole, because one entry can be gigabytes.
 */
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { FormatError } from '../../core/ingest/errors.js';
import { baseName, lines, openInput, type ByteProgress } from '../../core/ingest/inputs.js';

export interface TsvSource {
  /** Where the rows come from, for skip reports: the file, or `archive.zip:entry.tsv`. */
  label: string;
  open(): Promise<Readable>;
}

const TABLE = /\.(tsv|txt|csv)$/;

export function isTable(name: string): boolean {
  return TABLE.test(baseName(name));
}

export function isZip(name: string): boolean {
  return baseName(name).endsWith('.zip');
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) reject(new FormatError(`${path}: not a readable zip archive (${err?.message ?? 'unknown error'})`));
      else resolve(zip);
    });
  });
}

/** The table entries (or those `wanted` names) of a zip archive, each opened as a stream when its turn comes. */
export async function zipTables(path: string, bytes?: ByteProgress, wanted: (name: string) => boolean = isTable): Promise<TsvSource[]> {
  const names: string[] = [];
  const zip = await openZip(path);
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (!e.fileName.endsWith('/') && wanted(e.fileName)) names.push(e.fileName);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (err: Error) => reject(new FormatError(`${path}: damaged zip archive (${err.message})`)));
    zip.readEntry();
  });
  return names.map((name) => ({
    label: `${path}:${name}`,
    open: () => openZipEntry(path, name, bytes),
  }));
}

async function openZipEntry(path: string, name: string, bytes?: ByteProgress): Promise<Readable> {
  const zip = await openZip(path);
  return new Promise((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (e.fileName !== name) return zip.readEntry();
      zip.openReadStream(e, (err, stream) => {
        if (err || !stream) return reject(new FormatError(`${path}: entry ${name} cannot be read (${err?.message ?? 'unknown'})`));
        if (bytes) {
          // Progress counts compressed bytes, as for gzip files.
          const ratio = e.uncompressedSize > 0 ? e.compressedSize / e.uncompressedSize : 1;
          stream.on('data', (c: Buffer) => bytes.add(c.length * ratio));
        }
        resolve(name.endsWith('.gz') ? stream.pipe(createGunzip()) : stream);
      });
    });
    zip.on('end', () => reject(new FormatError(`${path}: entry ${name} disappeared`)));
    zip.on('error', (err: Error) => reject(new FormatError(`${path}: damaged zip archive (${err.message})`)));
    zip.readEntry();
  });
}

export function fileSource(path: string, bytes?: ByteProgress): TsvSource {
  return { label: path, open: async () => openInput(path, bytes) };
}

export interface TsvRow {
  /** The value of a column by header name ('' when the column is absent or empty). */
  get(column: string): string;
  line: number;
}

/**
 * Rows of a TSV with a header line. `#` lines before the header are comments. Values are trimmed
 * and unquoted; a row with fewer cells than the header reads the missing ones as empty.
 */
export async function* tsvRows(stream: Readable): AsyncGenerator<TsvRow> {
  let header: string[] | undefined;
  let index = new Map<string, number>();
  for await (const { line, no } of lines(stream)) {
    if (header === undefined) {
      if (!line.trim() || line.startsWith('#')) continue;
      header = line
        .replace(/^\uFEFF/, '')
        .split('\t')
        .map((h) => unquote(h.trim()));
      index = new Map(header.map((h, i) => [h.toUpperCase(), i]));
      continue;
    }
    if (!line.trim()) continue;
    const cells = line.split('\t');
    const row: TsvRow = {
      line: no,
      get(column) {
        const i = index.get(column.toUpperCase());
        return i === undefined ? '' : unquote((cells[i] ?? '').trim());
      },
    };
    yield row;
  }
}

/** The header line of a table, read from its first lines (comments skipped). */
export async function tsvHeader(source: TsvSource): Promise<string[]> {
  const stream = await source.open();
  try {
    for await (const { line } of lines(stream)) {
      if (!line.trim() || line.startsWith('#')) continue;
      return line
        .replace(/^\uFEFF/, '')
        .split('\t')
        .map((h) => unquote(h.trim()));
    }
    return [];
  } catch (err) {
    throw new FormatError(`${source.label}: cannot be read (${(err as Error).message})`);
  } finally {
    stream.destroy();
  }
}

function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1).replace(/""/g, '"') : s;
}
