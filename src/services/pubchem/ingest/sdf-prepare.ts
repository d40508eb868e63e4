/**
 * The part of reading a Compound SD file that needs no RDKit: cutting records, reading their
 * tags, and building those that carry every value PubChem computes (its own files). It runs in a
 * reading thread during a load (sdf-threads.ts), so that the loader's thread only writes.
 */
import { compoundFromTags, type BuiltCompound } from '../chem/compound.js';
import type { SdfRecord } from '../chem/sdf.js';
import { openInput, type ByteProgress } from '../../../core/ingest/inputs.js';
import { sdfRecords } from './sdf-stream.js';
import { BLOCK_RECORDS, packTexts } from '../store/sdf-blocks.js';

/**
 * A compound as the store writes it: its properties already as JSON when a reading thread built it,
 * and its SD text (then `sdf` is empty) in a compressed block it shares with the next ones.
 */
export type LoadedCompound = Omit<BuiltCompound, 'props' | 'keys'> & {
  props: BuiltCompound['props'] | string;
  keys: Uint8Array | null;
  /** The block (one object for all its records) and the record's place in it. */
  packed?: { block: Uint8Array; slot: number };
};

/** One record of a Compound SD file, read as far as it can be without RDKit. */
export type PreparedRecord =
  | { t: 'compound'; line: number; c: LoadedCompound }
  /** Lacks a value or its keys: the loader's thread completes it with RDKit. */
  | { t: 'rdkit'; line: number; cid: number; rec: SdfRecord }
  /** Not loaded; `molfile` false when the record is not a molfile at all (the loader's format check). */
  | { t: 'skip'; line: number; reason: string; molfile: boolean };

const positiveInt = (s: string | undefined): number | undefined => {
  if (s === undefined || !/^\d{1,12}$/.test(s.trim())) return undefined;
  const n = Number(s.trim());
  return n > 0 ? n : undefined;
};

/** Records of `path` in batches of `size`, with the compressed bytes read for each batch. */
export async function* preparedBatches(path: string, size: number, onBytes: (n: number) => void): AsyncGenerator<PreparedRecord[]> {
  const counter = { add: onBytes } as unknown as ByteProgress;
  let batch: PreparedRecord[] = [];
  for await (const item of sdfRecords(openInput(path, counter))) {
    batch.push(prepare(item.line, item.record));
    if (batch.length >= size) {
      yield pack(batch);
      batch = [];
    }
  }
  if (batch.length) yield pack(batch);
}

/** The SD texts of a batch's built compounds moved into blocks of consecutive records. */
function pack(batch: PreparedRecord[]): PreparedRecord[] {
  const built = batch.flatMap((p) => (p.t === 'compound' ? [p.c] : []));
  for (let i = 0; i < built.length; i += BLOCK_RECORDS) {
    const members = built.slice(i, i + BLOCK_RECORDS);
    const block = packTexts(members.map((c) => c.sdf));
    members.forEach((c, slot) => {
      c.packed = { block, slot };
      c.sdf = '';
    });
  }
  return batch;
}

function prepare(line: number, rec: SdfRecord | string): PreparedRecord {
  if (typeof rec === 'string') return { t: 'skip', line, reason: rec, molfile: false };
  const cid = positiveInt(rec.tags.get('PUBCHEM_COMPOUND_CID')) ?? positiveInt(rec.molblock.split('\n', 1)[0]);
  if (cid === undefined) return { t: 'skip', line, reason: 'no PUBCHEM_COMPOUND_CID tag and no CID on the first line', molfile: true };
  const built = compoundFromTags(cid, rec);
  if (!built) return { t: 'rdkit', line, cid, rec };
  // Serialised here, off the loader's thread; the store keeps this text.
  return { t: 'compound', line, c: { ...built, props: JSON.stringify(built.props) } };
}
