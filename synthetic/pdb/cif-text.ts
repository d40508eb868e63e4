/**
 * Writes CIF text the way the PDB archive lays it out: `data_` blocks, categories separated by `#`,
 * single-row categories as `_cat.item value` pairs, multi-row ones as `loop_` tables. Values that
 * need it are quoted ('...' or "..."), values with newlines or both quote kinds become `;` text fields.
 */

export type CifValue = string | number | null | undefined;
export type CifRow = Record<string, CifValue>;

/** `null`/`undefined` are written as `?` (unknown); pass '.' for "not applicable". */
export function cifValue(v: CifValue): string {
  if (v === null || v === undefined || v === '') return '?';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  if (v === '?' || v === '.') return v;
  if (v.includes('\n') || (v.includes("'") && v.includes('"'))) return `\n;${v}\n;\n`;
  const needsQuote = /[\s'"]/.test(v) || /^[_#$'";[\]]/.test(v) || /^(data_|loop_|save_|global_|stop_)/i.test(v);
  if (!needsQuote) return v;
  if (!v.includes("'")) return `'${v}'`;
  return `"${v}"`;
}

/** Fixed-point number as the archive writes coordinates (e.g. 3 decimals). */
export function fixed(n: number, digits: number): string {
  const s = n.toFixed(digits);
  return s === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : s;
}

export class CifBlockWriter {
  private readonly parts: string[] = [];

  constructor(name: string, header?: string) {
    if (header) this.parts.push(header.endsWith('\n') ? header : `${header}\n`);
    this.parts.push(`data_${name}\n#\n`);
  }

  /** A category; one row is written as key-value pairs, more rows as a loop. */
  category(cat: string, rows: CifRow[]): this {
    if (rows.length === 0) return this;
    const keys = Object.keys(rows[0]!);
    if (rows.length === 1) {
      const row = rows[0]!;
      const width = Math.max(...keys.map((k) => cat.length + k.length + 2)) + 1;
      let out = '';
      for (const k of keys) {
        const name = `_${cat}.${k}`;
        const val = cifValue(row[k]);
        out += val.startsWith('\n;') ? `${name}${val}` : `${name.padEnd(width)} ${val}\n`;
      }
      this.parts.push(`${out}#\n`);
      return this;
    }
    let out = `loop_\n${keys.map((k) => `_${cat}.${k} \n`).join('')}`;
    for (const row of rows) {
      // A text field (`;...;`) must start a line, and the next value starts a new line after it.
      let line = '';
      for (const k of keys) {
        const val = cifValue(row[k]);
        if (val.startsWith('\n;')) {
          out += `${line === '' ? '' : `${line}`}${val.slice(line === '' ? 1 : 0)}`;
          line = '';
        } else {
          line += line === '' ? val : ` ${val}`;
        }
      }
      if (line !== '') out += `${line} \n`;
    }
    this.parts.push(`${out}#\n`);
    return this;
  }

  /** Pre-formatted loop lines (for large tables such as atom_site, built column by column). */
  rawLoop(cat: string, keys: string[], lines: Iterable<string>): this {
    this.parts.push(`loop_\n${keys.map((k) => `_${cat}.${k} \n`).join('')}`);
    for (const l of lines) this.parts.push(`${l} \n`);
    this.parts.push('#\n');
    return this;
  }

  toString(): string {
    return this.parts.join('');
  }
}
