/** Typed access to the categories the writers read (mostly atom_site), tolerant of absent columns. */
import type { CifBlock, CifCategory, CifField } from 'molstar/lib/mol-io/reader/cif.js';
import { CifFormatError } from './errors.js';
import { STANDARD_RESIDUES } from './standard.js';

/** ValueKind from Mol*: 0 present, 1 '.', 2 '?'. */
export const PRESENT = 0;

/** A column that answers '' / 0 for every row when the file lacks it. */
export interface Col {
  str(row: number): string;
  int(row: number): number;
  float(row: number): number;
  has(row: number): boolean;
}

const ABSENT: Col = { str: () => '', int: () => 0, float: () => 0, has: () => false };

export function col(cat: CifCategory | undefined, name: string): Col {
  const f: CifField | undefined = cat?.getField(name);
  if (!f) return ABSENT;
  return {
    str: (r) => (f.valueKind(r) === PRESENT ? f.str(r) : ''),
    int: (r) => f.int(r),
    float: (r) => f.float(r),
    has: (r) => f.valueKind(r) === PRESENT,
  };
}

/** The first present value of a one-row (or first-row) item, '' when absent. */
export function item(block: CifBlock, category: string, field: string): string {
  return col(block.categories[category], field).str(0);
}

/** The atom_site columns the writers use. */
export interface AtomSite {
  count: number;
  group: Col;
  id: Col;
  element: Col;
  labelAtom: Col;
  altId: Col;
  labelComp: Col;
  labelAsym: Col;
  labelEntity: Col;
  labelSeq: Col;
  insCode: Col;
  x: Col;
  y: Col;
  z: Col;
  occupancy: Col;
  bFactor: Col;
  charge: Col;
  authSeq: Col;
  authComp: Col;
  authAsym: Col;
  authAtom: Col;
  model: Col;
}

export function atomSite(block: CifBlock): AtomSite {
  const cat = block.categories.atom_site;
  if (!cat) throw new CifFormatError('the file has no atom_site category');
  const c = (n: string) => col(cat, n);
  const pick = (a: string, b: string) => (cat.getField(a) ? c(a) : c(b));
  return {
    count: cat.rowCount,
    group: c('group_PDB'),
    id: c('id'),
    element: c('type_symbol'),
    labelAtom: c('label_atom_id'),
    altId: c('label_alt_id'),
    labelComp: c('label_comp_id'),
    labelAsym: c('label_asym_id'),
    labelEntity: c('label_entity_id'),
    labelSeq: c('label_seq_id'),
    insCode: c('pdbx_PDB_ins_code'),
    x: c('Cartn_x'),
    y: c('Cartn_y'),
    z: c('Cartn_z'),
    occupancy: c('occupancy'),
    bFactor: c('B_iso_or_equiv'),
    charge: c('pdbx_formal_charge'),
    authSeq: pick('auth_seq_id', 'label_seq_id'),
    authComp: pick('auth_comp_id', 'label_comp_id'),
    authAsym: pick('auth_asym_id', 'label_asym_id'),
    authAtom: pick('auth_atom_id', 'label_atom_id'),
    model: c('pdbx_PDB_model_num'),
  };
}

/** Rows of atom_site in the file. */
export function atomCountOf(block: CifBlock): number {
  return block.categories.atom_site?.rowCount ?? 0;
}

/** Entity ids whose type is polymer (for TER records and FASTA). */
export function polymerEntities(block: CifBlock): Set<string> {
  const cat = block.categories.entity;
  const out = new Set<string>();
  if (cat) {
    const id = col(cat, 'id');
    const type = col(cat, 'type');
    for (let i = 0; i < cat.rowCount; i++) if (type.str(i) === 'polymer') out.add(id.str(i));
  } else {
    const poly = block.categories.entity_poly;
    const id = col(poly, 'entity_id');
    for (let i = 0; i < (poly?.rowCount ?? 0); i++) out.add(id.str(i));
  }
  return out;
}

/**
 * Whether a row of atom_site is a HETATM record: as `group_PDB` says where the file has it. A file
 * without it (written by other programs than the archive's) gets wwPDB's rule: atoms of polymer
 * residues (of a polymer entity, or of a chain pdbx_poly_seq_scheme lists) are ATOM when the residue
 * is a standard amino acid or nucleotide; ligands, water, sugars and modified residues are HETATM.
 */
export function hetatmRows(block: CifBlock, a: AtomSite): (r: number) => boolean {
  if (block.categories.atom_site?.getField('group_PDB')) return (r) => a.group.str(r) === 'HETATM';
  const entities = polymerEntities(block);
  const scheme = block.categories.pdbx_poly_seq_scheme;
  const asyms = new Set<string>();
  const asymCol = col(scheme, 'asym_id');
  for (let i = 0; i < (scheme?.rowCount ?? 0); i++) asyms.add(asymCol.str(i));
  return (r) => {
    const polymer = entities.has(a.labelEntity.str(r)) || asyms.has(a.labelAsym.str(r));
    return !polymer || !STANDARD_RESIDUES.has(a.labelComp.str(r) || a.authComp.str(r));
  };
}
