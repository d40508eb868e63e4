/**
 * CONECT and MASTER of a legacy `.pdb` file. CONECT lists, as the format defines, the bonds within
 * each HET group (water excepted) and the struct_conn bonds (LINK, SSBOND), on the serial numbers the
 * coordinate records were given, so they are read back from those records (first model only, as
 * wwPDB writes them). The bonds within a HET group are the chemical component dictionary's
 * (`chem_comp_bond`, by atom name), as wwPDB takes them, where a dictionary is loaded and lists the
 * component; the entry's mmCIF carries none, so otherwise they are found from distances: two atoms
 * of a group are bonded when closer than the sum of their covalent radii plus 0.4 A, never two metal
 * atoms (a cluster's Fe-Fe, ~2.7 A, is no bond). Distances miss what a strained old model has (the
 * heme propionates of 4HHB: C-C 2.1-2.3 A, O-O contacts of 1.5-1.9 A).
 */
import type { ComponentBond } from '../store/tables.js';
import { type Block, pad80, reader, rows, WATER } from './legacy-cif.js';

interface Atom {
  serial: number;
  name: string;
  alt: string;
  residue: string;
  het: boolean;
  comp: string;
  x: number;
  y: number;
  z: number;
  element: string;
}

/** Covalent radii (A) of the elements HET groups are made of; others count as 1.5. */
const RADIUS: Record<string, number> = {
  H: 0.31,
  D: 0.31,
  B: 0.84,
  C: 0.76,
  N: 0.71,
  O: 0.66,
  F: 0.57,
  SI: 1.11,
  P: 1.07,
  S: 1.05,
  CL: 1.02,
  AS: 1.19,
  SE: 1.2,
  BR: 1.2,
  I: 1.39,
  FE: 1.32,
  CO: 1.26,
  NI: 1.24,
  CU: 1.32,
  ZN: 1.22,
  MG: 1.41,
  MN: 1.39,
  MO: 1.54,
  W: 1.62,
  V: 1.53,
  CA: 1.76,
  NA: 1.66,
  K: 2.03,
};
const METALS = new Set(['FE', 'CO', 'NI', 'CU', 'ZN', 'MG', 'MN', 'MO', 'W', 'V', 'CA', 'NA', 'K', 'CD', 'HG', 'PT', 'AU', 'AG', 'RU', 'RH', 'PD', 'OS', 'IR', 'GA', 'AL', 'LI', 'CR', 'TI']);

/** Residue key of an atom record: chain, number, insertion code, name. */
const residueKey = (chain: string, seq: string, ins: string, comp: string) => `${chain}|${seq.trim()}|${ins.trim()}|${comp.trim()}`;

/** ATOM/HETATM records of the first model. */
export function firstModelAtoms(lines: readonly string[]): Atom[] {
  const atoms: Atom[] = [];
  for (const l of lines) {
    if (l.startsWith('ENDMDL')) break;
    const het = l.startsWith('HETATM');
    if (!het && !l.startsWith('ATOM  ')) continue;
    atoms.push({
      serial: Number(l.slice(6, 11)),
      name: l.slice(12, 16).trim(),
      alt: l.slice(16, 17).trim(),
      residue: residueKey(l.slice(21, 22), l.slice(22, 26), l.slice(26, 27), l.slice(17, 20)),
      het,
      comp: l.slice(17, 20).trim(),
      x: Number(l.slice(30, 38)),
      y: Number(l.slice(38, 46)),
      z: Number(l.slice(46, 54)),
      element: (l.slice(76, 78).trim() || l.slice(12, 14).trim()).toUpperCase(),
    });
  }
  return atoms;
}

type Bonds = Map<number, Set<number>>;

function bond(bonds: Bonds, a: number, b: number): void {
  if (a === b) return;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    let set = bonds.get(x);
    if (!set) bonds.set(x, (set = new Set()));
    set.add(y);
  }
}

function bonded(a: Atom, b: Atom): boolean {
  if (a.alt && b.alt && a.alt !== b.alt) return false;
  if (METALS.has(a.element) && METALS.has(b.element)) return false;
  const limit = (RADIUS[a.element] ?? 1.5) + (RADIUS[b.element] ?? 1.5) + 0.4;
  const d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2;
  return d2 > 0.16 && d2 <= limit * limit;
}

/** Bonds within each HET group but water: the dictionary's where it lists the component, else from distances. */
function intraResidue(atoms: readonly Atom[], bonds: Bonds, dictionary: ReadonlyMap<string, readonly ComponentBond[]>): void {
  const groups = new Map<string, Atom[]>();
  for (const a of atoms) {
    if (!a.het || WATER.has(a.comp)) continue;
    const g = groups.get(a.residue);
    if (g) g.push(a);
    else groups.set(a.residue, [a]);
  }
  for (const g of groups.values()) {
    const listed = dictionary.get((g[0] as Atom).comp);
    if (listed?.length) {
      const named = new Map<string, Atom[]>();
      for (const a of g) {
        const same = named.get(a.name);
        if (same) same.push(a);
        else named.set(a.name, [a]);
      }
      // Each alternate location bonds within itself and to atoms without one.
      for (const [n1, n2] of listed) for (const a of named.get(n1) ?? []) for (const b of named.get(n2) ?? []) if (!a.alt || !b.alt || a.alt === b.alt) bond(bonds, a.serial, b.serial);
      continue;
    }
    for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) if (bonded(g[i] as Atom, g[j] as Atom)) bond(bonds, (g[i] as Atom).serial, (g[j] as Atom).serial);
  }
}

/** Bonds struct_conn lists (all but hydrogen bonds) between atoms of the file's asymmetric unit. */
function connections(block: Block, atoms: readonly Atom[], bonds: Bonds): void {
  const byName = new Map<string, Atom[]>();
  for (const a of atoms) {
    const key = `${a.residue}|${a.name}`;
    const list = byName.get(key);
    if (list) list.push(a);
    else byName.set(key, [a]);
  }
  const v = reader(block, 'struct_conn');
  const partner = (p: 1 | 2, i: number) => {
    const ins = v(`pdbx_ptnr${p}_PDB_ins_code`, i);
    const comp = v(`ptnr${p}_auth_comp_id`, i) || v(`ptnr${p}_label_comp_id`, i);
    const key = `${residueKey(v(`ptnr${p}_auth_asym_id`, i), v(`ptnr${p}_auth_seq_id`, i), ins, comp)}|${v(`ptnr${p}_auth_atom_id`, i) || v(`ptnr${p}_label_atom_id`, i)}`;
    const alt = v(`pdbx_ptnr${p}_label_alt_id`, i);
    return (byName.get(key) ?? []).filter((a) => !alt || !a.alt || a.alt === alt);
  };
  for (let i = 0; i < rows(block, 'struct_conn'); i++) {
    if (v('conn_type_id', i) === 'hydrog') continue;
    // A bond to a symmetry mate has no serial number in this file.
    if ((v('ptnr1_symmetry', i) || '1_555') !== '1_555' || (v('ptnr2_symmetry', i) || '1_555') !== '1_555') continue;
    for (const a of partner(1, i)) for (const b of partner(2, i)) if (!a.alt || !b.alt || a.alt === b.alt) bond(bonds, a.serial, b.serial);
  }
}

/** CONECT records: each atom's bonded serials in ascending order, four a line. */
export function conect(block: Block, lines: readonly string[], dictionary: ReadonlyMap<string, readonly ComponentBond[]> = new Map()): string[] {
  const atoms = firstModelAtoms(lines);
  const bonds: Bonds = new Map();
  intraResidue(atoms, bonds, dictionary);
  connections(block, atoms, bonds);
  const out: string[] = [];
  for (const serial of [...bonds.keys()].sort((a, b) => a - b)) {
    const partners = [...(bonds.get(serial) ?? [])].sort((a, b) => a - b);
    for (let k = 0; k < partners.length; k += 4) {
      out.push(
        pad80(
          `CONECT${String(serial).padStart(5)}${partners
            .slice(k, k + 4)
            .map((p) => String(p).padStart(5))
            .join('')}`,
        ),
      );
    }
  }
  return out;
}

/** MASTER: the counts of the file's records, as the format checks them. */
export function master(lines: readonly string[]): string {
  const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
  const fields = [
    count(/^REMARK/),
    0,
    count(/^HET {3}/),
    count(/^HELIX /),
    count(/^SHEET /),
    0, // TURN records are no longer written
    count(/^SITE {2}/),
    count(/^(ORIGX|SCALE|MTRIX)[123]/),
    count(/^(ATOM {2}|HETATM)/),
    count(/^TER/),
    count(/^CONECT/),
    count(/^SEQRES/),
  ];
  return pad80(`MASTER    ${fields.map((n) => String(n).padStart(5)).join('')}`);
}
