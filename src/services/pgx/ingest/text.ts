/**
 * Reading PharmGKB's and CPIC's delimited text: tab-separated downloads (whose cells are sometimes
 * wrapped in CSV-style quotes) and comma-separated exports. No cell spans lines in these files.
 */

/** A cell wrapped in quotes with every inner quote doubled, as PharmGKB writes some list cells. */
function unquote(cell: string): string {
  if (cell.length < 2 || !cell.startsWith('"') || !cell.endsWith('"')) return cell;
  const inner = cell.slice(1, -1);
  // `"ACE1","CD143"` is a list of quoted items, not one quoted cell: its inner quotes are single.
  if (inner.replace(/""/g, '').includes('"')) return cell;
  return inner.replace(/""/g, '"');
}

/** Splits one line of a comma-separated file, honouring quotes. */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export type Delimiter = '\t' | ',';

export function splitLine(line: string, delimiter: Delimiter): string[] {
  const cells = delimiter === '\t' ? line.split('\t').map(unquote) : splitCsv(line);
  return cells.map((c) => c.trim());
}

/** The delimiter a header line uses: tabs when it has any, else commas. */
export function delimiterOf(line: string): Delimiter {
  return line.includes('\t') ? '\t' : ',';
}

/**
 * Items of a list cell: split on `sep` outside double quotes, items trimmed and unquoted, empty
 * ones dropped. PharmGKB separates with `, ` in most files and `;` in annotation files.
 */
export function splitList(cell: string | undefined, sep = ','): string[] {
  if (!cell) return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const c of cell) {
    if (c === '"') quoted = !quoted;
    else if (c === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** A row as a map from column name to cell, the names as the header spells them. */
export class Row {
  constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly cells: readonly string[],
  ) {}

  /** The first of `names` the file has, trimmed; '' when none or empty. */
  get(...names: string[]): string {
    for (const n of names) {
      const i = this.index.get(n.toLowerCase());
      if (i !== undefined) return this.cells[i] ?? '';
    }
    return '';
  }

  /** Columns whose name satisfies `test`, with their cells (frequency columns of allele tables). */
  matching(test: (name: string) => boolean): [string, string][] {
    const out: [string, string][] = [];
    for (const [name, i] of this.index) if (test(name)) out.push([name, this.cells[i] ?? '']);
    return out;
  }
}

export interface Header {
  /** Column names as written. */
  names: string[];
  index: Map<string, number>;
  delimiter: Delimiter;
}

export function header(line: string): Header {
  const delimiter = delimiterOf(line);
  const names = splitLine(line.replace(/^\uFEFF/, ''), delimiter);
  const index = new Map<string, number>();
  names.forEach((n, i) => {
    const key = n.toLowerCase();
    if (!index.has(key)) index.set(key, i);
  });
  return { names, index, delimiter };
}

export function has(h: Header, ...names: string[]): boolean {
  return names.every((n) => h.index.has(n.toLowerCase()));
}

/** PMIDs in the evidence file are sometimes written as floats (`30924126.0`). */
export function pmid(cell: string): string {
  const m = /^(\d+)(?:\.0+)?$/.exec(cell.trim());
  return m ? (m[1] as string) : '';
}

/** A date cell reduced to YYYY-MM-DD, or '' when it holds none. */
export function isoDate(cell: string | undefined): string {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec((cell ?? '').trim());
  return m ? (m[1] as string) : '';
}
