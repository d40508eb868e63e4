/**
 * The conversions a request may ask for, by name: what a pool worker runs, and what tests call
 * directly. Every task reads the whole file itself, so a worker holds no state between tasks.
 */
import { CifFormatError } from './errors.js';
import { parseCif } from './parse.js';
import { toBinaryCif } from './encode.js';
import { toLegacyPdb } from './legacy.js';
import { toAssemblyCif, toAssemblyPdb } from './assembly-files.js';
import { polymerSequences } from './sequences.js';
import { atomCountOf } from './table.js';
import { assemblyIds } from './assembly.js';
import { encodeResidues, readResidues } from './residues.js';

/**
 * bcif: BinaryCIF; pdb: legacy PDB; assembly-cif / assembly-pdb: assembly `options.assembly`;
 * sequences: JSON of polymerSequences; summary: JSON {atoms, assemblies}; check: parses only (empty result);
 * residues: the encoded polymer residues and assemblies (residues.ts), of CIF or, with
 * `options.format` 'pdb', of a legacy PDB file.
 */
export type CifTaskKind = 'bcif' | 'pdb' | 'assembly-cif' | 'assembly-pdb' | 'sequences' | 'summary' | 'check' | 'residues';

export interface CifTaskOptions {
  assembly?: string;
  /** Name written in the BinaryCIF header. */
  encoder?: string;
  /** The input's format for `residues` (CIF text or binary unless 'pdb'). */
  format?: 'cif' | 'pdb';
}

export const CIF_TASK_KINDS: readonly CifTaskKind[] = ['bcif', 'pdb', 'assembly-cif', 'assembly-pdb', 'sequences', 'summary', 'check', 'residues'];

const text = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

export async function runCifTaskHere(kind: CifTaskKind, bytes: Uint8Array, options: CifTaskOptions = {}): Promise<Uint8Array> {
  if (kind === 'residues') return encodeResidues(await readResidues(bytes, options.format ?? 'cif'));
  const file = await parseCif(bytes);
  switch (kind) {
    case 'bcif':
      return toBinaryCif(file, options.encoder);
    case 'pdb':
      return text(toLegacyPdb(file));
    case 'assembly-cif':
      return text(toAssemblyCif(file, options.assembly ?? '1'));
    case 'assembly-pdb':
      return text(toAssemblyPdb(file, options.assembly ?? '1'));
    case 'sequences':
      return text(JSON.stringify(polymerSequences(file)));
    case 'summary': {
      const block = file.blocks[0]!;
      return text(JSON.stringify({ atoms: atomCountOf(block), assemblies: assemblyIds(block) }));
    }
    case 'check':
      return new Uint8Array(0);
    default:
      throw new CifFormatError(`unknown conversion "${String(kind)}"`);
  }
}
