/**
 * SD files: a molfile followed by `> <TAG>` data items, records ended by `$$$$`. PubChem's bulk
 * Compound and Substance files are SD files with PUBCHEM_* tags.
 */

export interface SdfRecord {
  /** The molfile, through `M  END`. */
  molblock: string;
  /** Data items in file order; a tag given twice keeps its first value. */
  tags: Map<string, string>;
  /** The record's text as read, through its `$$$$` line (when read from a file). */
  text?: string;
}

const TAG = /^>\s*(?:\d+\s*)?<([^>]+)>/;

/** One record from its lines (without the `$$$$` line). */
export function parseSdfRecord(lines: readonly string[]): SdfRecord | string {
  const end = lines.findIndex((l) => l.startsWith('M  END'));
  if (end < 0) return 'no "M  END" line: not a molfile';
  if (end < 3) return 'molfile header is incomplete';
  const molblock = lines.slice(0, end + 1).join('\n') + '\n';
  const tags = new Map<string, string>();
  let i = end + 1;
  while (i < lines.length) {
    const m = TAG.exec(lines[i] as string);
    i++;
    if (!m) continue;
    const value: string[] = [];
    while (i < lines.length && (lines[i] as string).trim() !== '') value.push(lines[i++] as string);
    const name = (m[1] as string).trim();
    if (!tags.has(name)) tags.set(name, value.join('\n'));
  }
  return { molblock, tags };
}

/**
 * One record from its text (through `M  END`, its data items, optionally its `$$$$` line), read
 * as `parseSdfRecord` reads lines but without splitting the text: loads read millions of them.
 */
export function parseSdfText(text: string): SdfRecord | string {
  if (text.includes('\r')) {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const stop = lines.findIndex((l) => l.startsWith('$$$$'));
    return parseSdfRecord(stop < 0 ? lines : lines.slice(0, stop));
  }
  const end = text.startsWith('M  END') ? 0 : text.indexOf('\nM  END') + 1;
  if (end <= 0 && !text.startsWith('M  END')) return 'no "M  END" line: not a molfile';
  let header = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end && header < 3; i = text.indexOf('\n', i + 1)) header++;
  if (header < 3) return 'molfile header is incomplete';
  const eol = text.indexOf('\n', end);
  const molblock = (eol < 0 ? text.slice(0, text.length) : text.slice(0, eol)) + '\n';
  const tags = new Map<string, string>();
  // Lines are walked by their offsets, not cut out: only tag lines and values become strings.
  let i = eol < 0 ? text.length : eol + 1;
  const lineEnd = (at: number) => {
    const nl = text.indexOf('\n', at);
    return nl < 0 ? text.length : nl;
  };
  while (i < text.length) {
    const stop = lineEnd(i);
    const first = text.charCodeAt(i);
    if (first === 36 /* $ */ && text.startsWith('$$$$', i)) break;
    const m = first === 62 /* > */ ? TAG.exec(text.slice(i, stop)) : null;
    i = stop + 1;
    if (!m) continue;
    const from = i;
    let to = from;
    while (i < text.length) {
      const e = lineEnd(i);
      if (blank(text, i, e) || text.startsWith('$$$$', i)) break;
      to = e;
      i = e + 1;
    }
    const name = (m[1] as string).trim();
    if (!tags.has(name)) tags.set(name, to > from ? text.slice(from, to) : '');
  }
  return { molblock, tags };
}

/** Whether text[from, to) is empty or whitespace, as `String.trim` sees it. */
function blank(text: string, from: number, to: number): boolean {
  if (from === to) return true;
  const c = text.charCodeAt(from);
  // A printable ASCII first character settles it without cutting the line out.
  if (c > 32 && c < 127) return false;
  return text.slice(from, to).trim() === '';
}

/** Records of a whole SD text (small inputs: requests, tests). */
export function parseSdf(text: string): (SdfRecord | string)[] {
  const out: (SdfRecord | string)[] = [];
  let cur: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.startsWith('$$$$')) {
      out.push(parseSdfRecord(cur));
      cur = [];
    } else cur.push(line);
  }
  if (cur.some((l) => l.trim() !== '')) out.push(parseSdfRecord(cur));
  return out;
}

export function writeSdfRecord(molblock: string, tags: Iterable<[string, string]>): string {
  let s = molblock.endsWith('\n') ? molblock : molblock + '\n';
  for (const [k, v] of tags) s += `> <${k}>\n${v}\n\n`;
  return s + '$$$$\n';
}

export interface MolfileAtom {
  x: number;
  y: number;
  z: number;
  symbol: string;
  charge: number;
  isotope: number;
}

export interface MolfileBond {
  a: number;
  b: number;
  order: number;
  /** V2000 bond stereo: 1 wedge, 6 hash, 4 either, 3 cis/trans either. */
  stereo: number;
}

const V2000_CHARGE: Record<number, number> = { 1: 3, 2: 2, 3: 1, 5: -1, 6: -2, 7: -3 };

/** Atoms and bonds of a V2000 molfile (what PubChem's SD files hold). */
export function readMolfile(molblock: string): { atoms: MolfileAtom[]; bonds: MolfileBond[] } | string {
  const lines = molblock.replace(/\r\n?/g, '\n').split('\n');
  const counts = lines[3] ?? '';
  if (!counts.includes('V2000')) return 'only V2000 molfiles are read';
  const na = Number(counts.slice(0, 3));
  const nb = Number(counts.slice(3, 6));
  if (!Number.isInteger(na) || !Number.isInteger(nb) || lines.length < 4 + na + nb) return 'molfile counts line does not match its atoms and bonds';
  const atoms: MolfileAtom[] = [];
  for (let i = 0; i < na; i++) {
    const l = lines[4 + i] as string;
    const ccc = Number(l.slice(36, 39)) || 0;
    atoms.push({
      x: Number(l.slice(0, 10)),
      y: Number(l.slice(10, 20)),
      z: Number(l.slice(20, 30)),
      symbol: l.slice(31, 34).trim(),
      charge: V2000_CHARGE[ccc] ?? 0,
      isotope: 0,
    });
  }
  const bonds: MolfileBond[] = [];
  for (let i = 0; i < nb; i++) {
    const l = lines[4 + na + i] as string;
    bonds.push({ a: Number(l.slice(0, 3)), b: Number(l.slice(3, 6)), order: Number(l.slice(6, 9)), stereo: Number(l.slice(9, 12)) || 0 });
  }
  // Property lines override the atom block's charges and give isotopes.
  let chargesReset = false;
  for (const l of lines.slice(4 + na + nb)) {
    const kind = l.slice(0, 6);
    if (kind !== 'M  CHG' && kind !== 'M  ISO') continue;
    if (kind === 'M  CHG' && !chargesReset) {
      for (const a of atoms) a.charge = 0;
      chargesReset = true;
    }
    const parts = l.slice(6).trim().split(/\s+/).map(Number);
    for (let k = 1; k + 1 < parts.length; k += 2) {
      const atom = atoms[(parts[k] as number) - 1];
      if (!atom) continue;
      if (kind === 'M  CHG') atom.charge = parts[k + 1] as number;
      else atom.isotope = parts[k + 1] as number;
    }
  }
  return { atoms, bonds };
}
