// @ts-check
// A thread that turns one archive entry (its file's bytes) into the Data API's documents, so that
// loads parse on every core and a file that hangs or crashes the CIF reader costs one thread. A
// thread of core's worker pool (parse-pool.ts): it answers `{id, entry, bytes, sf}` with `{id, ...}`.
import { Buffer } from 'node:buffer';
import { URL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

// The compiled modules (the build runs before any load).
const dist = (path) => import(new URL(`../../../../dist/${path}`, import.meta.url).href);
const { documentsOf } = await dist('services/pdb/documents/index.js');
const { readBlock } = await dist('core/mmcif/block-reader.js');
const { inflate } = await dist('core/mmcif/parse.js');
const { encodeResidues, residuesOf } = await dist('core/mmcif/residues.js');
const { cifLimits } = await dist('core/mmcif/limits.js');

/**
 * The polymer residues the coordinate indexes are built from, read from the block already parsed
 * for the documents (the index build would otherwise read the file again). Undefined where the
 * index build's own reading would refuse the file (too large) or fail: that build then reads it
 * itself and reaches the same outcome.
 */
function residuesFrom(entry, raw, plain) {
  if (raw.byteLength > cifLimits.maxInputBytes || plain.byteLength > cifLimits.maxInflatedBytes) return undefined;
  try {
    return encodeResidues(residuesOf(entry.block));
  } catch {
    return undefined;
  }
}

if (!parentPort) throw new Error('a worker thread module');
const port = parentPort;
port.on('message', async (msg) => {
  try {
    const raw = Buffer.from(msg.bytes);
    const zipped = raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b;
    // Gzip inflates within core/mmcif's bounds; a plain file is read as it is (one past the input
    // bound still gives its documents, without residues).
    const plain = zipped ? inflate(raw) : raw;
    const gz = zipped ? raw : gzipSync(raw, { level: 6 });
    const entry = await readBlock(Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('utf8'));
    const docs = documentsOf(entry, msg.entry, { structureFactors: msg.sf });
    const residues = residuesFrom(entry, raw, plain);
    // The documents travel as the JSON text they are stored as: serialised here, on this thread,
    // rather than copied as objects and serialised again by the loading thread.
    const json = { entry: JSON.stringify(docs.entry.doc), parts: docs.parts.map((p) => JSON.stringify(p.doc)) };
    const slim = { ...docs, entry: { ...docs.entry, doc: {} }, parts: docs.parts.map((p) => ({ kind: p.kind, key: p.key, doc: { rcsb_id: p.doc.rcsb_id } })) };
    port.postMessage({ id: msg.id, docs: slim, json, gz, residues }, residues ? [residues.buffer] : []);
  } catch (err) {
    port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage({ ready: true });
