/**
 * A finished load's key file written while the loader's thread builds the generation's indexes:
 * both read the whole generation, and one after the other they left a core idle (a million
 * compounds: indexes 3.2 s, key file 2.5 s). On SQLite, whose connections block their thread, the
 * key file is written by a thread with a connection of its own; on PostgreSQL by another connection
 * of the pool.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Db } from '../../../core/store/db.js';
import { SqliteDb } from '../../../core/store/sqlite.js';
import { builtPath } from '../../../core/files/project.js';
import type { CompoundStore } from '../store/compounds.js';
import { writeGenerationKeys } from './keys.js';

export interface KeysAlongside {
  /** Settles when the key file is written (or its writing failed). */
  done: Promise<void>;
  /** Stops the writing (the load failed before it was awaited). */
  stop(): Promise<void>;
}

export function writeKeysAlongside(db: Db, prefix: string, t: TableSet, store: CompoundStore, path: string): KeysAlongside {
  const script = builtPath('services/pubchem/search/keys-worker.js');
  if (!(db instanceof SqliteDb) || db.file === ':memory:' || !existsSync(script)) {
    // PostgreSQL, or no build (sources run directly): in this thread, between the index statements.
    const done = writeGenerationKeys(store, path).then(
      () => undefined,
      (err: Error) => Promise.reject(new Error(`writing the key file: ${err.message}`)),
    );
    done.catch(() => undefined);
    return { done, stop: async () => undefined };
  }
  const worker = new Worker(script, { workerData: { file: db.file, prefix, gen: t.gen, path } });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('message', (m: { error?: string }) => (m.error === undefined ? resolve() : reject(new Error(`writing the key file: ${m.error}`))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread writing the key file stopped (exit code ${code})`)));
  });
  const settled = done.finally(() => void worker.unref());
  // Stopped after a failed index, nobody awaits it: its rejection must not count as unhandled.
  settled.catch(() => undefined);
  return { done: settled, stop: async () => void (await worker.terminate()) };
}
