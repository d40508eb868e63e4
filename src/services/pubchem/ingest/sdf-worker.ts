/**
 * A reading thread of a compound load: reads one SD file (sdf-prepare.ts) and posts its records in
 * batches, at most a few ahead of the loader, so that memory holds a bounded part of the file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { preparedBatches } from './sdf-prepare.js';
import { packBatch, transferables } from './sdf-batch.js';

const { path, batch, ahead } = workerData as { path: string; batch: number; ahead: number };
const port = parentPort;
if (!port) throw new Error('sdf-worker runs as a worker thread');

let credit = ahead;
let wake: (() => void) | undefined;
port.on('message', (m) => {
  if (m !== 'taken') return;
  credit++;
  wake?.();
});

let bytes = 0;
try {
  for await (const items of preparedBatches(path, batch, (n) => (bytes += n))) {
    while (credit <= 0) await new Promise<void>((r) => (wake = r));
    wake = undefined;
    credit--;
    const packed = packBatch(items);
    port.postMessage({ items: packed, bytes }, transferables(packed));
    bytes = 0;
  }
  port.postMessage({ done: true, bytes });
} catch (err) {
  port.postMessage({ error: (err as Error).message, bytes });
}
