/**
 * A reading thread's batch as one message (sdf-worker.ts → sdf-threads.ts). Records of PubChem's
 * own files, read without parsing (sdf-scan.ts), travel as columns: typed arrays and compressed SD
 * blocks, moved rather than copied, and their strings joined. Posted as objects of 17 fields, each
 * copied, a profile put the message at 4.6 µs a record in each reading thread; as columns a
 * million-record load used 81.3 s of CPU against 84.4 (three runs each, alternating). Any other
 * record travels as it is.
 */
import { KEY_BYTES } from '../chem/subskeys-codec.js';
import type { LoadedCompound, PreparedRecord } from './sdf-prepare.js';

export interface PackedBatch {
  /** Records in the batch. */
  n: number;
  /** The column records' places in the batch, ascending. */
  at: Uint16Array;
  line: Float64Array;
  cid: Float64Array;
  /** NaN where the value is null. */
  mw: Float64Array;
  exact: Float64Array;
  mono: Float64Array;
  /** -1 where there are no keys. */
  bits: Int16Array;
  /** KEY_BYTES a record; zeros where there are none. */
  keys: Uint8Array;
  /** InChIKey, formula and SMILES of each record, in that order, joined by line breaks (none holds one: each is a tag's one line). */
  text: string;
  /** Each record's block (an index into `blocks`) and its place in it. */
  block: Uint16Array;
  slot: Uint8Array;
  blocks: Uint8Array[];
  /** Notes of the column records that have any, by their place in the batch. */
  notes: [number, string[]][];
  /** The other records with their places in the batch. */
  rest: [number, PreparedRecord][];
}

/** Whether a record can travel as columns: read as it stands (nothing computed, no property JSON) into a block. */
function columnar(p: PreparedRecord): p is { t: 'compound'; line: number; c: LoadedCompound & { packed: { block: Uint8Array; slot: number } } } {
  if (p.t !== 'compound') return false;
  const c = p.c;
  if (c.props !== '' || c.computed.length !== 0 || c.record !== '' || c.sdf !== '' || c.packed === undefined) return false;
  return c.keys === null ? c.bits === null : c.keys.length === KEY_BYTES && c.bits !== null && c.bits >= 0;
}

export function packBatch(items: readonly PreparedRecord[]): PackedBatch {
  // Places are 16-bit: a thread's batches are of 500 (sdf-threads.ts).
  if (items.length > 0xffff) throw new RangeError(`a batch of ${items.length} records; at most 65,535 travel together`);
  const at: number[] = [];
  const rest: [number, PreparedRecord][] = [];
  items.forEach((p, i) => (columnar(p) ? at.push(i) : rest.push([i, p])));
  const m = at.length;
  const b: PackedBatch = {
    n: items.length,
    at: Uint16Array.from(at),
    line: new Float64Array(m),
    cid: new Float64Array(m),
    mw: new Float64Array(m),
    exact: new Float64Array(m),
    mono: new Float64Array(m),
    bits: new Int16Array(m),
    keys: new Uint8Array(m * KEY_BYTES),
    text: '',
    block: new Uint16Array(m),
    slot: new Uint8Array(m),
    blocks: [],
    notes: [],
    rest,
  };
  const texts: string[] = [];
  const blockIds = new Map<Uint8Array, number>();
  const orNaN = (v: number | null) => (v === null ? NaN : v);
  at.forEach((i, j) => {
    const p = items[i] as PreparedRecord & { t: 'compound' };
    const c = p.c;
    b.line[j] = p.line;
    b.cid[j] = c.cid;
    b.mw[j] = orNaN(c.mw);
    b.exact[j] = orNaN(c.exactMass);
    b.mono[j] = orNaN(c.monoisotopicMass);
    b.bits[j] = c.bits ?? -1;
    if (c.keys) b.keys.set(c.keys, j * KEY_BYTES);
    texts.push(c.inchikey, c.formula, c.smiles);
    const packed = c.packed as { block: Uint8Array; slot: number };
    let id = blockIds.get(packed.block);
    if (id === undefined) {
      id = b.blocks.length;
      blockIds.set(packed.block, id);
      // Moved, not copied, with the message: a block must hold its memory alone.
      const own = packed.block.byteOffset === 0 && packed.block.byteLength === packed.block.buffer.byteLength;
      b.blocks.push(own ? packed.block : packed.block.slice());
    }
    b.block[j] = id;
    b.slot[j] = packed.slot;
    if (c.notes.length) b.notes.push([i, c.notes]);
  });
  b.text = texts.join('\n');
  return b;
}

/**
 * The memory a batch's message moves instead of copying (its columns and blocks): copied, 32 blocks
 * of about 20 KB cost more than the rest of a batch. The batch is unusable to the sender afterwards.
 */
export function transferables(b: PackedBatch): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [b.at, b.line, b.cid, b.mw, b.exact, b.mono, b.bits, b.keys, b.block, b.slot, ...b.blocks];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

export function unpackBatch(b: PackedBatch): PreparedRecord[] {
  const out = new Array<PreparedRecord>(b.n);
  for (const [i, p] of b.rest) out[i] = p;
  const notes = new Map(b.notes);
  const texts = b.text.split('\n');
  const orNull = (v: number) => (Number.isNaN(v) ? null : v);
  for (let j = 0; j < b.at.length; j++) {
    const i = b.at[j] as number;
    const bits = b.bits[j] as number;
    out[i] = {
      t: 'compound',
      line: b.line[j] as number,
      c: {
        cid: b.cid[j] as number,
        inchikey: texts[3 * j] as string,
        formula: texts[3 * j + 1] as string,
        smiles: texts[3 * j + 2] as string,
        mw: orNull(b.mw[j] as number),
        exactMass: orNull(b.exact[j] as number),
        monoisotopicMass: orNull(b.mono[j] as number),
        keys: bits < 0 ? null : b.keys.subarray(j * KEY_BYTES, (j + 1) * KEY_BYTES),
        bits: bits < 0 ? null : bits,
        notes: notes.get(i) ?? [],
        props: '',
        computed: [],
        record: '',
        sdf: '',
        packed: { block: b.blocks[b.block[j] as number] as Uint8Array, slot: b.slot[j] as number },
      },
    };
  }
  return out;
}
