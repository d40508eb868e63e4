import { isoDate, type Entry } from '../../../core/mmcif/block-reader.js';
import { compact, copyCategories, dropIncompleteRows } from './common.js';
import type { LocalComponent } from './index.js';

/** `rcsb_chem_comp_descriptor` names the CCD's descriptor rows this way (CACTVS SMILES first, as the RCSB). */
function descriptors(entry: Entry, compId: string): Record<string, unknown> {
  const t = entry.table('pdbx_chem_comp_descriptor');
  const found: Record<string, { value: string; program: string }[]> = {};
  for (let r = 0; r < t.rows; r++) {
    const type = t.str('type', r);
    const value = t.str('descriptor', r);
    if (!type || !value) continue;
    (found[type] ??= []).push({ value, program: (t.str('program', r) ?? '').toUpperCase() });
  }
  const pick = (type: string) => {
    const list = found[type] ?? [];
    return (list.find((d) => d.program === 'CACTVS') ?? list[0])?.value;
  };
  return compact({
    InChI: pick('InChI'),
    InChIKey: pick('InChIKey'),
    SMILES: pick('SMILES'),
    SMILES_stereo: pick('SMILES_CANONICAL'),
    comp_id: compId,
  });
}

/** A component of the dictionary as the Data API's `chem_comp` object. */
export function chemCompDocument(entry: Entry): Record<string, unknown> | undefined {
  const cc = entry.table('chem_comp');
  const id = cc.str('id', 0);
  if (!id) return undefined;
  const doc: Record<string, unknown> = {};
  copyCategories(entry, 'chem_comp', doc);
  // A dictionary may name a component without the program that made the name (the demo's curated
  // one does); the schema requires both.
  dropIncompleteRows('chem_comp', doc);
  const atoms = entry.table('chem_comp_atom');
  const bonds = entry.table('chem_comp_bond');
  let heavy = 0;
  let chiral = 0;
  for (let r = 0; r < atoms.rows; r++) {
    const el = (atoms.str('type_symbol', r) ?? '').toUpperCase();
    if (el !== 'H' && el !== 'D') heavy++;
    const stereo = atoms.str('pdbx_stereo_config', r);
    if (stereo && stereo !== 'N') chiral++;
  }
  let aromatic = 0;
  for (let r = 0; r < bonds.rows; r++) if (bonds.str('pdbx_aromatic_flag', r) === 'Y') aromatic++;
  const initial = cc.str('pdbx_initial_date', 0);
  const modified = cc.str('pdbx_modified_date', 0);
  doc.rcsb_chem_comp_container_identifiers = { comp_id: id, rcsb_id: id };
  doc.rcsb_chem_comp_descriptor = descriptors(entry, id);
  doc.rcsb_chem_comp_info = compact({
    atom_count: atoms.rows || undefined,
    atom_count_chiral: atoms.rows ? chiral : undefined,
    atom_count_heavy: atoms.rows ? heavy : undefined,
    bond_count: bonds.rows || undefined,
    bond_count_aromatic: bonds.rows ? aromatic : undefined,
    // Required by the official chem_comp schema (GraphQL errors when it is selected and absent).
    comp_id: id,
    initial_release_date: initial ? isoDate(initial) : undefined,
    revision_date: modified ? isoDate(modified) : undefined,
  });
  doc.rcsb_id = id;
  return doc;
}

/** What an entry file says of a component missing from the loaded dictionary. */
export function localChemComp(c: LocalComponent): Record<string, unknown> {
  return {
    chem_comp: compact({ formula: c.formula, formula_weight: c.formula_weight, id: c.id, name: c.name, type: c.type }),
    rcsb_chem_comp_container_identifiers: { comp_id: c.id, rcsb_id: c.id },
    rcsb_id: c.id,
  };
}
