/**
 * What the service reads out of a model mmCIF with Mol*'s CIF reader: the UniProt fields the
 * database writes into ModelCIF's categories (used when no metadata table is loaded) and the
 * per-residue pLDDT (used when no confidence file is given).
 */
import { gunzipSync } from 'node:zlib';
import type { CifBlock, CifCategory } from 'molstar/lib/mol-io/reader/cif.js';
import { CifFormatError, parseCif } from '../../core/mmcif/index.js';

/** The largest model file (uncompressed) read: the full-length human titin fragments stay far below. */
export const MAX_MODEL_BYTES = 256 * 1024 * 1024;

export class ModelFormatError extends Error {
  override readonly name = 'ModelFormatError';
}

export interface ModelFacts {
  entryId: string | null;
  accession: string | null;
  uniprotId: string | null;
  description: string | null;
  gene: string | null;
  taxId: number | null;
  organism: string | null;
  uniprotStart: number | null;
  uniprotEnd: number | null;
  sequence: string;
  sequenceVersionDate: string | null;
  created: string | null;
  /** Per-residue pLDDT in residue order (ma_qa_metric_local, else the CA B-factors). */
  plddt: number[];
  atoms: number;
}

export function isGzip(b: Uint8Array): boolean {
  return b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
}

export function gunzipBounded(b: Buffer, max = MAX_MODEL_BYTES): Buffer {
  try {
    return gunzipSync(b, { maxOutputLength: max });
  } catch (err) {
    throw new ModelFormatError(`not a readable gzip file (${(err as Error).message})`);
  }
}

function str(cat: CifCategory | undefined, field: string, row = 0): string | null {
  const f = cat?.getField(field);
  if (!f || row >= f.rowCount || f.valueKind(row) !== 0) return null;
  const v = f.str(row).trim();
  return v === '' ? null : v;
}

function int(cat: CifCategory | undefined, field: string): number | null {
  const s = str(cat, field);
  if (s === null) return null;
  const n = Number(s);
  return Number.isInteger(n) ? n : null;
}

export async function parseModel(bytes: Buffer): Promise<CifBlock> {
  if (bytes.length > MAX_MODEL_BYTES) throw new ModelFormatError(`larger than ${MAX_MODEL_BYTES} bytes`);
  let file;
  try {
    file = await parseCif(bytes);
  } catch (err) {
    if (err instanceof CifFormatError) throw new ModelFormatError(err.message);
    throw err;
  }
  const block = file.blocks[0];
  if (!block) throw new ModelFormatError('not mmCIF: no data block');
  if (!block.categories['atom_site']?.rowCount) throw new ModelFormatError('no atoms (_atom_site is missing or empty): not a model file');
  return block;
}

function sequenceOf(block: CifBlock): string {
  const raw = str(block.categories['entity_poly'], 'pdbx_seq_one_letter_code_can') ?? str(block.categories['entity_poly'], 'pdbx_seq_one_letter_code');
  return (raw ?? '').replace(/\s+/g, '');
}

function plddtOf(block: CifBlock): number[] {
  const local = block.categories['ma_qa_metric_local'];
  const v = local?.getField('metric_value');
  if (local && v && local.rowCount > 0) {
    const out: number[] = [];
    for (let i = 0; i < local.rowCount; i++) out.push(v.float(i));
    return out;
  }
  // No local metric: AlphaFold writes the residue's pLDDT as every atom's B-factor; take the CA's.
  const atoms = block.categories['atom_site'] as CifCategory;
  const name = atoms.getField('label_atom_id');
  const b = atoms.getField('B_iso_or_equiv');
  const model = atoms.getField('pdbx_PDB_model_num');
  const out: number[] = [];
  if (!name || !b) return out;
  for (let i = 0; i < atoms.rowCount; i++) {
    if (model && i > 0 && model.str(i) !== model.str(0)) break;
    if (name.str(i) === 'CA') out.push(b.float(i));
  }
  return out;
}

export async function readModelFacts(bytes: Buffer): Promise<ModelFacts> {
  const block = await parseModel(bytes);
  const ref = block.categories['ma_target_ref_db_details'];
  const sref = block.categories['struct_ref'];
  const src = block.categories['entity_src_gen'] ?? block.categories['entity_src_nat'];
  const rev = block.categories['pdbx_audit_revision_history'];
  const revDate = rev && rev.rowCount > 0 ? str(rev, 'revision_date', rev.rowCount - 1) : null;
  const taxText = str(ref, 'ncbi_taxonomy_id') ?? str(src, 'pdbx_gene_src_ncbi_taxonomy_id') ?? str(src, 'pdbx_ncbi_taxonomy_id');
  return {
    entryId: str(block.categories['entry'], 'id'),
    accession: str(ref, 'db_accession') ?? str(sref, 'pdbx_db_accession'),
    uniprotId: str(ref, 'db_code') ?? str(sref, 'db_code'),
    description: str(block.categories['entity'], 'pdbx_description'),
    gene: str(ref, 'gene_name'),
    taxId: taxText !== null && /^\d+$/.test(taxText) ? Number(taxText) : null,
    organism: str(ref, 'organism_scientific') ?? str(src, 'pdbx_gene_src_scientific_name') ?? str(src, 'pdbx_organism_scientific'),
    uniprotStart: int(ref, 'seq_db_align_begin'),
    uniprotEnd: int(ref, 'seq_db_align_end'),
    sequence: sequenceOf(block),
    sequenceVersionDate: str(ref, 'seq_db_sequence_version_date'),
    created: revDate ?? str(block.categories['pdbx_database_status'], 'recvd_initial_deposition_date'),
    plddt: plddtOf(block),
    atoms: block.categories['atom_site']?.rowCount ?? 0,
  };
}
