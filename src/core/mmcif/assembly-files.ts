/**
 * Assembly files as the archive serves them: `-assembly{N}.cif` (one model, every copy a chain of
 * its own, the chain remapping categories, block and entry id "XXXX") and the legacy `.pdb{N}`
 * (one MODEL per operator, original chain ids, HEADER id "XXXX").
 */
import type { CifBlock, CifCategory, CifFile } from 'molstar/lib/mol-io/reader/cif.js';
import { CifWriter } from 'molstar/lib/mol-io/writer/cif.js';
import { assemblyParts, type AssemblyOperator } from './assembly.js';
import { copyCategory, writerCategory } from './encode.js';
import { writeLegacy, fileModels, type LegacyModel } from './legacy.js';
import { firstBlock } from './parse.js';
import { atomSite, col, type AtomSite } from './table.js';

/** The id the archive's assembly files carry in place of the entry id. */
export const ASSEMBLY_ENTRY_ID = 'XXXX';

/** Categories of the archive's assembly mmCIF, in its order; the rest of the entry is left out. */
const KEPT = [
  'audit_author',
  'struct',
  'struct_keywords',
  'exptl',
  'citation',
  'citation_author',
  'entity_poly',
  'entity_poly_seq',
  'entity',
  'pdbx_poly_seq_scheme',
  'pdbx_nonpoly_scheme',
  'chem_comp',
  'struct_asym',
  'struct_conf_type',
  'struct_conf',
  'atom_sites',
  'atom_type',
  'entry',
];

interface Copy {
  operator: AssemblyOperator;
  asyms: Set<string>;
  /** Whether this copy keeps the original chain ids (the first copy of each chain). */
  keeps: Set<string>;
}

/** Operators merged over generator rows: one copy per distinct operator product, in order. */
function copiesOf(block: CifBlock, assemblyId: string): Copy[] {
  const byKey = new Map<string, Copy>();
  for (const part of assemblyParts(block, assemblyId)) {
    const key = part.operator.ids.join('-');
    const copy = byKey.get(key);
    if (copy) for (const a of part.asyms) copy.asyms.add(a);
    else byKey.set(key, { operator: part.operator, asyms: new Set(part.asyms), keeps: new Set() });
  }
  const seen = new Set<string>();
  for (const copy of byKey.values()) {
    for (const a of copy.asyms) {
      if (!seen.has(a)) {
        seen.add(a);
        copy.keeps.add(a);
      }
    }
  }
  return [...byKey.values()];
}

const renamed = (copy: Copy, labelAsym: string, id: string) => (copy.keeps.has(labelAsym) ? id : `${id}-${copy.operator.ids.join('-')}`);

/** Rows of the first model, the one assemblies are built from. */
function firstModelRows(a: AtomSite): number[] {
  return (fileModels(a)[0]?.rows as number[] | undefined) ?? [];
}

type Field = CifWriter.Field<number, unknown>;
const str = (name: string, value: (k: number) => string): Field => CifWriter.Field.str<number>(name, (k) => value(k));

/** A category whose rows are (source row, copy) pairs; `override` replaces some columns. */
function expanded(cat: CifCategory, pairs: [number, Copy][], override: Record<string, (row: number, copy: Copy, k: number) => string>): CifWriter.Category {
  const fields: Field[] = cat.fieldNames.map((name) => {
    const f = cat.getField(name);
    const o = override[name];
    if (o) return str(name, (k) => o(pairs[k]![0], pairs[k]![1], k));
    return CifWriter.Field.str<number>(name, (k) => f!.str(pairs[k]![0]), { valueKind: (k) => f!.valueKind(pairs[k]![0]) });
  });
  return writerCategory(cat.name, pairs.length, fields);
}

/** Rows of a category expanded over the copies that hold their chain (by the named asym column). */
function pairsByAsym(cat: CifCategory, asymField: string, copies: Copy[]): [number, Copy][] {
  const asym = col(cat, asymField);
  const pairs: [number, Copy][] = [];
  for (const copy of copies) for (let r = 0; r < cat.rowCount; r++) if (copy.asyms.has(asym.str(r))) pairs.push([r, copy]);
  return pairs;
}

const ESD = ['Cartn_x_esd', 'Cartn_y_esd', 'Cartn_z_esd', 'occupancy_esd', 'B_iso_or_equiv_esd'];

/** The archive's assembly files carry the (unknown) standard-uncertainty columns after B_iso_or_equiv. */
function withEsdColumns(cat: CifWriter.Category): CifWriter.Category {
  return {
    name: cat.name,
    instance: (ctx) => {
      const inst = cat.instance(ctx);
      const at = inst.fields.findIndex((f) => f.name === 'B_iso_or_equiv') + 1;
      const unknown = ESD.map((name) => CifWriter.Field.str<number>(name, () => '', { valueKind: () => 2 }));
      const fields = at > 0 ? [...inst.fields.slice(0, at), ...unknown, ...inst.fields.slice(at)] : inst.fields;
      return { ...inst, fields };
    },
  };
}

/** The assembly as mmCIF text. Throws AssemblyNotFound for an unknown id. */
export function toAssemblyCif(file: CifFile, assemblyId: string): string {
  const block = firstBlock(file);
  const copies = copiesOf(block, assemblyId);
  const a = atomSite(block);
  const enc = CifWriter.createEncoder({ binary: false });
  enc.startDataBlock(ASSEMBLY_ENTRY_ID);
  const entryIds = (cat: CifCategory) => Object.fromEntries(cat.fieldNames.filter((f) => f === 'entry_id' || (cat.name === 'entry' && f === 'id')).map((f) => [f, () => ASSEMBLY_ENTRY_ID]));
  const authOf = new Map<string, string>();
  for (const r of firstModelRows(a)) authOf.set(a.labelAsym.str(r), a.authAsym.str(r));
  for (const name of KEPT) {
    const cat = block.categories[name];
    if (!cat || !cat.rowCount) continue;
    const ids = entryIds(cat);
    if (name === 'struct_asym') {
      enc.writeCategory(expanded(cat, pairsByAsym(cat, 'id', copies), { id: (r, c) => renamed(c, col(cat, 'id').str(r), col(cat, 'id').str(r)) }));
    } else if (name === 'pdbx_poly_seq_scheme' || name === 'pdbx_nonpoly_scheme') {
      const asym = col(cat, 'asym_id');
      const strand = col(cat, 'pdb_strand_id');
      enc.writeCategory(
        expanded(cat, pairsByAsym(cat, 'asym_id', copies), {
          asym_id: (r, c) => renamed(c, asym.str(r), asym.str(r)),
          pdb_strand_id: (r, c) => renamed(c, asym.str(r), strand.str(r)),
        }),
      );
    } else if (Object.keys(ids).length) {
      enc.writeCategory(
        expanded(
          cat,
          Array.from({ length: cat.rowCount }, (_, r) => [r, copies[0]!] as [number, Copy]),
          ids,
        ),
      );
    } else enc.writeCategory(copyCategory(cat, false));
  }
  // Which chain of the deposited entry each chain of the assembly came from, and by which operators.
  const remap: { entity: string; label: string; auth: string; origLabel: string; origAuth: string; ops: string }[] = [];
  const entityOf = new Map<string, string>();
  for (const r of firstModelRows(a)) entityOf.set(a.labelAsym.str(r), a.labelEntity.str(r));
  for (const copy of copies) {
    for (const label of [...authOf.keys()].filter((l) => copy.asyms.has(l))) {
      const auth = authOf.get(label) ?? label;
      remap.push({ entity: entityOf.get(label) ?? '', label: renamed(copy, label, label), auth: renamed(copy, label, auth), origLabel: label, origAuth: auth, ops: copy.operator.ids.join(',') });
    }
  }
  enc.writeCategory(
    writerCategory('pdbx_chain_remapping', remap.length, [
      str('entity_id', (k) => remap[k]!.entity),
      str('label_asym_id', (k) => remap[k]!.label),
      str('auth_asym_id', (k) => remap[k]!.auth),
      str('orig_label_asym_id', (k) => remap[k]!.origLabel),
      str('orig_auth_asym_id', (k) => remap[k]!.origAuth),
      str('applied_operations', (k) => remap[k]!.ops),
    ]),
  );
  const nonpoly = block.categories.pdbx_entity_nonpoly;
  if (nonpoly?.rowCount) enc.writeCategory(copyCategory(nonpoly, false));
  const entities = [...new Set(entityOf.values())].sort((x, y) => Number(x) - Number(y));
  enc.writeCategory(writerCategory('pdbx_entity_remapping', entities.length, [str('entity_id', (k) => entities[k]!), str('orig_entity_id', (k) => entities[k]!)]));

  const site = block.categories.atom_site!;
  const rows = firstModelRows(a);
  const pairs: [number, Copy][] = [];
  for (const copy of copies) for (const r of rows) if (copy.asyms.has(a.labelAsym.str(r))) pairs.push([r, copy]);
  const coord = (axis: 0 | 1 | 2) => (r: number, c: Copy) => {
    const t = c.operator.transform;
    const v = t[axis * 3]! * a.x.float(r) + t[axis * 3 + 1]! * a.y.float(r) + t[axis * 3 + 2]! * a.z.float(r) + t[9 + axis]!;
    return v.toFixed(3);
  };
  const override: Record<string, (r: number, c: Copy, k: number) => string> = {
    id: (_r, _c, k) => String(k + 1),
    label_asym_id: (r, c) => renamed(c, a.labelAsym.str(r), a.labelAsym.str(r)),
    auth_asym_id: (r, c) => renamed(c, a.labelAsym.str(r), a.authAsym.str(r)),
    Cartn_x: coord(0),
    Cartn_y: coord(1),
    Cartn_z: coord(2),
    pdbx_PDB_model_num: () => '1',
  };
  const atoms = expanded(site, pairs, override);
  enc.writeCategory(site.getField('Cartn_x_esd') ? atoms : withEsdColumns(atoms));
  enc.encode();
  return enc.getData() as string;
}

/** The assembly in the legacy format: one MODEL per operator. Throws LegacyFormatUnavailable or AssemblyNotFound. */
export function toAssemblyPdb(file: CifFile, assemblyId: string): string {
  const block = firstBlock(file);
  const copies = copiesOf(block, assemblyId);
  const a = atomSite(block);
  const rows = firstModelRows(a);
  const models: LegacyModel[] = copies.map((copy, i) => ({
    num: i + 1,
    rows: rows.filter((r) => copy.asyms.has(a.labelAsym.str(r))),
    transform: copy.operator.transform,
  }));
  return writeLegacy(block, models, { idCode: ASSEMBLY_ENTRY_ID, wrapModels: true });
}
