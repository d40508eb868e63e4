/** An ingest thread (ingest-pool.ts): makes the record of one entry's files at a time. */
import { parentPort } from 'node:worker_threads';
import { modelRecord, type Pending } from './entry.js';

interface Task {
  id: number;
  entryId: string;
  version: number;
  files: { model?: Uint8Array; confidence?: Uint8Array; pae?: Uint8Array };
}

const buf = (u: Uint8Array | undefined) => (u ? Buffer.from(u.buffer, u.byteOffset, u.byteLength) : undefined);
const port = parentPort;
if (port) {
  port.on('message', (t: Task) => {
    const p: Pending = {};
    const place = { file: '', position: 0 };
    for (const k of ['model', 'confidence', 'pae'] as const) {
      const b = buf(t.files[k]);
      if (b) p[k] = { bytes: b, place };
    }
    modelRecord(t.entryId, t.version, p).then(
      (record) => port.postMessage({ id: t.id, record }),
      (e: unknown) => port.postMessage({ id: t.id, error: e instanceof Error ? e.message : String(e) }),
    );
  });
  // Loaded: the pool counts an entry's budget from here.
  port.postMessage({ ready: true });
}
