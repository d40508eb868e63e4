// @ts-check
// A thread that turns one archive entry (its file's bytes) into the Data API's documents, so that
// loads parse on every core and a file that hangs or crashes the CIF reader costs one thread.
import { Buffer } from 'node:buffer';
import { URL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { gunzipSync, gzipSync } from 'node:zlib';

// The compiled documents module (the build runs before any load).
const { entryDocuments } = await import(new URL('../../../../dist/services/pdb/documents/index.js', import.meta.url).href);

if (!parentPort) throw new Error('a worker thread module');
const port = parentPort;
port.on('message', async (msg) => {
  try {
    const raw = Buffer.from(msg.bytes);
    const zipped = raw.length > 2 && raw[0] === 0x1f && raw[1] === 0x8b;
    const text = (zipped ? gunzipSync(raw) : raw).toString('utf8');
    const gz = zipped ? raw : gzipSync(raw, { level: 6 });
    const docs = await entryDocuments(text, msg.id, { structureFactors: msg.sf });
    // The documents travel as the JSON text they are stored as: serialised here, on this thread,
    // rather than copied as objects and serialised again by the loading thread.
    const json = { entry: JSON.stringify(docs.entry.doc), parts: docs.parts.map((p) => JSON.stringify(p.doc)) };
    const slim = { ...docs, entry: { ...docs.entry, doc: {} }, parts: docs.parts.map((p) => ({ kind: p.kind, key: p.key, doc: { rcsb_id: p.doc.rcsb_id } })) };
    port.postMessage({ seq: msg.seq, docs: slim, json, gz });
  } catch (err) {
    port.postMessage({ seq: msg.seq, error: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage({ ready: true });
