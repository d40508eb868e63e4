/**
 * Biological assemblies from pdbx_struct_assembly_gen and pdbx_struct_oper_list. An operator
 * expression is a product of groups, each a list of ids and ranges: "1", "(1,2,5)", "(1-60)",
 * "(1-5)(6-10)", "(X0)(1-5,11-15)", "P". In a product the right-most operator acts first, so the
 * composite of (A)(B) is A·B. Copies are named as the archive's assembly files name them (wwPDB,
 * 2022): the first copy keeps the original chain id, later ones append the operator ids after
 * dashes (A-2, A-12-60).
 */
import type { CifBlock } from 'molstar/lib/mol-io/reader/cif.js';
import { AssemblyNotFound, CifFormatError } from './errors.js';
import type { Transform } from './legacy.js';
import { col } from './table.js';

export interface AssemblyOperator {
  /** Operator ids of the product, left to right. */
  ids: string[];
  transform: Transform;
}

export interface AssemblyPart {
  operator: AssemblyOperator;
  /** label_asym_ids this operator applies to. */
  asyms: Set<string>;
}

const MAX_OPERATORS = 100_000;

/** The groups of an expression, each a list of operator ids (ranges expanded over numeric ids). */
export function parseOperExpression(expr: string): string[][] {
  const text = expr.replace(/\s+/g, '');
  if (!text) throw new CifFormatError('empty oper_expression');
  const groups: string[][] = [];
  const parts = text.includes('(') ? text.match(/\(([^()]*)\)/g) : [text];
  if (!parts || (text.includes('(') && parts.join('') !== text)) throw new CifFormatError(`unreadable oper_expression "${expr}"`);
  for (const part of parts) {
    const inner = part.replace(/^\(|\)$/g, '');
    const ids: string[] = [];
    for (const piece of inner.split(',')) {
      if (!piece) throw new CifFormatError(`unreadable oper_expression "${expr}"`);
      const range = /^(\d+)-(\d+)$/.exec(piece);
      if (range) {
        const from = Number(range[1]);
        const to = Number(range[2]);
        if (to < from || to - from > MAX_OPERATORS) throw new CifFormatError(`bad range "${piece}" in oper_expression`);
        for (let i = from; i <= to; i++) ids.push(String(i));
      } else ids.push(piece);
    }
    groups.push(ids);
  }
  return groups;
}

function compose(a: Transform, b: Transform): Transform {
  // (Ra, ta)·(Rb, tb) = (Ra·Rb, Ra·tb + ta)
  const r = (i: number, j: number) => a[i * 3]! * b[j]! + a[i * 3 + 1]! * b[3 + j]! + a[i * 3 + 2]! * b[6 + j]!;
  const t = (i: number) => a[i * 3]! * b[9] + a[i * 3 + 1]! * b[10] + a[i * 3 + 2]! * b[11] + a[9 + i]!;
  return [r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2), t(0), t(1), t(2)] as unknown as Transform;
}

function operatorTable(block: CifBlock): Map<string, Transform> {
  const cat = block.categories.pdbx_struct_oper_list;
  const out = new Map<string, Transform>();
  if (!cat) return out;
  const id = col(cat, 'id');
  const m = (i: number, j: number) => col(cat, `matrix[${i}][${j}]`);
  const v = (i: number) => col(cat, `vector[${i}]`);
  const cols = [m(1, 1), m(1, 2), m(1, 3), m(2, 1), m(2, 2), m(2, 3), m(3, 1), m(3, 2), m(3, 3), v(1), v(2), v(3)];
  for (let r = 0; r < cat.rowCount; r++) {
    out.set(id.str(r), cols.map((c) => c.float(r)) as unknown as Transform);
  }
  return out;
}

/** Assembly ids the file defines, in file order. */
export function assemblyIds(block: CifBlock): string[] {
  const cat = block.categories.pdbx_struct_assembly ?? block.categories.pdbx_struct_assembly_gen;
  if (!cat) return [];
  const id = col(cat, cat.name === 'pdbx_struct_assembly' ? 'id' : 'assembly_id');
  return [...new Set(Array.from({ length: cat.rowCount }, (_, i) => id.str(i)))];
}

/** The operator/chain pairs of one assembly, in the order of its generator rows and expressions. */
export function assemblyParts(block: CifBlock, assemblyId: string, maxCopies = MAX_OPERATORS): AssemblyPart[] {
  const gen = block.categories.pdbx_struct_assembly_gen;
  if (!gen) throw new AssemblyNotFound(`the file defines no assemblies`);
  const ops = operatorTable(block);
  const aid = col(gen, 'assembly_id');
  const expr = col(gen, 'oper_expression');
  const list = col(gen, 'asym_id_list');
  const parts: AssemblyPart[] = [];
  for (let r = 0; r < gen.rowCount; r++) {
    if (aid.str(r) !== assemblyId) continue;
    const groups = parseOperExpression(expr.str(r));
    const asyms = new Set(
      list
        .str(r)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    let combos: string[][] = [[]];
    for (const g of groups) {
      if (combos.length * g.length > maxCopies) throw new CifFormatError(`assembly ${assemblyId} expands to more than ${maxCopies} copies`);
      combos = combos.flatMap((c) => g.map((id) => [...c, id]));
    }
    for (const ids of combos) {
      let transform: Transform | undefined;
      for (const id of ids) {
        const t = ops.get(id);
        if (!t) throw new CifFormatError(`oper_expression names operator "${id}", absent from pdbx_struct_oper_list`);
        transform = transform ? compose(transform, t) : t;
      }
      parts.push({ operator: { ids, transform: transform as Transform }, asyms });
    }
  }
  if (!parts.length) throw new AssemblyNotFound(`no assembly ${assemblyId}`);
  return parts;
}
