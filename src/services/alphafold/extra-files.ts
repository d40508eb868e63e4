/**
 * The optional files of an entry, named as the database's file host and bucket name them (the
 * URLs of a version 6 prediction record): the MSA, `msa/AF-{id}-msa_v{N}.a3m`, and the three
 * AlphaMissense tables, `AF-{id}-aa-substitutions.csv`, `AF-{id}-hg19.csv`, `AF-{id}-hg38.csv`
 * (no version in their names). A load may carry them (gzipped or not, loose or in a tar); they are
 * kept as loaded and served at those names, and a name the load did not carry is a 404.
 */
import { gzipSync } from 'node:zlib';
import { gunzipBounded, isGzip } from './model-cif.js';

export type ExtraKind = 'msa' | 'am';

export interface ExtraName {
  entryId: string;
  kind: ExtraKind;
  /** The `meta` row it is kept under: `file:msa_v6`, `file:aa-substitutions`, `file:hg19`, `file:hg38`. */
  source: string;
}

/** The AlphaMissense tables, in the record's order (amAnnotationsUrl, ...Hg19Url, ...Hg38Url). */
export const AM_TABLES = ['aa-substitutions', 'hg19', 'hg38'] as const;

const MSA = /^(AF-[A-Za-z0-9-]+?)-msa_v(\d{1,4})\.a3m$/;
const AM = /^(AF-[A-Za-z0-9-]+?)-(aa-substitutions|hg19|hg38)\.csv$/;

/** An MSA file name (`AF-P04637-F1-msa_v6.a3m`, served below `/files/msa/`). */
export function parseMsaName(name: string): ExtraName | undefined {
  const m = MSA.exec(name);
  return m ? { entryId: m[1] as string, kind: 'msa', source: `file:msa_v${Number(m[2])}` } : undefined;
}

/** An AlphaMissense file name (`AF-P04637-F1-hg38.csv`, served below `/files/`). */
export function parseAmName(name: string): ExtraName | undefined {
  const m = AM.exec(name);
  return m ? { entryId: m[1] as string, kind: 'am', source: `file:${m[2] as string}` } : undefined;
}

/** Either kind, from a file's base name as loaded (a `.gz` suffix allowed). */
export function parseLoadedExtra(base: string): ExtraName | undefined {
  const name = base.replace(/\.gz$/i, '');
  return parseMsaName(name) ?? parseAmName(name);
}

export const EXTRA_TYPES: Record<ExtraKind, string> = { msa: 'text/plain; charset=utf-8', am: 'text/csv; charset=utf-8' };

/** MSA files of long proteins run to hundreds of MB; beyond this a file is refused. */
const MAX_EXTRA_BYTES = 1 << 30;

/**
 * The file as kept (gzipped), after checking it is what its name says: text, an a3m alignment
 * (its first line a `>` header or a `#` comment line) or a CSV table (a header line with commas).
 * Throws with the reason otherwise.
 */
export function checkedExtra(kind: ExtraKind, bytes: Buffer): Buffer {
  const text = isGzip(bytes) ? gunzipBounded(bytes, MAX_EXTRA_BYTES) : bytes;
  if (text.length === 0) throw new Error('empty file');
  const head = text.subarray(0, 65_536);
  if (head.includes(0)) throw new Error('not a text file');
  const first =
    head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim() !== '') ?? '';
  if (kind === 'msa' && !/^[>#]/.test(first)) throw new Error('not an a3m alignment (the first line is no ">" header)');
  if (kind === 'am' && !first.includes(',')) throw new Error('not a CSV table (no header line with commas)');
  return isGzip(bytes) ? bytes : gzipSync(bytes);
}
