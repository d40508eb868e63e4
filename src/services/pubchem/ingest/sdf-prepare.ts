/**
 * The part of reading a Compound SD file that needs no RDKit: cutting records, reading their
 * tags, and building those that carry every value PubChem computes (its own files). It runs in a
 * reading thread during a load (sdf-threads.ts), so that the loader's thread only writes.
 */
import { compoundFromTags, type BuiltCompound } from '../chem/compound.js';
import type { SdfRecord } from '../chem/sdf.js';
import { openInput, type ByteProgress } from '../../../core/ingest/inputs.js';
import { sdfChunks, spanRecord } from './sdf-stream.js';
import { scanCompound } from './sdf-scan.js';
import { positiveInt } from './fields.js';
import { BLOCK_RECORDS, packTexts } from '../store/sdf-blocks.js';

/**
 * A compound as the store writes it: its properties as JSON when a reading thread built them, or ''
 * for a record of PubChem's files (read from its SD text when asked), and its SD text (then `sdf` is
 * empty) in a compressed block it shares with the next ones.
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

/** Records of `path` in batches of `size`, with the compressed bytes read for each batch. */
export async function* preparedBatches(path: string, size: number, onBytes: (n: number) => void): AsyncGenerator<PreparedRecord[]> {
  const counter = { add: onBytes } as unknown as ByteProgress;
  let batch: PreparedRecord[] = [];
  // The SD bytes of records kept as read, beside their records until packed (never posted).
  let raw: (Uint8Array | undefined)[] = [];
  for await (const chunk of sdfChunks(openInput(path, counter))) {
    for (const span of chunk.spans) {
      const columns = span.oversized ? undefined : scanCompound(chunk.latin1, span.start, span.end);
      if (columns) {
        batch.push({ t: 'compound', line: span.line, c: { ...columns, props: '', computed: [], record: '', sdf: '' } });
        raw.push(chunk.bytes.subarray(span.start, span.end));
      } else {
        // Any other record is parsed whole.
        batch.push(prepare(span.line, spanRecord(chunk, span).record));
        raw.push(undefined);
      }
      if (batch.length >= size) {
        yield pack(batch, raw);
        batch = [];
        raw = [];
      }
    }
  }
  if (batch.length) yield pack(batch, raw);
}

/** The SD texts of a batch's built compounds moved into blocks of consecutive records. */
function pack(batch: PreparedRecord[], raw: readonly (Uint8Array | undefined)[]): PreparedRecord[] {
  const built: { c: LoadedCompound; text: string | Uint8Array }[] = [];
  batch.forEach((p, i) => {
    if (p.t === 'compound') built.push({ c: p.c, text: raw[i] ?? p.c.sdf });
  });
  for (let i = 0; i < built.length; i += BLOCK_RECORDS) {
    const members = built.slice(i, i + BLOCK_RECORDS);
    const block = packTexts(members.map((m) => m.text));
    members.forEach(({ c }, slot) => {
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
