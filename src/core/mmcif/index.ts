/**
 * Structure files (mmCIF, BinaryCIF, legacy PDB, assemblies) read and written with Mol*'s CIF
 * reader and encoder, or read for their values (block-reader.ts). Per-request conversions go
 * through runCifTask (a worker pool with a time budget); the direct functions are for callers
 * already off the request path.
 */
export type { CifFile } from 'molstar/lib/mol-io/reader/cif.js';
export { CifFormatError, LegacyFormatUnavailable, AssemblyNotFound, CifTaskTimeout } from './errors.js';
export { parseCif, inflate } from './parse.js';
export { readBlock, Entry, Table, isoDate, itemKey, type FieldKind, type FieldPlan } from './block-reader.js';
export { toBinaryCif } from './encode.js';
export { toLegacyPdb } from './legacy.js';
export { toAssemblyCif, toAssemblyPdb, ASSEMBLY_ENTRY_ID } from './assembly-files.js';
export { parseOperExpression, assemblyIds } from './assembly.js';
export { polymerSequences, type PolymerSequence } from './sequences.js';
export { runCifTask, closeCifPool, CifPool, cifPoolState } from './pool.js';
export { runCifTaskHere, CIF_TASK_KINDS, type CifTaskKind, type CifTaskOptions } from './tasks.js';
export { cifLimits } from './limits.js';
export { decodeResidues, encodeResidues, readResidues, residuesOf, type Residues } from './residues.js';

import type { CifFile } from 'molstar/lib/mol-io/reader/cif.js';
import { atomCountOf } from './table.js';
import { firstBlock } from './parse.js';

/** Rows of atom_site in the first block (all models). */
export function atomCount(file: CifFile): number {
  return atomCountOf(firstBlock(file));
}
