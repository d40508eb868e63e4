/**
 * Structures given in requests (SMILES, an SD record, InChI), read in the structure threads
 * (structures.ts) up to a bounded size; searches hand the query text to the matching threads.
 */
import { inchiOf } from './compute.js';
import { heavyMolecule } from './compound.js';
import { noteEngineFault, parseMol, type Mol, type RDKit } from './rdkit.js';
import { parseSdf } from './sdf.js';

/** Longest structure text accepted in a request (PubChem's largest records are far below it). */
export const MAX_STRUCTURE_CHARS = 20_000;

export type StructureKind = 'smiles' | 'sdf';

/** The molfile text of an SD record given in a request, or undefined. */
export function molblockOfSdf(text: string): string | undefined {
  const first = parseSdf(text)[0];
  return first && typeof first !== 'string' ? first.molblock : undefined;
}

/** The heavy-atom molecule of a request's structure, or undefined when it cannot be read. */
export function requestMolecule(r: RDKit, kind: StructureKind, text: string): Mol | undefined {
  if (text.length > MAX_STRUCTURE_CHARS || text.trim() === '') return undefined;
  if (kind === 'smiles') return /\s/.test(text.trim()) ? undefined : parseMol(r, text.trim());
  const block = molblockOfSdf(text);
  return block ? heavyMolecule(r, block) : undefined;
}

/** The standard InChIKey of a request's structure, or undefined. */
export function requestInchikey(r: RDKit, kind: StructureKind | 'inchi', text: string): string | undefined {
  if (kind === 'inchi') {
    if (!text.startsWith('InChI=') || text.length > MAX_STRUCTURE_CHARS) return undefined;
    try {
      return r.get_inchikey_for_inchi(text.trim()) || undefined;
    } catch (err) {
      noteEngineFault(err, r);
      return undefined;
    }
  }
  const mol = requestMolecule(r, kind, text);
  if (!mol) return undefined;
  try {
    return inchiOf(r, mol).inchikey || undefined;
  } finally {
    mol.delete();
  }
}
