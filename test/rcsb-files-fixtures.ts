/**
 * Test sources and GENERATED test entries for the PDB file host and the structure-file library.
 * The generated mmCIF below is not a real entry: made-up ids (9Z..), residues, coordinates and
 * operators, shaped as archive files are, to exercise cases 4HHB does not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseCif } from '../src/core/mmcif/index.js';
import { reader, rows } from '../src/services/pdb/files/legacy-cif.js';
import { MemoryDerivedCache, type EntryFileSource } from '../src/services/pdb/files/source.js';
import type { ComponentBond } from '../src/services/pdb/store/tables.js';

export const FIXTURES = join(import.meta.dirname, 'fixtures', 'pdb');
export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

/** An in-memory source: entry id -> stored .cif.gz bytes (and structure factors), with a component dictionary if given. */
export function memorySource(
  entries: Record<string, Uint8Array>,
  sf: Record<string, Uint8Array> = {},
  dictionary?: ReadonlyMap<string, ComponentBond[]>,
): EntryFileSource & { cache: MemoryDerivedCache } {
  return {
    cif: (id) => Promise.resolve(entries[id]),
    structureFactors: (id) => Promise.resolve(sf[id]),
    cache: new MemoryDerivedCache(),
    ...(dictionary
      ? {
          dictionary: async () => ({
            tag: 'test',
            bonds: async (ids: readonly string[]) => new Map(ids.flatMap((id) => (dictionary.has(id) ? [[id, dictionary.get(id) as ComponentBond[]] as const] : []))),
          }),
        }
      : {}),
  };
}

/** The bonds (`chem_comp_bond` atom pairs) of every component of a dictionary file. */
export async function dictionaryBonds(file: string): Promise<Map<string, ComponentBond[]>> {
  const out = new Map<string, ComponentBond[]>();
  for (const block of (await parseCif(readFileSync(file))).blocks) {
    const v = reader(block, 'chem_comp_bond');
    const list: ComponentBond[] = [];
    for (let i = 0; i < rows(block, 'chem_comp_bond'); i++) list.push([v('atom_id_1', i), v('atom_id_2', i)]);
    if (list.length) out.set(block.header.toUpperCase(), list);
  }
  return out;
}

export interface GenChain {
  label: string;
  auth: string;
  entity: string;
  /** Residues; each gets N, CA, C, O atoms. */
  residues: number;
}

export interface GenEntry {
  id: string;
  chains: GenChain[];
  entities?: { id: string; description: string; organism?: [string, string]; sequence: string }[];
  operators?: { id: string; matrix: number[]; vector: number[] }[];
  assemblies?: { id: string; expression: string; asyms: string }[];
  /** Models of the entry (NMR-style), default 1. */
  models?: number;
}

const q = (s: string) => (/[\s'"]/.test(s) ? `'${s}'` : s);

/** GENERATED mmCIF text of a made-up entry. */
export function generatedCif(e: GenEntry): string {
  const out: string[] = [`data_${e.id}`, '#', `_entry.id ${e.id}`, '#', `_struct.entry_id ${e.id}`, `_struct.title 'GENERATED TEST ENTRY'`, '#'];
  type Entity = NonNullable<GenEntry['entities']>[number];
  const entities: Entity[] = e.entities ?? [...new Set(e.chains.map((c) => c.entity))].map((id) => ({ id, description: `Generated protein ${id}`, sequence: 'G' }));
  out.push('loop_', '_entity.id', '_entity.type', '_entity.pdbx_description');
  for (const en of entities) out.push(`${en.id} polymer ${q(en.description)}`);
  out.push('#', 'loop_', '_entity_poly.entity_id', '_entity_poly.type', '_entity_poly.pdbx_strand_id', '_entity_poly.pdbx_seq_one_letter_code_can');
  for (const en of entities) {
    const strands = e.chains
      .filter((c) => c.entity === en.id)
      .map((c) => c.auth)
      .join(',');
    out.push(`${en.id} 'polypeptide(L)' ${q(strands)}`, ';' + en.sequence, ';');
  }
  const orgs = entities.filter((en) => en.organism);
  if (orgs.length) {
    out.push('#', 'loop_', '_entity_src_gen.entity_id', '_entity_src_gen.pdbx_gene_src_scientific_name', '_entity_src_gen.pdbx_gene_src_ncbi_taxonomy_id');
    for (const en of orgs) out.push(`${en.id} ${q(en.organism![0])} ${en.organism![1]}`);
  }
  out.push('#', 'loop_', '_struct_asym.id', '_struct_asym.entity_id');
  for (const c of e.chains) out.push(`${c.label} ${c.entity}`);
  out.push('#', 'loop_', '_pdbx_poly_seq_scheme.asym_id', '_pdbx_poly_seq_scheme.entity_id', '_pdbx_poly_seq_scheme.seq_id', '_pdbx_poly_seq_scheme.pdb_strand_id');
  for (const c of e.chains) for (let r = 1; r <= Math.min(c.residues, 3); r++) out.push(`${c.label} ${c.entity} ${r} ${c.auth}`);
  if (e.operators?.length) {
    out.push('#', 'loop_', '_pdbx_struct_assembly.id', '_pdbx_struct_assembly.details');
    for (const id of new Set((e.assemblies ?? []).map((a) => a.id))) out.push(`${id} author_defined_assembly`);
    out.push('#', 'loop_', '_pdbx_struct_assembly_gen.assembly_id', '_pdbx_struct_assembly_gen.oper_expression', '_pdbx_struct_assembly_gen.asym_id_list');
    for (const a of e.assemblies ?? []) out.push(`${a.id} ${q(a.expression)} ${a.asyms}`);
    const fields = ['id', 'type'];
    for (let i = 1; i <= 3; i++) {
      for (let j = 1; j <= 3; j++) fields.push(`matrix[${i}][${j}]`);
      fields.push(`vector[${i}]`);
    }
    out.push('#', 'loop_', ...fields.map((f) => `_pdbx_struct_oper_list.${f}`));
    for (const o of e.operators) {
      const v: string[] = [];
      for (let i = 0; i < 3; i++) v.push(...o.matrix.slice(i * 3, i * 3 + 3).map(String), String(o.vector[i]));
      out.push(`${o.id} 'point symmetry operation' ${v.join(' ')}`);
    }
  }
  out.push('#', 'loop_');
  for (const f of [
    'group_PDB',
    'id',
    'type_symbol',
    'label_atom_id',
    'label_alt_id',
    'label_comp_id',
    'label_asym_id',
    'label_entity_id',
    'label_seq_id',
    'pdbx_PDB_ins_code',
    'Cartn_x',
    'Cartn_y',
    'Cartn_z',
    'occupancy',
    'B_iso_or_equiv',
    'pdbx_formal_charge',
    'auth_seq_id',
    'auth_comp_id',
    'auth_asym_id',
    'auth_atom_id',
    'pdbx_PDB_model_num',
  ]) {
    out.push(`_atom_site.${f}`);
  }
  let serial = 0;
  for (let model = 1; model <= (e.models ?? 1); model++) {
    for (const [ci, c] of e.chains.entries()) {
      for (let r = 1; r <= c.residues; r++) {
        for (const [ai, atom] of ['N', 'CA', 'C', 'O'].entries()) {
          serial++;
          const x = ((ci * 7 + r * 1.5 + ai * 0.4) % 90).toFixed(3);
          const y = ((r * 0.37 + ai) % 50).toFixed(3);
          const z = (model + ci * 2 + ai * 0.1).toFixed(3);
          out.push(`ATOM ${serial} ${atom[0]} ${atom} . GLY ${c.label} ${c.entity} ${r} ? ${x} ${y} ${z} 1.00 20.00 ? ${r} GLY ${c.auth} ${atom} ${model}`);
        }
      }
    }
  }
  out.push('#', '');
  return out.join('\n');
}

export const gz = (text: string | Uint8Array): Uint8Array => new Uint8Array(gzipSync(text));

const ID = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** GENERATED: two chains, label ids differing from author ids, a 180° rotation and a translation, products. */
export const TWO_OPERATORS: GenEntry = {
  id: '9ZZA',
  chains: [
    { label: 'A', auth: 'B', entity: '1', residues: 3 },
    { label: 'B', auth: 'C', entity: '1', residues: 2 },
  ],
  entities: [{ id: '1', description: 'Generated protein one', organism: ['Homo sapiens', '9606'], sequence: 'GGG' }],
  operators: [
    { id: '1', matrix: ID, vector: [0, 0, 0] },
    { id: '2', matrix: [-1, 0, 0, 0, -1, 0, 0, 0, 1], vector: [0, 0, 0] },
    { id: '3', matrix: ID, vector: [10, 0, 0] },
  ],
  assemblies: [
    { id: '1', expression: '(1,2)', asyms: 'A,B' },
    { id: '2', expression: '(1-2)(3)', asyms: 'A' },
  ],
};
