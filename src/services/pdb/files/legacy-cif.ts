/**
 * What the legacy `.pdb` header writers share: reading one mmCIF value, padding a record to 80
 * columns, fixed-point numbers, and the residues the format calls standard (the rest are HET groups).
 */
import { firstBlock } from '../../../core/mmcif/parse.js';
import { STANDARD_RESIDUES } from '../../../core/mmcif/standard.js';

export type Block = ReturnType<typeof firstBlock>;

export const pad80 = (s: string) => (s.length >= 80 ? s.slice(0, 80) : s.padEnd(80));

/** One REMARK line ('' for the blank line that opens a remark or a paragraph). */
export const remarkLine = (n: number, text = '') => pad80(`REMARK ${String(n).padStart(3)}${text ? ` ${text}` : ''}`);

/** A number in a fixed-width field, right-aligned. */
export const fx = (v: number, width: number, digits: number) => v.toFixed(digits).padStart(width);

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** "1984-07-17" as the legacy format writes dates: "17-JUL-84". */
export function legacyDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return '         ';
  return `${m[3]}-${MONTHS[Number(m[2]) - 1] ?? '???'}-${(m[1] as string).slice(2)}`;
}

/** One value of a category (row i), '' for absent, '.' or '?'. */
export function value(block: Block, category: string, field: string, row = 0): string {
  const f = block.categories[category]?.getField(field);
  if (!f || row >= f.rowCount || f.valueKind(row) !== 0) return '';
  return f.str(row).trim();
}

export function rows(block: Block, category: string): number {
  return block.categories[category]?.rowCount ?? 0;
}

/** A reader of one category's values by field and row. */
export function reader(block: Block, category: string): (field: string, row?: number) => string {
  return (field, row = 0) => value(block, category, field, row);
}

/** Residues written as ATOM records; every other residue is a HET group. */
export const STANDARD = STANDARD_RESIDUES;

const TWO_LETTER = /^(FE|ZN|MG|MN|CU|CO|NI|NA|CL|BR|CD|HG|SE|CA|LI|AL|GA|PT|AU|AG|MO|SR|BA|CS|RB|TB|YB|GD|SM|EU|PB|IR|OS|RU|RH|PD|SB|TE|XE|KR|AR|NE|HE|BE|SI|TI|CR|V|AS)$/;

const elementCache = new WeakMap<Block, Map<string, string>>();

/** Element of each (residue name, atom name) in atom_site, read once per block. */
function elements(block: Block): Map<string, string> {
  let map = elementCache.get(block);
  if (map) return map;
  map = new Map();
  const n = rows(block, 'atom_site');
  const comp = block.categories.atom_site?.getField('label_comp_id');
  const atom = block.categories.atom_site?.getField('label_atom_id');
  const type = block.categories.atom_site?.getField('type_symbol');
  for (let i = 0; comp && atom && type && i < n; i++) {
    const key = `${comp.str(i)}|${atom.str(i)}`;
    if (!map.has(key)) map.set(key, type.str(i).toUpperCase());
  }
  elementCache.set(block, map);
  return map;
}

/** An atom name in four columns: four-character names and those of two-letter elements (a heme's FE) start in the first. */
export function atomField(name: string, comp: string, block?: Block): string {
  if (name.length >= 4) return name.slice(0, 4);
  const element = block ? elements(block).get(`${comp}|${name}`) : undefined;
  const twoLetter = element !== undefined ? element.length === 2 && name.toUpperCase().startsWith(element) : !STANDARD.has(comp) && TWO_LETTER.test(name);
  return twoLetter ? name.padEnd(4) : ` ${name.padEnd(3)}`;
}

export const WATER = new Set(['HOH', 'DOD', 'WAT']);

/** Words of a text over lines of at most `width` characters (a longer word gets a line of its own, cut). */
export function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (!w) continue;
    if (line && line.length + 1 + w.length > width) {
      out.push(line);
      line = '';
    }
    line = line ? `${line} ${w}` : w.slice(0, width);
  }
  if (line) out.push(line);
  return out;
}

/** A remark's long value over lines of at most `width` characters, continuation lines indented by one, as the archive's files write them. */
export function indentedWrap(text: string, width: number): string[] {
  const [first = '', ...rest] = wrapWords(text, width);
  return rest.length ? [first, ...wrapWords(rest.join(' '), width - 1).map((l) => ` ${l}`)] : [first];
}

/** Whether the entry has several models (model numbers are then written in the M columns). */
export function multiModel(block: Block): boolean {
  const n = rows(block, 'atom_site');
  return n > 0 && value(block, 'atom_site', 'pdbx_PDB_model_num', 0) !== value(block, 'atom_site', 'pdbx_PDB_model_num', n - 1);
}

/** Model, residue, chain, number and insertion code as the REMARK 465/470/500/610 tables lay them out (from column 12). */
export function residueColumns(model: string, comp: string, chain: string, seq: string, ins: string, gap: '' | ' ' = '', width = 4): string {
  return `${model.padStart(3)} ${comp.padStart(3)} ${chain || ' '}${gap}${seq.padStart(width)}${ins || ' '}`;
}

/** A category's field over its rows, upper-case, joined with "; " as the archive's remarks list them (empty when no row has it). */
export function joinedRows(block: Block, category: string, field: string, suffix = ''): string {
  const v = reader(block, category);
  const out: string[] = [];
  for (let i = 0; i < rows(block, category); i++) {
    const x = v(field, i).replace(/\s+/g, ' ').trim();
    if (x) out.push(`${x}${suffix}`.toUpperCase());
  }
  return out.join('; ');
}
