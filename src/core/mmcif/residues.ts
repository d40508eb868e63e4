/**
 * The polymer residues of a structure file with their atoms (first model, first alternate
 * location of each atom), and its assemblies as the chains they list: what structure and motif
 * search index or take as a query. Read from mmCIF, BinaryCIF or legacy PDB; carried between
 * threads in a compact binary form (a JSON header, then typed arrays).
 */
import type { CifCategory, CifFrame } from 'molstar/lib/mol-io/reader/cif.js';
import { CifFormatError } from './errors.js';
import { firstBlock, inflate, parseCif } from './parse.js';
import { col } from './table.js';
import { interner } from '../interner.js';

export interface Residues {
  /** Residue count. */
  n: number;
  /** Chain (label_asym_id) of each residue, as an index into `asyms`. */
  asym: Uint16Array;
  asyms: string[];
  /** label_seq_id (auth_seq_id where the file has no label numbering, as legacy PDB files). */
  seq: Int32Array;
  /** Residue name, as an index into `comps`. */
  comp: Uint16Array;
  comps: string[];
  /** Atoms of residue i are atomStart[i] .. atomStart[i + 1] - 1. */
  atomStart: Uint32Array;
  /** Atom name, as an index into `names`. */
  atomName: Uint16Array;
  names: string[];
  /** x, y, z of each atom. */
  xyz: Float32Array;
  /** Each assembly of the file with the chains its generators list. */
  assemblies: { id: string; asyms: string[] }[];
}

function assembliesOf(gen: CifCategory | undefined): Residues['assemblies'] {
  const out = new Map<string, Set<string>>();
  const id = col(gen, 'assembly_id');
  const list = col(gen, 'asym_id_list');
  for (let r = 0; r < (gen?.rowCount ?? 0); r++) {
    const a = id.str(r);
    if (!a) continue;
    const set = out.get(a) ?? new Set<string>();
    for (const x of list.str(r).split(',')) if (x.trim()) set.add(x.trim());
    out.set(a, set);
  }
  return [...out].map(([a, s]) => ({ id: a, asyms: [...s] }));
}

/** The residues of polymer (ATOM) records of the first model. */
export function residuesOf(frame: CifFrame): Residues {
  const site = frame.categories.atom_site;
  const rows = site?.rowCount ?? 0;
  const group = col(site, 'group_PDB');
  const model = col(site, 'pdbx_PDB_model_num');
  const asymCol = col(site, 'label_asym_id');
  const authAsym = col(site, 'auth_asym_id');
  const seqCol = col(site, 'label_seq_id');
  const authSeq = col(site, 'auth_seq_id');
  const compCol = col(site, 'label_comp_id');
  const atomCol = col(site, 'label_atom_id');
  const x = col(site, 'Cartn_x');
  const y = col(site, 'Cartn_y');
  const z = col(site, 'Cartn_z');
  // Legacy PDB files (and some hand-made CIF) carry no label numbering: the author's stands in.
  let labelled = false;
  for (let r = 0; r < rows && !labelled; r++) labelled = seqCol.has(r) && seqCol.int(r) !== 0;
  // Their numbers are kept in Uint16Arrays.
  const names16 = () => interner(0xffff, () => new CifFormatError('too many distinct chain, residue or atom names'));
  const asyms = names16();
  const comps = names16();
  const names = names16();
  const resAsym: number[] = [];
  const resSeq: number[] = [];
  const resComp: number[] = [];
  const atomStart: number[] = [];
  const atomName: number[] = [];
  const xyz: number[] = [];
  // This loop runs for every atom of every entry a load reads, so it compares the file's tokens
  // in place (areValuesEqual) rather than taking a string of each: a row is ATOM, of the first
  // model, of the residue before, or a name seen before, by comparison with an earlier row.
  const groupF = site?.getField('group_PDB');
  const modelF = site?.getField('pdbx_PDB_model_num');
  const asymF = site?.getField('label_asym_id');
  const atomF = site?.getField('label_atom_id');
  let atomRow = -1;
  for (let r = 0; r < rows && atomRow < 0; r++) if (group.str(r) === 'ATOM') atomRow = r;
  const modelRow = rows && model.has(0) ? 0 : -1;
  const asymOf = (r: number) => asymCol.str(r) || authAsym.str(r);
  const sameAsym = (r: number, p: number) => (asymF && asymCol.has(r) && asymCol.has(p) ? asymF.areValuesEqual(r, p) : asymOf(r) === asymOf(p));
  // Per residue name: the rows and numbers of its atom names in the order of its first residue
  // (residues of one kind list their atoms alike, so most names are told by one comparison).
  const namesOfComp: { row: number; id: number }[][] = [];
  let known: { row: number; id: number }[] = [];
  let lastRow = -1;
  let lastSeq = 0;
  let first = 0;
  for (let r = 0; r < rows; r++) {
    if (group.has(r) && (atomRow < 0 || !(groupF as NonNullable<typeof groupF>).areValuesEqual(r, atomRow))) continue;
    if (model.has(r) && (modelRow < 0 || !(modelF as NonNullable<typeof modelF>).areValuesEqual(r, modelRow))) continue;
    if (!x.has(r) || !y.has(r) || !z.has(r)) continue;
    if (labelled && !seqCol.has(r)) continue;
    const seq = labelled ? seqCol.int(r) : authSeq.int(r);
    if (lastRow < 0 || seq !== lastSeq || !sameAsym(r, lastRow)) {
      lastRow = r;
      lastSeq = seq;
      first = atomName.length;
      resAsym.push(asyms.id(asymOf(r)));
      resSeq.push(seq);
      const comp = comps.id(compCol.str(r));
      resComp.push(comp);
      known = namesOfComp[comp] ??= [];
      atomStart.push(first);
    }
    // The atom's name: where the first residue of this kind had its k-th name, one comparison.
    const k = atomName.length - first;
    const slot = known[k];
    let id: number;
    if (atomF && slot !== undefined && atomCol.has(r) && atomF.areValuesEqual(r, slot.row)) id = slot.id;
    else {
      id = names.id(atomCol.str(r));
      if (k === known.length && atomCol.has(r)) known.push({ row: r, id });
    }
    // The first alternate location of an atom stands for it.
    let dup = false;
    for (let a = first; a < atomName.length && !dup; a++) dup = atomName[a] === id;
    if (dup) continue;
    atomName.push(id);
    xyz.push(x.float(r), y.float(r), z.float(r));
  }
  atomStart.push(atomName.length);
  return {
    n: resSeq.length,
    asym: Uint16Array.from(resAsym),
    asyms: asyms.list,
    seq: Int32Array.from(resSeq),
    comp: Uint16Array.from(resComp),
    comps: comps.list,
    atomStart: Uint32Array.from(atomStart),
    atomName: Uint16Array.from(atomName),
    names: names.list,
    xyz: Float32Array.from(xyz),
    assemblies: assembliesOf(frame.categories.pdbx_struct_assembly_gen),
  };
}

/** The residues of a structure file: mmCIF or BinaryCIF (`cif`), or legacy PDB (`pdb`), plain or gzipped. */
export async function readResidues(bytes: Uint8Array, format: 'cif' | 'pdb'): Promise<Residues> {
  if (format === 'cif') return residuesOf(firstBlock(await parseCif(bytes)));
  // Loaded here, not with the module: the converter pulls in Mol*'s structure model (a third of a
  // second per thread), and the threads that parse archive entries never read legacy files.
  const [{ parsePDB }, { pdbToMmCif }] = await Promise.all([import('molstar/lib/mol-io/reader/pdb/parser.js'), import('molstar/lib/mol-model-formats/structure/pdb/to-cif.js')]);
  const plain = inflate(bytes);
  const text = Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('latin1');
  const parsed = await parsePDB(text, 'query').run();
  if (parsed.isError) throw new CifFormatError(`not a readable PDB file: ${parsed.message}`);
  return residuesOf(await pdbToMmCif(parsed.result));
}

const MAGIC = 0x31534552; // 'RES1'

/** The binary form: magic, header length, JSON header, then the typed arrays (4-byte aligned). */
export function encodeResidues(r: Residues): Uint8Array {
  const header = Buffer.from(JSON.stringify({ n: r.n, atoms: r.atomName.length, asyms: r.asyms, comps: r.comps, names: r.names, assemblies: r.assemblies }));
  const pad = (k: number) => (4 - (k % 4)) % 4;
  const headLen = 8 + header.length + pad(header.length);
  const parts: ArrayBufferView[] = [r.asym, r.comp, r.atomName, r.seq, r.atomStart, r.xyz];
  let size = headLen;
  for (const p of parts) size += p.byteLength + pad(p.byteLength);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, header.length, true);
  out.set(header, 8);
  let at = headLen;
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), at);
    at += p.byteLength + pad(p.byteLength);
  }
  return out;
}

export function decodeResidues(bytes: Uint8Array): Residues {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || view.getUint32(0, true) !== MAGIC) throw new Error('not an encoded residue set');
  const len = view.getUint32(4, true);
  const h = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 8, len).toString('utf8')) as {
    n: number;
    atoms: number;
    asyms: string[];
    comps: string[];
    names: string[];
    assemblies: Residues['assemblies'];
  };
  // An aligned copy, so typed views can be taken at any offset.
  const buf = new Uint8Array(bytes).buffer;
  let at = 8 + len + ((4 - (len % 4)) % 4);
  const take = <T>(make: (b: ArrayBuffer, o: number, n: number) => T, count: number, width: number): T => {
    const v = make(buf, at, count);
    at += count * width + ((4 - ((count * width) % 4)) % 4);
    return v;
  };
  const asym = take((b, o, n) => new Uint16Array(b, o, n), h.n, 2);
  const comp = take((b, o, n) => new Uint16Array(b, o, n), h.n, 2);
  const atomName = take((b, o, n) => new Uint16Array(b, o, n), h.atoms, 2);
  const seq = take((b, o, n) => new Int32Array(b, o, n), h.n, 4);
  const atomStart = take((b, o, n) => new Uint32Array(b, o, n), h.n + 1, 4);
  const xyz = take((b, o, n) => new Float32Array(b, o, n), h.atoms * 3, 4);
  return { n: h.n, asym, asyms: h.asyms, seq, comp, comps: h.comps, atomStart, atomName, names: h.names, xyz, assemblies: h.assemblies };
}
