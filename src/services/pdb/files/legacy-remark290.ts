/**
 * REMARK 290 (crystallographic symmetry) of a crystal entry: the space group's operators as
 * `NNNMMM   OPERATOR` lines and as SMTRYn matrices in the orthogonal frame of the coordinates.
 * The mmCIF names the space group but does not list its operators; they come from Mol*'s tables
 * (CCP4 symop.lib order), plain data computed in-process: at most 192 operators, nothing that could
 * hang. A space group Mol* does not know leaves the remark out; a missing or impossible cell leaves
 * out the SMTRY lines, which need it.
 */
import { Vec3, Mat4 } from 'molstar/lib/mol-math/linear-algebra.js';
import { Spacegroup, SpacegroupCell } from 'molstar/lib/mol-math/geometry/spacegroup/construction.js';
import { getSpacegroupIndex } from 'molstar/lib/mol-math/geometry/spacegroup/tables.js';
import { type Block, fx, remarkLine, rows, value } from './legacy-cif.js';

const line = (text = '') => remarkLine(290, text);

/** Methods whose entries have a crystal lattice (NMR and EM entries have none, nor the remark). */
const CRYSTAL = /DIFFRACTION|CRYSTALLOGRAPHY/;

function isCrystal(block: Block): boolean {
  for (let i = 0; i < rows(block, 'exptl'); i++) if (CRYSTAL.test(value(block, 'exptl', 'method', i).toUpperCase())) return true;
  return false;
}

/** Mat4 is column-major: row r, column c. */
const at = (m: Mat4, r: number, c: number) => m[c * 4 + r] as number;

/** A fraction as the operator text writes it ("1/2", "2/3"); '' for a whole number. Smallest denominator first, so already reduced. */
function fraction(t: number): string {
  for (const d of [2, 3, 4, 6]) {
    const n = Math.round(t * d);
    if (n % d !== 0 && Math.abs(t * d - n) < 1e-6) return `${n}/${d}`;
  }
  return '';
}

/** One row of a fractional operator as wwPDB writes it: the X, Y, Z terms, then the translation ("-X+Y", "Z+1/3"). */
function operatorRow(op: Mat4, r: number): string {
  let text = '';
  ['X', 'Y', 'Z'].forEach((axis, c) => {
    const k = Math.round(at(op, r, c));
    if (k) text += `${k < 0 ? '-' : text ? '+' : ''}${axis}`;
  });
  const t = fraction(at(op, r, 3));
  return t ? `${text}${t.startsWith('-') ? '' : '+'}${t}` : text;
}

/** The cell from cell.*, or undefined when a length or angle is missing or the angles close no cell. */
function cellOf(block: Block, name: string): SpacegroupCell | undefined {
  const n = (f: string) => Number(value(block, 'cell', f) || NaN);
  const size = [n('length_a'), n('length_b'), n('length_c')];
  const angles = [n('angle_alpha'), n('angle_beta'), n('angle_gamma')];
  if (![...size, ...angles].every((x) => Number.isFinite(x) && x > 0) || angles.some((a) => a >= 180)) return undefined;
  const cell = SpacegroupCell.create(name, Vec3.create(size[0] ?? 0, size[1] ?? 0, size[2] ?? 0), Vec3.create(...(angles.map((a) => (a * Math.PI) / 180) as [number, number, number])));
  // Angles that close no cell give NaN or a flat cell, which has no inverse.
  return Array.from(cell.fromFractional).every(Number.isFinite) && at(cell.fromFractional, 2, 2) > 1e-6 ? cell : undefined;
}

/** A value with the rounding noise of the frame change removed, so that no "-0.000000" is written. */
const clean = (v: number, digits: number) => (Math.abs(v) < 0.5 * 10 ** -digits ? 0 : v);

/** SMTRY1-3 of one operator, in Ångström: the fractional operator carried into the orthogonal frame. */
function smtry(group: Spacegroup, k: number): string[] {
  const m = Spacegroup.setOperatorMatrix(group, k, 0, 0, 0, Mat4());
  const out: string[] = [];
  for (let r = 0; r < 3; r++) {
    const rot = [0, 1, 2].map((c) => fx(clean(at(m, r, c), 6), 10, 6)).join('');
    out.push(line(`  SMTRY${r + 1} ${String(k + 1).padStart(3)}${rot}     ${fx(clean(at(m, r, 3), 5), 10, 5)}`));
  }
  return out;
}

/** REMARK 290 for a crystal entry whose space group Mol* knows; [] otherwise. */
export function remark290(block: Block): string[] {
  const name = value(block, 'symmetry', 'space_group_name_H-M');
  if (!name || !isCrystal(block)) return [];
  // Looked up first: for a name it does not know, Mol*'s SpacegroupCell.create warns on the console and falls back to P 1.
  if (getSpacegroupIndex(name) < 0) return [];
  const operators = Spacegroup.create(SpacegroupCell.create(name, Vec3.create(1, 1, 1), Vec3.create(Math.PI / 2, Math.PI / 2, Math.PI / 2))).operators;
  const out = [line(), line('CRYSTALLOGRAPHIC SYMMETRY'), line(`SYMMETRY OPERATORS FOR SPACE GROUP: ${name}`), line(), line('     SYMOP   SYMMETRY'), line('    NNNMMM   OPERATOR')];
  operators.forEach((op, k) => out.push(line(`${`${k + 1}555`.padStart(10)}   ${[0, 1, 2].map((r) => operatorRow(op, r)).join(',')}`)));
  out.push(line(), line('    WHERE NNN -> OPERATOR NUMBER'), line('          MMM -> TRANSLATION VECTOR'));
  const cell = cellOf(block, name);
  if (cell) {
    const group = Spacegroup.create(cell);
    out.push(line(), line('CRYSTALLOGRAPHIC SYMMETRY TRANSFORMATIONS'), line('THE FOLLOWING TRANSFORMATIONS OPERATE ON THE ATOM/HETATM'));
    out.push(line('RECORDS IN THIS ENTRY TO PRODUCE CRYSTALLOGRAPHICALLY'), line('RELATED MOLECULES.'));
    operators.forEach((_, k) => out.push(...smtry(group, k)));
  }
  return [...out, line(), line('REMARK: NULL')];
}
