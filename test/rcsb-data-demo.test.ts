/**
 * The RCSB PDB demo archive (src/services/pdb/demo) and the generator behind its generated files
 * (synthetic/pdb): every file is read with Mol*'s CIF reader, as the service reads it, and checked for
 * what the ingest and the Data API rely on.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CIF } from 'molstar/lib/mol-io/reader/cif.js';
import type { CifBlock, CifCategory } from 'molstar/lib/mol-io/reader/cif/data-model.js';
import { trajectoryFromMmCIF } from 'molstar/lib/mol-model-formats/structure/mmcif.js';
import { Structure } from 'molstar/lib/mol-model/structure.js';
import { Task } from 'molstar/lib/mol-task/index.js';
import { archiveId, generateEntry, generatorComponents, writeArchive } from '../synthetic/pdb/archive.js';
import { DEMO_BUILDERS } from '../synthetic/pdb/demo-entries.js';
import { writeEntry } from '../synthetic/pdb/entry-writer.js';

const DEMO = join(import.meta.dirname, '../src/services/pdb/demo');
const GENERATED = ['0NA1', '0NM1', '0GL1', '0BG1'];
const ENTRY_PATH: Record<string, string> = {
  '4HHB': 'archive/hh/4hhb.cif.gz',
  '0NA1': 'archive/na/0na1.cif.gz',
  '0NM1': 'archive/nm/0nm1.cif.gz',
  '0GL1': 'archive/gl/0gl1.cif.gz',
  '0BG1': 'archive/bg/0bg1.cif.gz',
};

const gunzipText = (path: string) => gunzipSync(readFileSync(path)).toString('utf8');

async function parseCif(text: string): Promise<CifBlock[]> {
  const res = await CIF.parse(text).run();
  if (res.isError) throw new Error(`Mol* could not read the file: ${res.message}`);
  return [...res.result.blocks];
}

/** Column values of a category as strings (Mol* gives '' for ? and .). */
function col(cat: CifCategory | undefined, name: string): string[] {
  if (!cat) return [];
  const f = cat.getField(name);
  if (!f) throw new Error(`${cat.name}.${name} missing`);
  return Array.from({ length: cat.rowCount }, (_, i) => f.str(i));
}
const rawValue = (cat: CifCategory, name: string, row = 0) => {
  const f = cat.getField(name)!;
  return f.valueKind(row) === 0 ? f.str(row) : f.valueKind(row) === 1 ? '.' : '?';
};

interface Dictionary {
  atoms: Map<string, Set<string>>;
  bonds: Map<string, Array<[string, string]>>;
  weight: Map<string, number>;
  blocks: Map<string, CifBlock>;
}

async function readDictionary(path: string): Promise<Dictionary> {
  const blocks = await parseCif(gunzipText(path));
  const d: Dictionary = { atoms: new Map(), bonds: new Map(), weight: new Map(), blocks: new Map() };
  for (const b of blocks) {
    d.blocks.set(b.header, b);
    d.atoms.set(b.header, new Set(col(b.categories.chem_comp_atom, 'atom_id')));
    const bc = b.categories.chem_comp_bond;
    const a1 = col(bc, 'atom_id_1');
    const a2 = col(bc, 'atom_id_2');
    d.bonds.set(
      b.header,
      a1.map((x, i) => [x, a2[i]!]),
    );
    d.weight.set(b.header, Number(col(b.categories.chem_comp, 'formula_weight')[0]));
  }
  return d;
}

interface Atom {
  id: number;
  asym: string;
  entity: string;
  seq: string;
  comp: string;
  name: string;
  auth: string;
  authSeq: string;
  model: number;
  x: number;
  y: number;
  z: number;
}

function atomsOf(b: CifBlock): Atom[] {
  const a = b.categories.atom_site!;
  const f = (n: string) => a.getField(n)!;
  const [id, asym, entity, seq, comp, name, auth, authSeq, model, x, y, z] = [
    'id',
    'label_asym_id',
    'label_entity_id',
    'label_seq_id',
    'label_comp_id',
    'label_atom_id',
    'auth_asym_id',
    'auth_seq_id',
    'pdbx_PDB_model_num',
    'Cartn_x',
    'Cartn_y',
    'Cartn_z',
  ].map(f) as [ReturnType<typeof f>, ...ReturnType<typeof f>[]];
  return Array.from({ length: a.rowCount }, (_, i) => ({
    id: id.int(i),
    asym: asym!.str(i),
    entity: entity!.str(i),
    seq: seq!.str(i),
    comp: comp!.str(i),
    name: name!.str(i),
    auth: auth!.str(i),
    authSeq: authSeq!.str(i),
    model: model!.int(i),
    x: x!.float(i),
    y: y!.float(i),
    z: z!.float(i),
  }));
}

/** Operator ids of an oper_expression such as `1`, `1,2`, `(1-5)` or `(1-5)(6)`. */
function operIds(expr: string): string[] {
  const out: string[] = [];
  for (const part of expr.replace(/[()]/g, ',').split(',').filter(Boolean)) {
    const m = /^(\d+)-(\d+)$/.exec(part);
    if (m) for (let i = Number(m[1]); i <= Number(m[2]); i++) out.push(String(i));
    else out.push(part);
  }
  return out;
}

/** Every cross-reference the ingest follows, as a list of problems (empty when consistent). */
function crossReferences(b: CifBlock, dict: Dictionary): string[] {
  const problems: string[] = [];
  const c = b.categories;
  const atoms = atomsOf(b);
  const asymEntity = new Map(col(c.struct_asym, 'id').map((id, i) => [id, col(c.struct_asym, 'entity_id')[i]!]));
  if (asymEntity.size !== c.struct_asym!.rowCount) problems.push('struct_asym ids are not unique');
  const entityType = new Map(col(c.entity, 'id').map((id, i) => [id, col(c.entity, 'type')[i]!]));
  for (const [asym, ent] of asymEntity) if (!entityType.has(ent)) problems.push(`struct_asym ${asym} names unknown entity ${ent}`);

  // serial ids: unique
  if (new Set(atoms.map((a) => a.id)).size !== atoms.length) problems.push('atom_site ids are not unique');
  // every atom's asym and entity agree with struct_asym
  for (const a of atoms) {
    if (asymEntity.get(a.asym) !== a.entity) {
      problems.push(`atom ${a.id}: asym ${a.asym} is entity ${asymEntity.get(a.asym)}, atom says ${a.entity}`);
      break;
    }
  }
  // polymer residues follow entity_poly_seq
  const polySeq = new Map<string, Map<string, string>>();
  col(c.entity_poly_seq, 'entity_id').forEach((e, i) => {
    const m = polySeq.get(e) ?? new Map<string, string>();
    m.set(col(c.entity_poly_seq, 'num')[i]!, col(c.entity_poly_seq, 'mon_id')[i]!);
    polySeq.set(e, m);
  });
  for (const a of atoms) {
    if (entityType.get(a.entity) !== 'polymer') continue;
    const want = polySeq.get(a.entity)?.get(a.seq);
    if (want !== a.comp) {
      problems.push(`atom ${a.id}: ${a.comp} at ${a.entity}/${a.seq}, entity_poly_seq has ${want}`);
      break;
    }
  }
  // one-letter codes as long as the sequence; strand ids are the chains of the entity
  col(c.entity_poly, 'entity_id').forEach((e, i) => {
    const code = col(c.entity_poly, 'pdbx_seq_one_letter_code_can')[i]!.replace(/\s/g, '');
    if (code.length !== polySeq.get(e)?.size) problems.push(`entity ${e}: one-letter code ${code.length} long, ${polySeq.get(e)?.size} residues`);
    const strands = new Set(col(c.entity_poly, 'pdbx_strand_id')[i]!.split(','));
    const chains = new Set(atoms.filter((a) => a.entity === e).map((a) => a.auth));
    if ([...chains].some((x) => !strands.has(x)) || strands.size !== chains.size) problems.push(`entity ${e}: pdbx_strand_id ${[...strands]} but chains ${[...chains]}`);
  });
  // number of molecules: instances, or water molecules
  col(c.entity, 'id').forEach((e, i) => {
    const n = Number(col(c.entity, 'pdbx_number_of_molecules')[i]);
    const got =
      entityType.get(e) === 'water' ? new Set(atoms.filter((a) => a.entity === e && a.model === 1).map((a) => `${a.asym}/${a.authSeq}`)).size : [...asymEntity.values()].filter((x) => x === e).length;
    if (n !== got) problems.push(`entity ${e}: pdbx_number_of_molecules ${n}, found ${got}`);
  });
  // formula weights of polymers from the dictionary
  col(c.entity, 'id').forEach((e, i) => {
    if (entityType.get(e) !== 'polymer') return;
    const mons = [...(polySeq.get(e)?.values() ?? [])];
    const w = mons.reduce((s, m) => s + (dict.weight.get(m) ?? NaN), 0) - (mons.length - 1) * 18.015;
    const stated = Number(col(c.entity, 'formula_weight')[i]);
    if (!(Math.abs(w - stated) < 0.05)) problems.push(`entity ${e}: formula_weight ${stated}, residues sum to ${w.toFixed(3)}`);
  });
  // residue schemes cover every polymer residue once per chain
  const polyInstances = [...asymEntity].filter(([, e]) => entityType.get(e) === 'polymer');
  const expected = polyInstances.reduce((s, [, e]) => s + (polySeq.get(e)?.size ?? 0), 0);
  if ((c.pdbx_poly_seq_scheme?.rowCount ?? 0) !== expected) problems.push(`pdbx_poly_seq_scheme has ${c.pdbx_poly_seq_scheme?.rowCount} rows, expected ${expected}`);
  // assemblies name existing chains and operators
  const opers = new Set(col(c.pdbx_struct_oper_list, 'id'));
  col(c.pdbx_struct_assembly_gen, 'asym_id_list').forEach((list, i) => {
    for (const a of list.split(',')) if (!asymEntity.has(a)) problems.push(`assembly names unknown chain ${a}`);
    for (const o of operIds(col(c.pdbx_struct_assembly_gen, 'oper_expression')[i]!)) if (!opers.has(o)) problems.push(`assembly names unknown operator ${o}`);
  });
  // chem_comp lists every residue type present
  const listed = new Set(col(c.chem_comp, 'id'));
  for (const comp of new Set(atoms.map((a) => a.comp))) if (!listed.has(comp)) problems.push(`${comp} is not in the entry's chem_comp`);
  // all models carry the same atoms
  const perModel = new Map<number, number>();
  for (const a of atoms) perModel.set(a.model, (perModel.get(a.model) ?? 0) + 1);
  if (new Set(perModel.values()).size > 1) problems.push(`models differ in atom count: ${[...perModel.values()]}`);
  return problems;
}

let dict: Dictionary;
const entries = new Map<string, { text: string; block: CifBlock }>();

beforeAll(async () => {
  dict = await readDictionary(join(DEMO, 'components.cif.gz'));
  for (const [id, p] of Object.entries(ENTRY_PATH)) {
    const text = gunzipText(join(DEMO, p));
    const blocks = await parseCif(text);
    entries.set(id, { text, block: blocks[0]! });
  }
}, 120_000);

describe('PDB demo archive', () => {
  it('holds the entries in the divided layout, one data block each named by its id', () => {
    const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
    const cif = files(join(DEMO, 'archive'))
      .map((f) => f.slice(DEMO.length + 1))
      .sort();
    expect(cif).toEqual(Object.values(ENTRY_PATH).sort());
    for (const [id, { block }] of entries) expect(block.header).toBe(id);
  });

  it('entries carry the categories archive entries have', () => {
    const core = [
      'entry',
      'audit_conform',
      'database_2',
      'pdbx_database_status',
      'pdbx_audit_revision_history',
      'struct',
      'struct_keywords',
      'exptl',
      'citation',
      'citation_author',
      'entity',
      'entity_poly',
      'entity_poly_seq',
      'struct_asym',
      'pdbx_struct_assembly',
      'pdbx_struct_assembly_gen',
      'pdbx_struct_oper_list',
      'chem_comp',
      'atom_type',
      'atom_site',
      'pdbx_poly_seq_scheme',
    ];
    for (const [id, { block }] of entries) {
      const method = col(block.categories.exptl, 'method')[0];
      const want = [...core];
      if (method === 'X-RAY DIFFRACTION') want.push('cell', 'symmetry', 'refine');
      if (GENERATED.includes(id)) {
        want.push('pdbx_nonpoly_scheme', 'struct_ref', 'struct_ref_seq');
        if (method === 'X-RAY DIFFRACTION') want.push('reflns');
        if (!block.categories.entity_src_gen && !block.categories.entity_src_nat && !block.categories.pdbx_entity_src_syn) want.push('entity_src_gen');
      }
      if (id === '0NA1' || id === '0NM1') want.splice(want.indexOf(id === '0NA1' ? 'struct_ref' : 'pdbx_nonpoly_scheme'), 1);
      if (id === '0NA1') want.splice(want.indexOf('struct_ref_seq'), 1);
      if (id === '0BG1') want.splice(want.indexOf('pdbx_nonpoly_scheme'), 1);
      const missing = want.filter((cat) => !block.categories[cat]);
      expect(missing, id).toEqual([]);
      expect(col(block.categories.pdbx_database_status, 'recvd_initial_deposition_date')[0], id).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(col(block.categories.pdbx_audit_revision_history, 'revision_date')[0], id).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
    // the NMR entry: ensemble categories, several models, no crystal
    const nmr = entries.get('0NM1')!.block.categories;
    expect(nmr.pdbx_nmr_ensemble && nmr.pdbx_nmr_representative && nmr.pdbx_nmr_exptl && nmr.pdbx_nmr_software).toBeTruthy();
    expect(nmr.cell).toBeUndefined();
    expect(nmr.refine).toBeUndefined();
    expect(new Set(col(nmr.atom_site, 'pdbx_PDB_model_num')).size).toBe(Number(col(nmr.pdbx_nmr_ensemble, 'conformers_submitted_total_number')[0]));
    // the glycoprotein: a branched entity, its scheme and links, and the covalent bond to asparagine
    const gl = entries.get('0GL1')!.block.categories;
    for (const cat of ['pdbx_entity_branch', 'pdbx_entity_branch_descriptor', 'pdbx_entity_branch_link', 'pdbx_entity_branch_list', 'pdbx_branch_scheme', 'struct_conn']) {
      expect(gl[cat], cat).toBeDefined();
    }
    expect(col(gl.entity, 'type')).toContain('branched');
    const glyco = col(gl.struct_conn, 'pdbx_role').indexOf('N-Glycosylation');
    expect(glyco).toBeGreaterThanOrEqual(0);
    expect([col(gl.struct_conn, 'ptnr1_label_comp_id')[glyco], col(gl.struct_conn, 'ptnr1_label_atom_id')[glyco]]).toEqual(['ASN', 'ND2']);
    expect([col(gl.struct_conn, 'ptnr2_label_comp_id')[glyco], col(gl.struct_conn, 'ptnr2_label_atom_id')[glyco]]).toEqual(['NAG', 'C1']);
    expect(gl.pdbx_entity_branch_link!.rowCount).toBe(gl.pdbx_entity_branch_list!.rowCount - 1);
  });

  it('generated entries say they are generated and claim no real publication', () => {
    for (const id of GENERATED) {
      const { text, block } = entries.get(id)!;
      expect(text.startsWith('# GENERATED'), id).toBe(true);
      expect(id.startsWith('0')).toBe(true);
      expect(col(block.categories.struct, 'title')[0]).toMatch(/GENERATED/);
      expect(rawValue(block.categories.citation!, 'pdbx_database_id_PubMed')).toBe('?');
    }
  });

  it('every residue in every entry is a dictionary component, with the dictionary atom names', () => {
    for (const [id, { block }] of entries) {
      const unknown = new Set<string>();
      for (const a of atomsOf(block)) {
        const names = dict.atoms.get(a.comp);
        if (!names) unknown.add(a.comp);
        else if (!names.has(a.name)) unknown.add(`${a.comp}.${a.name}`);
      }
      expect([...unknown], id).toEqual([]);
    }
  });

  it('cross-references are consistent: chains, entities, sequences, schemes, assemblies, weights', () => {
    for (const [id, { block }] of entries) expect(crossReferences(block, dict), id).toEqual([]);
  });

  it('generated coordinates keep bond lengths and links, and chains do not run through each other', () => {
    for (const id of ['0NA1', '0NM1', '0GL1']) {
      const block = entries.get(id)!.block;
      const atoms = atomsOf(block);
      const d = (p: Atom, q: Atom) => Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z);
      for (const model of new Set(atoms.map((a) => a.model))) {
        const residues = new Map<string, Map<string, Atom>>();
        for (const a of atoms.filter((x) => x.model === model)) {
          const key = `${a.asym}/${a.authSeq}`;
          const r = residues.get(key) ?? new Map<string, Atom>();
          r.set(a.name, a);
          residues.set(key, r);
        }
        const bad: string[] = [];
        for (const [key, r] of residues) {
          const comp = r.values().next().value!.comp;
          for (const [p, q] of dict.bonds.get(comp) ?? []) {
            const P = r.get(p);
            const Q = r.get(q);
            if (P && Q && !(d(P, Q) > 1.15 && d(P, Q) < 1.95)) bad.push(`${key} ${p}-${q} ${d(P, Q).toFixed(2)}`);
          }
          // links to the next residue of the chain: C-N in proteins, O3'-P in nucleic acids
          const [asym, seq] = key.split('/') as [string, string];
          const next = residues.get(`${asym}/${Number(seq) + 1}`);
          const link = r.has('C') && next?.has('N') ? [r.get('C')!, next.get('N')!] : r.has("O3'") && next?.has('P') ? [r.get("O3'")!, next.get('P')!] : undefined;
          if (link && !(d(link[0]!, link[1]!) > 1.25 && d(link[0]!, link[1]!) < 1.7)) bad.push(`${key} link ${d(link[0]!, link[1]!).toFixed(2)}`);
        }
        expect(bad, `${id} model ${model}`).toEqual([]);
      }
      // atoms of residues that are not neighbours in a chain keep apart (rare near misses allowed)
      const m1 = atoms.filter((a) => a.model === 1);
      let close = 0;
      for (let i = 0; i < m1.length; i++) {
        for (let j = i + 1; j < m1.length; j++) {
          const p = m1[i]!;
          const q = m1[j]!;
          if (p.asym === q.asym && Math.abs(Number(p.authSeq) - Number(q.authSeq)) <= 1) continue;
          if (Math.abs(p.x - q.x) < 1.6 && d(p, q) < 1.6) close++;
        }
      }
      const linked = block.categories.struct_conn?.rowCount ?? 0;
      expect(close - linked, id).toBeLessThanOrEqual(Math.ceil(m1.length * 0.01));
    }
    // struct_conn distances are those of the coordinates, and of covalent bonds
    const gl = entries.get('0GL1')!.block.categories.struct_conn!;
    for (const v of col(gl, 'pdbx_dist_value')) {
      expect(Number(v)).toBeGreaterThan(1.3);
      expect(Number(v)).toBeLessThan(1.6);
    }
  });

  it('Mol* builds every entry into a structure: models, chains, polymer residues, covalent links', async () => {
    for (const [id, { block }] of entries) {
      const c = block.categories;
      const traj = await trajectoryFromMmCIF(block).run();
      const model = await Task.resolveInContext(traj.getFrameAtIndex(0));
      const s = Structure.ofModel(model);
      expect(traj.frameCount, id).toBe(new Set(col(c.atom_site, 'pdbx_PDB_model_num')).size);
      expect(s.elementCount, id).toBe(atomsOf(block).filter((a) => a.model === 1).length);
      const seqLength = new Map<string, number>();
      for (const e of col(c.entity_poly_seq, 'entity_id')) seqLength.set(e, (seqLength.get(e) ?? 0) + 1);
      const polymerResidues = col(c.struct_asym, 'entity_id').reduce((sum, e) => sum + (seqLength.get(e) ?? 0), 0);
      expect(s.polymerResidueCount, id).toBe(polymerResidues);
      expect(model.entities.data.type.toArray(), id).toEqual(col(c.entity, 'type'));
    }
    // the glycan is a chain of its own, bonded to the asparagine across chains
    const gl = await Task.resolveInContext((await trajectoryFromMmCIF(entries.get('0GL1')!.block).run()).getFrameAtIndex(0));
    expect(Structure.ofModel(gl).interUnitBonds.edgeCount).toBeGreaterThan(0);
  }, 60_000);

  it('0BG1 is beyond the legacy PDB format, with a multi-operator assembly', () => {
    const { block } = entries.get('0BG1')!;
    const c = block.categories;
    expect(c.atom_site!.rowCount).toBeGreaterThan(99_999);
    expect(c.struct_asym!.rowCount).toBeGreaterThan(62);
    expect(new Set(col(c.atom_site, 'auth_asym_id')).size).toBeGreaterThan(62);
    expect(col(c.atom_site, 'auth_asym_id').every((x) => x.length === 2)).toBe(true);
    expect(col(c.pdbx_database_status, 'pdb_format_compatible')[0]).toBe('N');
    const gen = col(c.pdbx_struct_assembly_gen, 'oper_expression');
    const multi = gen.findIndex((e) => operIds(e).length > 1);
    expect(multi).toBeGreaterThanOrEqual(0);
    const asm = col(c.pdbx_struct_assembly_gen, 'assembly_id')[multi];
    const count = Number(col(c.pdbx_struct_assembly, 'oligomeric_count')[col(c.pdbx_struct_assembly, 'id').indexOf(asm!)]);
    expect(count).toBe(operIds(gen[multi]!).length * col(c.pdbx_struct_assembly_gen, 'asym_id_list')[multi]!.split(',').length);
  });

  it('components.cif has every dictionary category, computed descriptors and consistent formulas', async () => {
    const weights: Record<string, number> = { C: 12.0107, H: 1.00794, N: 14.0067, O: 15.9994, P: 30.973762, S: 32.065, Fe: 55.845 };
    for (const [id, b] of dict.blocks) {
      for (const cat of ['chem_comp', 'chem_comp_atom', 'pdbx_chem_comp_descriptor']) expect(b.categories[cat], `${id} ${cat}`).toBeDefined();
      if (b.categories.chem_comp_atom!.rowCount > 1) expect(b.categories.chem_comp_bond, id).toBeDefined();
      const types = col(b.categories.pdbx_chem_comp_descriptor, 'type');
      expect(types.sort(), id).toEqual(['InChI', 'InChIKey', 'SMILES', 'SMILES_CANONICAL']);
      const desc = col(b.categories.pdbx_chem_comp_descriptor, 'descriptor');
      const key = desc[col(b.categories.pdbx_chem_comp_descriptor, 'type').indexOf('InChIKey')]!;
      expect(key, id).toMatch(/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/);
      // the formula weight is the formula's
      const formula = col(b.categories.chem_comp, 'formula')[0]!;
      let w = 0;
      for (const part of formula.split(' ')) {
        const m = /^([A-Z][a-z]?)(\d*)$/.exec(part);
        if (m) w += weights[m[1]!]! * Number(m[2] || 1);
      }
      expect(Math.abs(w - dict.weight.get(id)!), id).toBeLessThan(0.002);
      // heavy atoms in the formula = atoms listed
      const heavy = formula.split(' ').reduce((s, part) => {
        const m = /^([A-Z][a-z]?)(\d*)$/.exec(part);
        return m && m[1] !== 'H' ? s + Number(m[2] || 1) : s;
      }, 0);
      expect(b.categories.chem_comp_atom!.rowCount, id).toBe(heavy);
    }
    // the components 4HHB uses have the formulas and weights 4HHB itself states
    const hhb = entries.get('4HHB')!.block.categories.chem_comp!;
    col(hhb, 'id').forEach((id, i) => {
      expect(col(dict.blocks.get(id)!.categories.chem_comp, 'formula')[0], id).toBe(col(hhb, 'formula')[i]);
      expect(dict.weight.get(id), id).toBeCloseTo(Number(col(hhb, 'formula_weight')[i]), 3);
    });
    // standard InChIKeys of well-known molecules
    const keyOf = (id: string) => {
      const c = dict.blocks.get(id)!.categories.pdbx_chem_comp_descriptor!;
      return col(c, 'descriptor')[col(c, 'type').indexOf('InChIKey')];
    };
    expect(keyOf('ALA')).toBe('QNAYBMKLOCPYGJ-REOHCLBHSA-N');
    expect(keyOf('HOH')).toBe('XLYOFNOQVPJJNP-UHFFFAOYSA-N');
    expect(keyOf('A')).toBe('UDMBCSSLTHHNCD-KQYNXXCUSA-N');
  });

  it('SIFTS maps 4HHB as the archive does and every referenced generated chain', () => {
    const lines = gunzipText(join(DEMO, 'pdb_chain_uniprot.tsv.gz')).trimEnd().split('\n');
    const m = /^# \d{4}\/\d\d\/\d\d - \d\d:\d\d \| PDB: (\d+) \| UniProt: (\d+)$/.exec(lines[0]!);
    expect(m).not.toBeNull();
    expect(lines[1]).toBe('PDB\tCHAIN\tSP_PRIMARY\tRES_BEG\tRES_END\tPDB_BEG\tPDB_END\tSP_BEG\tSP_END');
    const rows = lines.slice(2).map((l) => l.split('\t'));
    expect(Number(m![1])).toBe(new Set(rows.map((r) => r[0])).size);
    expect(Number(m![2])).toBe(new Set(rows.map((r) => r[2])).size);
    expect(rows.filter((r) => r[0] === '4hhb').map((r) => `${r[1]} ${r[2]}`)).toEqual(['A P69905', 'B P68871', 'C P69905', 'D P68871']);
    for (const id of GENERATED) {
      const c = entries.get(id)!.block.categories;
      if (!c.struct_ref_seq) continue;
      col(c.struct_ref_seq, 'pdbx_strand_id').forEach((chain, i) => {
        const row = rows.find((r) => r[0] === id.toLowerCase() && r[1] === chain);
        expect(row, `${id} ${chain}`).toBeDefined();
        expect([row![2], row![7], row![8]]).toEqual([col(c.struct_ref_seq, 'pdbx_db_accession')[i], col(c.struct_ref_seq, 'db_align_beg')[i], col(c.struct_ref_seq, 'db_align_end')[i]]);
      });
    }
  });

  it('the structure-factor file matches its entry', async () => {
    const [sf] = await parseCif(gunzipText(join(DEMO, 'structure_factors/na/r0na1sf.ent.gz')));
    const entry = entries.get('0NA1')!.block.categories;
    expect(sf!.categories.refln!.rowCount).toBe(Number(col(entry.reflns, 'number_obs')[0]));
    expect(col(entry.pdbx_database_status, 'status_code_sf')[0]).toBe('REL');
    expect(col(sf!.categories.cell, 'length_a')).toEqual(col(entry.cell, 'length_a'));
    const [a, b, cc] = ['length_a', 'length_b', 'length_c'].map((k) => Number(col(entry.cell, k)[0]));
    const dmin = Number(col(entry.reflns, 'd_resolution_high')[0]);
    const h = col(sf!.categories.refln, 'index_h').map(Number);
    const k = col(sf!.categories.refln, 'index_k').map(Number);
    const l = col(sf!.categories.refln, 'index_l').map(Number);
    for (let i = 0; i < h.length; i++) expect(1 / Math.sqrt((h[i]! / a!) ** 2 + (k[i]! / b!) ** 2 + (l[i]! / cc!) ** 2)).toBeGreaterThanOrEqual(dmin);
    expect(new Set(col(sf!.categories.refln, 'status'))).toEqual(new Set(['o', 'f']));
  });

  it('the committed generated entries are exactly what the generator writes', async () => {
    const { table } = await generatorComponents();
    for (const id of ['0NA1', '0NM1', '0GL1']) {
      expect(writeEntry(DEMO_BUILDERS[id]!().model, table) === entries.get(id)!.text, id).toBe(true);
    }
  }, 120_000);
});

describe('PDB archive generator', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdbgen-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ids never look like real PDB ids', () => {
    expect(archiveId(0)).toBe('0000');
    expect(archiveId(36 ** 3 - 1)).toBe('0ZZZ');
    expect(archiveId(36 ** 3)).toBe('pdb_0000A000');
    expect(archiveId(36 ** 3 + 1)).toBe('pdb_0000A001');
  });

  it('is deterministic for a seed and differs between seeds', async () => {
    const { table } = await generatorComponents();
    for (const i of [0, 3]) {
      const a = writeEntry(generateEntry(11, i).model, table);
      const b = writeEntry(generateEntry(11, i).model, table);
      const c = writeEntry(generateEntry(12, i).model, table);
      expect(a === b).toBe(true);
      expect(a === c).toBe(false);
    }
  }, 120_000);

  it('writes a divided archive whose entries pass the same checks, with SIFTS rows', async () => {
    const res = await writeArchive(dir, 4, 5);
    const gdict = await readDictionary(join(dir, 'components.cif.gz'));
    const sifts = gunzipText(join(dir, 'pdb_chain_uniprot.tsv.gz')).split('\n');
    for (const id of res.ids) {
      const path = join(dir, id.toLowerCase().slice(-3, -1), `${id.toLowerCase()}.cif.gz`);
      const text = gunzipText(path);
      expect(text.startsWith('# GENERATED')).toBe(true);
      const [block] = await parseCif(text);
      expect(block!.header).toBe(id);
      expect(crossReferences(block!, gdict), id).toEqual([]);
      const protein = col(block!.categories.entity_poly, 'type').filter((t) => t === 'polypeptide(L)').length;
      if (protein)
        expect(
          sifts.some((l) => l.startsWith(`${id.toLowerCase()}\t`)),
          id,
        ).toBe(true);
    }
  }, 120_000);
});
