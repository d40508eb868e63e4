/**
 * Residue templates: 3-D heavy-atom coordinates of each chemical component. They were made from
 * the dictionary SMILES (component-defs.ts) with OpenChemLib's conformer generator (fixed seed)
 * and are stored in residue-templates.json, because generating conformers takes seconds per
 * component; `node dist-bench/synthetic/pdb/make-demo.js --templates` remakes the file. Bond lengths and
 * angles are those of a force-field conformer: the generated entries place these templates along
 * generated backbones, so every residue keeps real chemistry.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConformerGenerator, Molecule, Resources } from 'openchemlib';
import { COMPONENTS } from './component-defs.js';
import type { Vec } from './geometry.js';
import { ROOT } from '../root.js';

export type Template = Map<string, { xyz: Vec; element: string }>;

/** Kept beside the sources; the build of the generators reads it from here too. */
export const TEMPLATES_FILE = join(ROOT, 'synthetic/pdb/residue-templates.json');

type Stored = Record<string, Array<[string, string, number, number, number]>>;
let stored: Stored | undefined;
const cache = new Map<string, Template>();

export function template(compId: string): Template {
  const hit = cache.get(compId);
  if (hit) return hit;
  stored ??= (JSON.parse(readFileSync(TEMPLATES_FILE, 'utf8')) as { templates: Stored }).templates;
  const rows = stored[compId];
  if (!rows) throw new Error(`no template for ${compId}: run make-demo.js --templates`);
  const t: Template = new Map(rows.map(([name, element, x, y, z]) => [name, { element, xyz: [x, y, z] as Vec }]));
  cache.set(compId, t);
  return t;
}

/** Remakes residue-templates.json from the SMILES of every component that has one. */
export function writeTemplates(): void {
  Resources.registerFromNodejs();
  const templates: Stored = {};
  for (const def of COMPONENTS) {
    if (!def.smiles) continue;
    const conf = new ConformerGenerator(20240101).getOneConformerAsMolecule(Molecule.fromSmiles(def.smiles));
    if (!conf) throw new Error(`no conformer for ${def.id}`);
    const r3 = (v: number) => Math.round(v * 1000) / 1000;
    templates[def.id] = def.atoms.map((name, i) => [name, conf.getAtomLabel(i).toUpperCase(), r3(conf.getAtomX(i)), r3(conf.getAtomY(i)), r3(conf.getAtomZ(i))]);
  }
  const note = 'GENERATED: heavy-atom conformers of the components in component-defs.ts, made with OpenChemLib ConformerGenerator (seed 20240101); [atom name, element, x, y, z] in angstroms.';
  writeFileSync(TEMPLATES_FILE, `${JSON.stringify({ note, templates }, null, 0).replace(/\],\[/g, '],\n[')}\n`);
  cache.clear();
  stored = undefined;
}
