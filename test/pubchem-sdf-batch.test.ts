/**
 * A reading thread's batch as one message (ingest/sdf-batch.ts): what arrives in the loader's
 * thread, after the copy a message makes, is what the thread read, record for record, in order.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { preparedBatches, type PreparedRecord } from '../src/services/pubchem/ingest/sdf-prepare.js';
import { packBatch, transferables, unpackBatch } from '../src/services/pubchem/ingest/sdf-batch.js';
import { scanCompound } from '../src/services/pubchem/ingest/sdf-scan.js';
import { tempDir } from './helpers/stores.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz');

/**
 * 60 of the fixture's records: of PubChem's layout with every value (read as columns) but three that
 * lack values (completed with RDKit in the loader's thread), one with a broken key tag, one with CR
 * line ends (parsed whole), one not a molfile.
 */
function mixedFile(): string {
  const records = gunzipSync(readFileSync(FIXTURE))
    .toString('utf8')
    .split(/(?<=\n\$\$\$\$\n)/)
    .filter((r) => r.trim() !== '');
  const scans = (r: string) => scanCompound(r, 0, r.length) !== undefined;
  const picked = [...records.filter(scans).slice(0, 57), ...records.filter((r) => !scans(r)).slice(0, 3)];
  picked[3] = (picked[3] as string).replace(/(> <PUBCHEM_CACTVS_SUBSKEYS>\n)[^\n]*/, '$1not base64!');
  picked[7] = (picked[7] as string).replace(/\n/g, '\r\n');
  picked[11] = 'not a record\n$$$$\n';
  const file = join(tempDir(), 'Compound_mixed.sdf');
  writeFileSync(file, picked.join(''));
  return file;
}

/** Key and block bytes as plain arrays: a Buffer and a view of a column hold the same keys, and a moved block is gone from its sender. */
const plain = (batch: PreparedRecord[]) =>
  batch.map((p) => (p.t === 'compound' ? { ...p, c: { ...p.c, keys: p.c.keys && [...p.c.keys], packed: p.c.packed && { block: [...p.c.packed.block], slot: p.c.packed.slot } } } : p));

describe('reading threads’ batches', () => {
  it('arrive as read, in order, each kind of record, after a message’s copy', async () => {
    const batches: PreparedRecord[][] = [];
    for await (const b of preparedBatches(mixedFile(), 25, () => undefined)) batches.push(b);
    const all = batches.flat();
    expect(all).toHaveLength(60);
    const kinds = new Set(all.map((p) => (p.t === 'compound' && p.c.sdf === '' && p.c.props === '' ? 'columns' : p.t)));
    expect([...kinds].sort()).toEqual(['columns', 'compound', 'rdkit', 'skip']);
    const noted = all.find((p) => p.t === 'compound' && p.c.notes.length) as PreparedRecord & { t: 'compound' };
    expect(noted.c.keys).toBeNull();
    for (const batch of batches) {
      const expected = plain(batch);
      const blocksBefore = new Set(batch.flatMap((p) => (p.t === 'compound' && p.c.packed ? [p.c.packed.block] : []))).size;
      const packed = packBatch(batch);
      expect(packed.at.length + packed.rest.length).toBe(batch.length);
      // As the reading thread posts it: the columns and blocks moved, not copied.
      const back = unpackBatch(structuredClone(packed, { transfer: transferables(packed) }));
      expect(packed.keys.byteLength, 'moved').toBe(0);
      expect(plain(back)).toEqual(expected);
      // Records of one block still share it (the loader writes each block once).
      const blocks = back.flatMap((p) => (p.t === 'compound' && p.c.packed ? [p.c.packed.block] : []));
      expect(new Set(blocks).size).toBe(blocksBefore);
    }
  });
});
