/**
 * The legacy PDB format, written column by column as the wwPDB format guide lays it out. Entries
 * the format cannot hold (the archive's own rule: over 99,999 atoms, over 62 chains, multi-character
 * chain ids, residue names over three characters) raise LegacyFormatUnavailable; nothing is
 * truncated and no hybrid-36 numbering is used, as the archive does not use it.
 */
import type { CifBlock, CifFile } from 'molstar/lib/mol-io/reader/cif.js';
import { LegacyFormatUnavailable } from './errors.js';
import { dbrefRecords, hetRecords, seqresRecords } from './legacy-sequence.js';
import { firstBlock } from './parse.js';
import { atomSite, col, hetatmRows, item, polymerEntities, type AtomSite } from './table.js';

/** A 3x4 transform (rotation rows then translation), applied as R·x + t. */
export type Transform = readonly [number, number, number, number, number, number, number, number, number, number, number, number];

export interface LegacyModel {
  /** Model number written on the MODEL record. */
  num: number;
  /** atom_site rows in writing order. */
  rows: ArrayLike<number>;
  transform?: Transform;
}

const MAX_SERIAL = 99_999;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const pad80 = (s: string) => (s.length >= 80 ? s.slice(0, 80) : s.padEnd(80));
const fx = (v: number, width: number, digits: number) => v.toFixed(digits).padStart(width);

/** Throws LegacyFormatUnavailable when the atoms of a model do not fit the format. */
export function checkLegacyFit(a: AtomSite, models: readonly LegacyModel[]): void {
  const chains = new Set<string>();
  for (const m of models) {
    // TER records take serial numbers too; one per chain at most.
    let serials = m.rows.length;
    const modelChains = new Set<string>();
    for (let k = 0; k < m.rows.length; k++) {
      const r = m.rows[k] as number;
      const chain = a.authAsym.str(r);
      if (chain.length > 1) throw new LegacyFormatUnavailable(`chain id "${chain}" is longer than one character`);
      if (a.authComp.str(r).length > 3) throw new LegacyFormatUnavailable(`residue name "${a.authComp.str(r)}" is longer than three characters`);
      if (a.bFactor.float(r) > 999.99) throw new LegacyFormatUnavailable('a B-factor above 999.99');
      modelChains.add(chain);
      chains.add(chain);
    }
    serials += modelChains.size;
    if (serials > MAX_SERIAL) throw new LegacyFormatUnavailable(`more than ${MAX_SERIAL} atoms in a model`);
  }
  if (chains.size > 62) throw new LegacyFormatUnavailable(`${chains.size} chains (the format holds 62)`);
}

/** Columns 13-16: names of four characters start at 13; one-letter elements' names at 14. */
function atomName(name: string, element: string): string {
  if (name.length >= 4) return name.slice(0, 4);
  if (element.length === 1 || element === '') return ` ${name.padEnd(3)}`;
  return name.padEnd(4);
}

function chargeText(a: AtomSite, r: number): string {
  if (!a.charge.has(r)) return '  ';
  const q = a.charge.int(r);
  if (!q) return '  ';
  return `${Math.abs(q)}${q > 0 ? '+' : '-'}`;
}

const U = ['U[1][1]', 'U[2][2]', 'U[3][3]', 'U[1][2]', 'U[1][3]', 'U[2][3]'];

/**
 * The anisotropic displacement of each atom that has one (`atom_site_anisotrop`, by atom id): the
 * six columns of its ANISOU record, U in units of 10^-4 Å² as the format writes them.
 */
function anisotropy(block: CifBlock): Map<string, string> {
  const cat = block.categories.atom_site_anisotrop;
  const out = new Map<string, string>();
  if (!cat) return out;
  const id = col(cat, 'id');
  const us = U.map((n) => col(cat, n));
  for (let r = 0; r < cat.rowCount; r++) {
    if (!us.every((u) => u.has(r))) continue;
    const values = us.map((u) => Math.round(u.float(r) * 10_000));
    // Seven columns each: a tensor that is not numbers or does not fit is left out, not written askew.
    if (!values.every((v) => Number.isFinite(v) && v >= -999_999 && v <= 9_999_999)) continue;
    out.set(id.str(r), values.map((v) => String(v).padStart(7)).join(''));
  }
  return out;
}

/**
 * ATOM/HETATM, ANISOU and TER records of the given models (MODEL/ENDMDL around each when there are
 * several). ANISOU follows its atom where the mmCIF has the atom's tensor, in a model written as
 * deposited (a transformed copy would need the tensor rotated: it is left out there).
 */
function atomRecords(block: CifBlock, a: AtomSite, models: readonly LegacyModel[], wrap: boolean, out: string[]): void {
  const polymers = polymerEntities(block);
  const isHet = hetatmRows(block, a);
  const tensors = anisotropy(block);
  for (const m of models) {
    if (wrap) out.push(pad80(`MODEL     ${String(m.num).padStart(4)}`));
    let serial = 0;
    const t = m.transform;
    for (let k = 0; k < m.rows.length; k++) {
      const r = m.rows[k] as number;
      serial++;
      let x = a.x.float(r);
      let y = a.y.float(r);
      let z = a.z.float(r);
      if (t) {
        const nx = t[0] * x + t[1] * y + t[2] * z + t[9];
        const ny = t[3] * x + t[4] * y + t[5] * z + t[10];
        const nz = t[6] * x + t[7] * y + t[8] * z + t[11];
        x = nx;
        y = ny;
        z = nz;
      }
      const element = a.element.str(r).toUpperCase();
      const record = isHet(r) ? 'HETATM' : 'ATOM  ';
      const resName = a.authComp.str(r).padStart(3);
      const chain = a.authAsym.str(r) || ' ';
      const resSeq = a.authSeq.str(r).padStart(4);
      const ins = a.insCode.str(r) || ' ';
      // Columns 7-27 (serial to insertion code) and 77-80 (element, charge) are the same in ANISOU.
      const atom = `${String(serial).padStart(5)} ${atomName(a.authAtom.str(r), element)}${a.altId.str(r) || ' '}${resName} ${chain}${resSeq}${ins}`;
      const tail = `${element.padStart(2)}${chargeText(a, r)}`;
      out.push(pad80(`${record}${atom}   ${fx(x, 8, 3)}${fx(y, 8, 3)}${fx(z, 8, 3)}${fx(a.occupancy.float(r), 6, 2)}${fx(a.bFactor.float(r), 6, 2)}          ${tail}`));
      const u = t ? undefined : tensors.get(a.id.str(r));
      if (u) out.push(pad80(`ANISOU${atom} ${u}      ${tail}`));
      // TER closes each polymer chain after its last atom.
      const next = k + 1 < m.rows.length ? (m.rows[k + 1] as number) : -1;
      if (polymers.has(a.labelEntity.str(r)) && (next < 0 || a.labelAsym.str(next) !== a.labelAsym.str(r))) {
        serial++;
        out.push(pad80(`TER   ${String(serial).padStart(5)}      ${resName} ${chain}${resSeq}${ins}`));
      }
    }
    if (wrap) out.push(pad80('ENDMDL'));
  }
}

function depositDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return '         ';
  return `${m[3]}-${MONTHS[Number(m[2]) - 1] ?? '???'}-${(m[1] as string).slice(2)}`;
}

/** Words of text over continued records: the first line holds 70 columns, continuations 69 after their number. */
function continued(record: string, text: string, out: string[], widths: readonly [number, number] = [70, 69]): void {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  let line = '';
  let n = 1;
  const flush = () => {
    out.push(pad80(n === 1 ? `${record.padEnd(10)}${line}` : `${record.padEnd(8)}${String(n).padStart(2)} ${line}`));
    n++;
    line = '';
  };
  for (const w of words) {
    const width = n === 1 ? widths[0] : widths[1];
    if (line && line.length + 1 + w.length > width) flush();
    line = line ? `${line} ${w}` : w.slice(0, width);
  }
  if (line) flush();
}

/** Items of a comma-separated list over continued records, breaking only after a comma. */
function continuedList(record: string, items: string[], out: string[]): void {
  let line = '';
  let n = 1;
  const flush = () => {
    out.push(pad80(n === 1 ? `${record.padEnd(10)}${line}` : `${record.padEnd(8)}${String(n).padStart(2)} ${line}`));
    n++;
    line = '';
  };
  items.forEach((item, i) => {
    const piece = i < items.length - 1 ? `${item},` : item;
    // Columns 11-79 (12-79 continued): the archive's AUTHOR lines end by column 79.
    if (line && line.length + piece.length > (n === 1 ? 69 : 68)) flush();
    line += piece;
  });
  if (line) flush();
}

/** "Perutz, M.F." as the legacy format writes authors: "M.F.PERUTZ". */
function legacyAuthor(name: string): string {
  const comma = name.indexOf(',');
  const written = comma < 0 ? name : `${name.slice(comma + 1).trim()}${name.slice(0, comma).trim()}`;
  return written.toUpperCase();
}

function matrixRecords(block: CifBlock, out: string[]): void {
  const m = block.categories.database_PDB_matrix;
  if (m && m.getField('origx[1][1]')) {
    for (let i = 1; i <= 3; i++) {
      const v = (f: string) => col(m, f).float(0);
      out.push(pad80(`ORIGX${i}    ${fx(v(`origx[${i}][1]`), 10, 6)}${fx(v(`origx[${i}][2]`), 10, 6)}${fx(v(`origx[${i}][3]`), 10, 6)}     ${fx(v(`origx_vector[${i}]`), 10, 5)}`));
    }
  }
  const s = block.categories.atom_sites;
  if (s && s.getField('fract_transf_matrix[1][1]')) {
    for (let i = 1; i <= 3; i++) {
      const v = (f: string) => col(s, f).float(0);
      out.push(
        pad80(
          `SCALE${i}    ${fx(v(`fract_transf_matrix[${i}][1]`), 10, 6)}${fx(v(`fract_transf_matrix[${i}][2]`), 10, 6)}${fx(v(`fract_transf_matrix[${i}][3]`), 10, 6)}     ${fx(v(`fract_transf_vector[${i}]`), 10, 5)}`,
        ),
      );
    }
  }
}

/** HEADER, TITLE, KEYWDS, EXPDTA, AUTHOR, DBREF, SEQRES, HET, HETNAM, CRYST1, ORIGXn, SCALEn from the categories that carry them. */
function headerRecords(block: CifBlock, idCode: string, out: string[], atoms?: { a: AtomSite; rows: ArrayLike<number> }, models = 1): void {
  // The format writes the classification in capitals (an mmCIF may have 'Viral protein').
  const classification = item(block, 'struct_keywords', 'pdbx_keywords').toUpperCase();
  // mmCIFs of the older dictionary keep the deposition date only as the first revision's original date.
  const date = depositDate(item(block, 'pdbx_database_status', 'recvd_initial_deposition_date') || item(block, 'database_PDB_rev', 'date_original'));
  out.push(pad80(`HEADER    ${classification.slice(0, 40).padEnd(40)}${date}   ${idCode}`));
  const title = item(block, 'struct', 'title');
  if (title) continued('TITLE', title.toUpperCase(), out);
  const keywords = item(block, 'struct_keywords', 'text');
  // Comma-and-space separated, broken between words within columns 11-79 (12-79 continued).
  if (keywords)
    continued(
      'KEYWDS',
      keywords
        .toUpperCase()
        .split(/\s*,\s*/)
        .join(', '),
      out,
      [69, 68],
    );
  const methods = block.categories.exptl;
  if (methods) {
    const method = col(methods, 'method');
    const all = Array.from({ length: methods.rowCount }, (_, i) => method.str(i)).filter(Boolean);
    if (all.length) continued('EXPDTA', all.join('; '), out);
  }
  if (models > 1) out.push(pad80(`NUMMDL    ${models}`));
  const authors = block.categories.audit_author;
  if (authors?.rowCount) {
    const name = col(authors, 'name');
    continuedList('AUTHOR', Array.from({ length: authors.rowCount }, (_, i) => legacyAuthor(name.str(i))).filter(Boolean), out);
  }
  dbrefRecords(block, idCode, out);
  seqresRecords(block, out);
  if (atoms) hetRecords(block, atoms.a, atoms.rows, out);
  const cell = block.categories.cell;
  if (cell && cell.getField('length_a')) {
    const v = (f: string) => col(cell, f).float(0);
    const group = item(block, 'symmetry', 'space_group_name_H-M');
    const z = col(cell, 'Z_PDB').str(0);
    out.push(
      pad80(
        `CRYST1${fx(v('length_a'), 9, 3)}${fx(v('length_b'), 9, 3)}${fx(v('length_c'), 9, 3)}${fx(v('angle_alpha'), 7, 2)}${fx(v('angle_beta'), 7, 2)}${fx(v('angle_gamma'), 7, 2)} ${group.padEnd(11)}${z.padStart(4)}`,
      ),
    );
  }
  // No crystal: the unit cube in P 1, as the archive writes it (REMARK 215 says these values mean nothing).
  else if (!/DIFFRACTION|CRYSTALLOGRAPHY/i.test(item(block, 'exptl', 'method'))) out.push(pad80(`CRYST1${fx(1, 9, 3).repeat(3)}${fx(90, 7, 2).repeat(3)} ${'P 1'.padEnd(11)}${'1'.padStart(4)}`));
  matrixRecords(block, out);
}

/** Every model of the file, in file order, with its atom_site rows. */
export function fileModels(a: AtomSite): LegacyModel[] {
  const byModel = new Map<number, number[]>();
  for (let r = 0; r < a.count; r++) {
    const n = a.model.has(r) ? a.model.int(r) : 1;
    let rows = byModel.get(n);
    if (!rows) byModel.set(n, (rows = []));
    rows.push(r);
  }
  return [...byModel].map(([num, rows]) => ({ num, rows }));
}

/** Legacy PDB text of the given models of a block (already checked, or checked here). */
export function writeLegacy(block: CifBlock, models: readonly LegacyModel[], opts: { header?: boolean; idCode?: string; wrapModels?: boolean; numberModels?: boolean } = {}): string {
  const a = atomSite(block);
  checkLegacyFit(a, models);
  const out: string[] = [];
  const first = models[0];
  if (opts.header !== false) headerRecords(block, opts.idCode ?? item(block, 'entry', 'id'), out, first ? { a, rows: first.rows } : undefined, opts.numberModels ? models.length : 1);
  atomRecords(block, a, models, opts.wrapModels ?? models.length > 1, out);
  out.push(pad80('END'));
  return `${out.join('\n')}\n`;
}

/** Legacy PDB text of the whole file (all models). Throws LegacyFormatUnavailable when it does not fit. */
export function toLegacyPdb(file: CifFile, options: { header?: boolean } = {}): string {
  const block = firstBlock(file);
  // NUMMDL: how many models the entry has (an assembly's file numbers its copies instead).
  return writeLegacy(block, fileModels(atomSite(block)), { ...options, numberModels: true });
}
