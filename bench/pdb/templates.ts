/**
 * Residue templates: 3-D heavy-atom coordinates of each chemical component, made once from its
 * dictionary SMILES with OpenChemLib's conformer generator (fixed seed, so always the same). Bond
 * lengths and angles are those of a force-field conformer, which is what "real geometry per
 * residue" needs; the generated entries place these templates along generated backbones.
 */
import { ConformerGenerator, Molecule, Resources } from 'openchemlib';
import { COMPONENTS } from './component-defs.js';
import type { Vec } from './geometry.js';

export type Template = Map<string, { xyz: Vec; element: string }>;

const cache = new Map<string, Template>();
let registered = false;

export function template(compId: string): Template {
  const hit = cache.get(compId);
  if (hit) return hit;
  const def = COMPONENTS.find((c) => c.id === compId);
  if (!def?.smiles) throw new Error(`no SMILES template for ${compId}`);
  if (!registered) {
    Resources.registerFromNodejs();
    registered = true;
  }
  const mol = Molecule.fromSmiles(def.smiles);
  const conf = new ConformerGenerator(20240101).getOneConformerAsMolecule(mol);
  if (!conf) throw new Error(`no conformer for ${compId}`);
  const t: Template = new Map();
  def.atoms.forEach((name, i) => {
    const label = conf.getAtomLabel(i);
    t.set(name, { xyz: [conf.getAtomX(i), conf.getAtomY(i), conf.getAtomZ(i)], element: label.toUpperCase() });
  });
  cache.set(compId, t);
  return t;
}
