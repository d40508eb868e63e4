/**
 * A conversion thread of the pool (pool.ts): runs one task at a time and answers with the bytes or
 * the error's name and message. Mol* runs here so that a hang, a runaway allocation or a crash ends
 * this thread, which the pool replaces, and never the server.
 */
import { parentPort } from 'node:worker_threads';
import { runCifTaskHere, type CifTaskKind, type CifTaskOptions } from './tasks.js';

interface TaskMessage {
  id: number;
  kind: CifTaskKind;
  bytes: Uint8Array;
  options?: CifTaskOptions;
}

const KNOWN = new Set(['CifFormatError', 'LegacyFormatUnavailable', 'AssemblyNotFound']);

const port = parentPort;
if (port) {
  port.on('message', (m: TaskMessage) => {
    runCifTaskHere(m.kind, m.bytes, m.options).then(
      (out) => {
        // Transfer only a buffer the result owns whole (not a slice of a shared pool).
        const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
        port.postMessage({ id: m.id, bytes: own }, [own.buffer as ArrayBuffer]);
      },
      (e: unknown) => {
        const err = e instanceof Error ? e : new Error(String(e));
        // Anything Mol* throws on odd content counts as input it could not convert.
        const name = KNOWN.has(err.name) ? err.name : 'CifFormatError';
        const message = KNOWN.has(err.name) ? err.message : `the file could not be converted: ${err.message}`;
        port.postMessage({ id: m.id, error: { name, message } });
      },
    );
  });
  port.postMessage({ ready: true });
}
