/**
 * Builds the chemical component dictionary (`components.cif`) for the components in
 * component-defs.ts: one `data_XXX` block each with `_chem_comp`, `_chem_comp_atom`,
 * `_chem_comp_bond`, `_pdbx_chem_comp_descriptor` and `_pdbx_chem_comp_identifier`, laid out as the
 * wwPDB CCD is. Structure-derived fields are computed with RDKit (see the demo README).
 */
import type { MainModule } from '@rdkit/rdkit';
import { CifBlockWriter, type CifRow } from './cif-text.js';
import { COMPONENTS, atomOrder, type ComponentDef } from './component-defs.js';

type RDKitModule = MainModule;

/** Atomic weights as the CCD's formula weights use them (IUPAC 2001 values). */
export const ATOMIC_WEIGHT: Record<string, number> = {
  H: 1.00794,
  C: 12.0107,
  N: 14.0067,
  O: 15.9994,
  P: 30.973762,
  S: 32.065,
  Fe: 55.845,
};

export interface BuiltComponent {
  def: ComponentDef;
  atoms: Array<{ name: string; element: string; charge: number; aromatic: boolean; hCount: number; stereo: 'R' | 'S' | 'N' }>;
  bonds: Array<{ a: string; b: string; order: 'SING' | 'DOUB' | 'TRIP'; aromatic: boolean }>;
  formula: string;
  charge: number;
  weight: number;
  smiles: string;
  smilesCanonical: string;
  inchi: string;
  inchiKey: string;
  toolkitVersion: string;
}

let rdkitPromise: Promise<RDKitModule> | undefined;
export function rdkit(): Promise<RDKitModule> {
  rdkitPromise ??= import('@rdkit/rdkit').then((mod) => (mod as unknown as { default: () => Promise<RDKitModule> }).default());
  return rdkitPromise;
}

interface RdJsonAtom {
  z?: number;
  impHs?: number;
  chg?: number;
}
interface RdJsonBond {
  atoms: [number, number];
  bo?: number;
}
interface RdJson {
  molecules: Array<{
    atoms: RdJsonAtom[];
    bonds: RdJsonBond[];
    extensions?: Array<{ aromaticAtoms?: number[]; aromaticBonds?: number[]; cipCodes?: Array<[number, string]> }>;
  }>;
}

const SYMBOL: Record<number, string> = { 1: 'H', 6: 'C', 7: 'N', 8: 'O', 15: 'P', 16: 'S', 26: 'Fe' };

/** A V3000 molfile for an explicit structure (V3000 so that dative bonds, type 9, are kept). */
function explicitMolblock(def: ComponentDef, withDative = true): string {
  const atoms = def.explicitAtoms ?? [];
  const idx = new Map(atoms.map((a, i) => [a[0], i + 1]));
  const bonds = (def.explicitBonds ?? []).filter((b) => withDative || !b[3]);
  const lines = ['', '  biomirror', '', '  0  0  0     0  0            999 V3000', 'M  V30 BEGIN CTAB', `M  V30 COUNTS ${atoms.length} ${bonds.length} 0 0 0`, 'M  V30 BEGIN ATOM'];
  atoms.forEach(([, el, chg], i) => lines.push(`M  V30 ${i + 1} ${el} 0 0 0 0${chg ? ` CHG=${chg}` : ''}`));
  lines.push('M  V30 END ATOM', 'M  V30 BEGIN BOND');
  bonds.forEach(([a, b, order, dative], i) => lines.push(`M  V30 ${i + 1} ${dative ? 9 : order} ${idx.get(a)} ${idx.get(b)}`));
  lines.push('M  V30 END BOND', 'M  V30 END CTAB', 'M  END');
  return lines.join('\n');
}

/** Hill-order formula as the CCD writes it (`C34 H32 Fe N4 O4`, charge appended: `O4 P -3`). */
function hillFormula(counts: Map<string, number>, charge: number): string {
  const els = [...counts.keys()].sort((a, b) => {
    const rank = (e: string) => (e === 'C' ? 0 : e === 'H' ? 1 : 2);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  const hasC = counts.has('C');
  const order = hasC ? els : [...counts.keys()].sort();
  const parts = order.map((e) => (counts.get(e)! > 1 ? `${e}${counts.get(e)}` : e));
  if (charge) parts.push(String(charge));
  return parts.join(' ');
}

export async function buildComponent(def: ComponentDef): Promise<BuiltComponent> {
  const RDKit = await rdkit();
  const input = def.smiles ?? explicitMolblock(def);
  const mol = RDKit.get_mol(input);
  if (!mol || !mol.is_valid()) throw new Error(`RDKit cannot read component ${def.id}`);
  try {
    const json = JSON.parse(mol.get_json()) as RdJson;
    const m = json.molecules[0]!;
    const ext = m.extensions?.[0] ?? {};
    if (m.atoms.length !== def.atoms.length) {
      throw new Error(`${def.id}: ${m.atoms.length} atoms in the structure, ${def.atoms.length} names`);
    }
    const aromaticAtoms = new Set(ext.aromaticAtoms ?? []);
    const aromaticBonds = new Set(ext.aromaticBonds ?? []);
    const cip = new Map((ext.cipCodes ?? []).map(([i, c]) => [i, c.replace(/[()]/g, '')]));
    const counts = new Map<string, number>();
    let charge = 0;
    const atoms = m.atoms.map((a, i) => {
      const element = SYMBOL[a.z ?? 6];
      if (!element) throw new Error(`${def.id}: element ${a.z} not supported`);
      const hCount = a.impHs ?? 0;
      counts.set(element, (counts.get(element) ?? 0) + 1);
      if (hCount) counts.set('H', (counts.get('H') ?? 0) + hCount);
      charge += a.chg ?? 0;
      const label = cip.get(i);
      return {
        name: def.atoms[i]!,
        element,
        charge: a.chg ?? 0,
        aromatic: aromaticAtoms.has(i),
        hCount,
        stereo: (label === 'R' || label === 'S' ? label : 'N') as 'R' | 'S' | 'N',
      };
    });
    for (const [name, want] of Object.entries(def.cip ?? {})) {
      const got = atoms.find((a) => a.name === name)?.stereo;
      if (got !== want) throw new Error(`${def.id}: atom ${name} is ${got}, expected ${want}`);
    }
    const bonds = m.bonds.map((b, i) => ({
      a: def.atoms[b.atoms[0]]!,
      b: def.atoms[b.atoms[1]]!,
      order: (b.bo === 2 ? 'DOUB' : b.bo === 3 ? 'TRIP' : 'SING') as 'SING' | 'DOUB' | 'TRIP',
      aromatic: aromaticBonds.has(i),
    }));
    const weight = [...counts].reduce((s, [e, n]) => s + ATOMIC_WEIGHT[e]! * n, 0);
    let inchi = mol.get_inchi();
    if (!inchi && def.explicitBonds) {
      // The InChI library refuses dative bonds; standard InChI disconnects metals anyway, so the
      // structure without them gives the same identifier.
      const plain = RDKit.get_mol(explicitMolblock(def, false));
      inchi = plain?.get_inchi() ?? '';
      plain?.delete();
    }
    if (!inchi) throw new Error(`${def.id}: no InChI`);
    return {
      def,
      atoms,
      bonds,
      charge, // exact halves (GLN: 146.1445) round down, as the CCD's values do
      weight: Math.round(weight * 1000 - 1e-6) / 1000,
      formula: hillFormula(counts, charge),
      smiles: mol.get_smiles(JSON.stringify({ doIsomericSmiles: false })),
      smilesCanonical: mol.get_smiles(),
      inchi,
      inchiKey: RDKit.get_inchikey_for_inchi(inchi),
      toolkitVersion: RDKit.version(),
    };
  } finally {
    mol.delete();
  }
}

export function componentBlock(c: BuiltComponent): string {
  const d = c.def;
  const w = new CifBlockWriter(d.id);
  w.category('chem_comp', [
    {
      id: d.id,
      name: d.name,
      type: d.type,
      pdbx_type: d.pdbxType,
      formula: c.formula,
      mon_nstd_parent_comp_id: d.parent ?? null,
      pdbx_synonyms: d.synonyms ?? null,
      pdbx_formal_charge: c.charge,
      pdbx_release_status: 'REL',
      formula_weight: c.weight.toFixed(3),
      one_letter_code: d.oneLetter ?? null,
      three_letter_code: d.id,
      pdbx_model_coordinates_missing_flag: 'Y',
      pdbx_ideal_coordinates_missing_flag: 'Y',
      pdbx_processing_site: '?',
    },
  ]);
  const leaving = new Set(d.leaving ?? []);
  const order = atomOrder(d);
  const atoms = [...c.atoms].sort((x, y) => order.indexOf(x.name) - order.indexOf(y.name));
  w.category(
    'chem_comp_atom',
    atoms.map((a, i): CifRow => ({
      comp_id: d.id,
      atom_id: a.name,
      alt_atom_id: a.name,
      type_symbol: a.element.toUpperCase(),
      charge: a.charge,
      pdbx_align: a.name.length < 4 && a.element.length === 1 ? 1 : 0,
      pdbx_aromatic_flag: a.aromatic ? 'Y' : 'N',
      pdbx_leaving_atom_flag: leaving.has(a.name) ? 'Y' : 'N',
      pdbx_stereo_config: a.stereo,
      pdbx_component_atom_id: a.name,
      pdbx_component_comp_id: d.id,
      pdbx_ordinal: i + 1,
    })),
  );
  if (c.bonds.length) {
    w.category(
      'chem_comp_bond',
      c.bonds.map((b, i): CifRow => ({
        comp_id: d.id,
        atom_id_1: b.a,
        atom_id_2: b.b,
        value_order: b.order,
        pdbx_aromatic_flag: b.aromatic ? 'Y' : 'N',
        pdbx_stereo_config: 'N',
        pdbx_ordinal: i + 1,
      })),
    );
  }
  const prog = { program: 'RDKit', program_version: c.toolkitVersion };
  w.category('pdbx_chem_comp_descriptor', [
    { comp_id: d.id, type: 'SMILES', ...prog, descriptor: c.smiles },
    { comp_id: d.id, type: 'SMILES_CANONICAL', ...prog, descriptor: c.smilesCanonical },
    { comp_id: d.id, type: 'InChI', ...prog, descriptor: c.inchi },
    { comp_id: d.id, type: 'InChIKey', ...prog, descriptor: c.inchiKey },
  ]);
  // Only names known to be right are given; the real CCD's come from ACD/Name and OpenEye Lexichem.
  if (d.systematicName) {
    w.category('pdbx_chem_comp_identifier', [{ comp_id: d.id, type: 'SYSTEMATIC NAME', program: '?', program_version: '?', identifier: d.systematicName }]);
  }
  return w.toString();
}

/** The dictionary text for the given component ids (all known components when omitted), in id order. */
export async function buildComponentsCif(ids?: Iterable<string>): Promise<{ text: string; built: BuiltComponent[] }> {
  const want = ids ? new Set(ids) : undefined;
  const defs = COMPONENTS.filter((d) => !want || want.has(d.id)).sort((a, b) => a.id.localeCompare(b.id));
  if (want) for (const id of want) if (!defs.some((d) => d.id === id)) throw new Error(`no definition for component ${id}`);
  const built: BuiltComponent[] = [];
  for (const d of defs) built.push(await buildComponent(d));
  return { text: built.map(componentBlock).join(''), built };
}
