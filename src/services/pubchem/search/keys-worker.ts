/**
 * Writes a generation's key file in a thread of its own (keys-thread.ts), reading the structures
 * table through a connection of its own to the SQLite file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { tableSet } from '../../../core/ingest/dataset.js';
import { SqliteDb } from '../../../core/store/sqlite.js';
import { CompoundStore } from '../store/compounds.js';
import { writeGenerationKeys } from './keys.js';

const { file, prefix, gen, path } = workerData as { file: string; prefix: string; gen: number; path: string };
const port = parentPort;
if (!port) throw new Error('keys-worker runs as a worker thread');

const db = new SqliteDb(file);
try {
  port.postMessage({ written: await writeGenerationKeys(new CompoundStore(db, tableSet(prefix, gen)), path) });
} catch (err) {
  port.postMessage({ error: (err as Error).message });
} finally {
  await db.close();
}
