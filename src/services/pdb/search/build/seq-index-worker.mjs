// @ts-check
// A thread that writes one sequence index folder (MMseqs2's databases and clusters): its chain of
// MMseqs2 runs goes on at its own pace, whatever the thread that asked for it is busy with.
import { URL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

// The compiled modules (the build runs before any load).
const dist = (path) => import(new URL(`../../../../../dist/${path}`, import.meta.url).href);
const { writeSequenceIndexHere } = await dist('services/pdb/search/build/seq-index.js');

if (!parentPort) throw new Error('a worker thread module');
try {
  await writeSequenceIndexHere(workerData.dir, workerData.list);
  parentPort.postMessage({ done: true });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
