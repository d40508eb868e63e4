/**
 * The predicted-aligned-error file. The database writes `[{"predicted_aligned_error": N×N, "max_predicted_aligned_error": x}]`
 * (integers since 2022); files of its first versions had flattened `residue1/residue2/distance`
 * arrays. Loads keep the current form as it came (converting the old one); the served file carries
 * the matrix twice, as `distance` (the interface's name) and `predicted_aligned_error`.
 *
 * Matrices reach 2,700² values (tens of megabytes of text), so they are scanned byte by byte rather
 * than through JSON.parse.
 */

export class PaeFormatError extends Error {
  override readonly name = 'PaeFormatError';
}

export interface PaeMatrix {
  n: number;
  values: Float32Array;
  max: number;
}

export const MAX_PAE_RESIDUES = 6000;

const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Where the value of `"key":` starts in `buf` (after the colon and blanks), or -1. */
export function valueStart(buf: Buffer, key: string, from = 0): number {
  const at = buf.indexOf(`"${key}"`, from, 'latin1');
  if (at < 0) return -1;
  let i = at + key.length + 2;
  while (i < buf.length && isSpace(buf[i] as number)) i++;
  if (buf[i] !== 0x3a) return -1;
  i++;
  while (i < buf.length && isSpace(buf[i] as number)) i++;
  return i;
}

/** The end (exclusive) of the bracketed array starting at `start`. */
export function arrayEnd(buf: Buffer, start: number): number {
  let depth = 0;
  for (let i = start; i < buf.length; i++) {
    const c = buf[i];
    if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i + 1;
  }
  throw new PaeFormatError('the matrix is not closed');
}

/**
 * Scans `[[a,b,...],[...],...]` at `start` into a square matrix; with `onRow`, each row is handed
 * over as it is read (the array is reused) and no matrix is kept.
 */
export function scanMatrix(buf: Uint8Array, start: number, onRow?: (row: Float32Array, i: number) => void): { n: number; values: Float32Array; end: number } {
  if (buf[start] !== OPEN) throw new PaeFormatError('the matrix is not an array');
  const len = buf.length;
  let i = start + 1;
  // Sized once the first row is read: the matrix is square.
  let values = new Float32Array(4096);
  let count = 0;
  let rows = 0;
  let cols = -1;
  for (;;) {
    let c = 0;
    while (i < len && ((c = buf[i] as number) === COMMA || c <= 0x20)) i++;
    if (i >= len) throw new PaeFormatError('the matrix is cut short');
    if (c === CLOSE) {
      i++;
      break;
    }
    if (c !== OPEN) throw new PaeFormatError(`a row is not an array (byte ${i})`);
    i++;
    const rowStart = count;
    for (;;) {
      while (i < len && ((c = buf[i] as number) === COMMA || c <= 0x20)) i++;
      if (i >= len) throw new PaeFormatError('the matrix is cut short');
      if (c === CLOSE) {
        i++;
        break;
      }
      // A number: digits with an optional fraction (errors are never negative or exponential in
      // the database's files; anything else is refused).
      let v = 0;
      const from = i;
      while (i < len && (c = buf[i] as number) >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        i++;
      }
      if (c === 0x2e) {
        i++;
        let scale = 0.1;
        while (i < len && (c = buf[i] as number) >= 0x30 && c <= 0x39) {
          v += (c - 0x30) * scale;
          scale /= 10;
          i++;
        }
      }
      if (i === from || (c !== COMMA && c !== CLOSE && c > 0x20)) throw new PaeFormatError(`not a non-negative number at byte ${from}`);
      if (count === values.length) {
        const grown = new Float32Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[count++] = v;
    }
    const inRow = count - rowStart;
    if (cols < 0) {
      cols = inRow;
      if (cols > MAX_PAE_RESIDUES) throw new PaeFormatError(`more than ${MAX_PAE_RESIDUES} residues`);
      if (!onRow && cols * cols > values.length) {
        const sized = new Float32Array(cols * cols);
        sized.set(values.subarray(0, count));
        values = sized;
      }
    } else if (inRow !== cols) throw new PaeFormatError(`row ${rows + 1} has ${inRow} values, row 1 has ${cols}`);
    if (onRow) {
      onRow(values.subarray(0, cols), rows);
      count = 0;
    }
    rows++;
    if (rows > cols) throw new PaeFormatError(`the matrix is not square (${cols} columns, more rows)`);
  }
  if (rows !== cols || rows === 0) throw new PaeFormatError(`the matrix is not square (${rows} rows, ${cols} columns)`);
  return { n: rows, values: values.subarray(0, count), end: i };
}

export function maxError(buf: Buffer): number | null {
  const at = valueStart(buf, 'max_predicted_aligned_error');
  if (at < 0) return null;
  const m = /^\d+(\.\d+)?/.exec(buf.toString('latin1', at, at + 32));
  return m ? Number(m[0]) : null;
}

function matrixText(values: ArrayLike<number>, n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let j = 0; j < n; j++) row.push(Math.round((values[i * n + j] as number) * 100) / 100);
    rows.push(`[${row.join(',')}]`);
  }
  return `[${rows.join(',')}]`;
}

export interface LoadedPae {
  /** The file in the database's current form: the bytes as loaded when they already were. */
  bytes: Buffer;
  n: number;
}

/** Checks a PAE file as loaded and returns it in the current form. */
export function normalizePae(buf: Buffer): LoadedPae {
  const at = valueStart(buf, 'predicted_aligned_error');
  if (at >= 0) {
    const m = scanMatrix(buf, at);
    if (maxError(buf) === null) throw new PaeFormatError('no max_predicted_aligned_error');
    return { bytes: buf, n: m.n };
  }
  // The interface's N×N `distance`, or the first versions' flattened residue1/residue2/distance.
  const d = valueStart(buf, 'distance');
  if (d < 0) throw new PaeFormatError('no predicted_aligned_error or distance array');
  const max = maxError(buf) ?? 31.75;
  let n: number;
  let values: ArrayLike<number>;
  if (valueStart(buf, 'residue1') >= 0) {
    let doc: unknown;
    try {
      doc = JSON.parse(buf.toString('utf8'));
    } catch (err) {
      throw new PaeFormatError(`not JSON (${(err as Error).message})`);
    }
    const o = (Array.isArray(doc) ? doc[0] : doc) as { distance?: unknown };
    const flat = o.distance;
    if (!Array.isArray(flat) || !flat.every((x) => typeof x === 'number' && x >= 0)) throw new PaeFormatError('distance must be an array of non-negative numbers');
    n = Math.round(Math.sqrt(flat.length));
    if (n * n !== flat.length || n === 0) throw new PaeFormatError(`distance has ${flat.length} values, not a square number`);
    if (n > MAX_PAE_RESIDUES) throw new PaeFormatError(`more than ${MAX_PAE_RESIDUES} residues`);
    values = flat as number[];
  } else {
    const m = scanMatrix(buf, d);
    n = m.n;
    values = m.values;
  }
  const text = `[{"predicted_aligned_error":${matrixText(values, n)},"max_predicted_aligned_error":${max}}]`;
  return { bytes: Buffer.from(text), n };
}

/** The stored (current-form) file read for rendering. */
export function readPae(buf: Buffer): PaeMatrix {
  const at = valueStart(buf, 'predicted_aligned_error');
  if (at < 0) throw new PaeFormatError('no predicted_aligned_error array');
  const m = scanMatrix(buf, at);
  return { n: m.n, values: m.values, max: maxError(buf) ?? 31.75 };
}

/** The served file: the matrix under both names, spliced from the stored text without reparsing it. */
export function servedPae(buf: Buffer): Buffer {
  const at = valueStart(buf, 'predicted_aligned_error');
  if (at < 0) throw new PaeFormatError('no predicted_aligned_error array');
  const matrix = buf.subarray(at, arrayEnd(buf, at));
  const max = maxError(buf) ?? 31.75;
  return Buffer.concat([Buffer.from('[{"distance":'), matrix, Buffer.from(',"predicted_aligned_error":'), matrix, Buffer.from(`,"max_predicted_aligned_error":${max}}]`)]);
}
