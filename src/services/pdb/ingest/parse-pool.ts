import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EntryDocuments } from '../documents/index.js';
import { sourceUrl } from '../../../core/files/project.js';

// Plain JavaScript in the source tree; from the build this path leads back to it.
const WORKER = sourceUrl('services/pdb/ingest/parse-worker.mjs');

export interface Parsed {
  /** The documents; their bodies are in `json` (the part documents keep only their rcsb_id). */
  docs: EntryDocuments;
  json: { entry: string; parts: string[] };
  /** The file as kept: its bytes when they were gzip, else gzipped here. */
  gz: Buffer;
  /** The encoded polymer residues (core/mmcif/residues.ts), where the thread could read them. */
  residues: Uint8Array | undefined;
}

interface Task {
  seq: number;
  id: string;
  bytes: Buffer;
  sf: boolean;
  resolve(p: Parsed): void;
  reject(e: Error): void;
}

class Slot {
  worker: Worker | undefined;
  task: Task | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** Threads for a load, by default one per core (at most four); `BIOMIRROR_PDB_PARSE_THREADS` sets it. */
export function parseThreads(): number {
  const set = Number(process.env.BIOMIRROR_PDB_PARSE_THREADS);
  if (Number.isInteger(set) && set >= 1) return Math.min(set, 16);
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Parsing threads of one load. A file that takes longer than `timeoutMs` ends its thread (the only
 * way to stop it) and is reported; the next file gets a fresh thread.
 */
export class ParsePool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private seq = 0;

  constructor(
    size: number,
    private readonly timeoutMs: number,
  ) {
    this.slots = Array.from({ length: size }, () => new Slot());
  }

  parse(id: string, bytes: Buffer, sf: boolean): Promise<Parsed> {
    return new Promise((resolve, reject) => {
      this.queue.push({ seq: ++this.seq, id, bytes, sf, resolve, reject });
      this.pump();
    });
  }

  private spawn(slot: Slot): Worker {
    const w = new Worker(WORKER);
    w.on('message', (m: { ready?: boolean; seq?: number; docs?: EntryDocuments; json?: Parsed['json']; gz?: Uint8Array; residues?: Uint8Array; error?: string }) => {
      if (m.ready) return;
      const t = slot.task;
      if (!t || t.seq !== m.seq) return;
      this.done(slot);
      if (m.error !== undefined || !m.docs || !m.gz || !m.json) t.reject(new Error(m.error ?? 'no documents'));
      else t.resolve({ docs: m.docs, json: m.json, gz: Buffer.from(m.gz.buffer, m.gz.byteOffset, m.gz.byteLength), residues: m.residues });
    });
    w.on('error', (err) => this.lost(slot, w, err));
    w.on('exit', () => this.lost(slot, w, new Error('the parsing thread stopped')));
    slot.worker = w;
    return w;
  }

  private lost(slot: Slot, w: Worker, err: Error): void {
    if (slot.worker !== w) return;
    slot.worker = undefined;
    const t = slot.task;
    this.done(slot);
    t?.reject(err);
  }

  private done(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.task || this.queue.length === 0) continue;
      const task = this.queue.shift() as Task;
      const w = slot.worker ?? this.spawn(slot);
      slot.task = task;
      slot.timer = setTimeout(() => {
        // Past its time: the thread is ended with the file, and the file reported.
        slot.worker = undefined;
        this.done(slot);
        void w.terminate();
        task.reject(new Error(`parsing took longer than ${this.timeoutMs / 1000} s`));
      }, this.timeoutMs);
      w.postMessage({ seq: task.seq, id: task.id, bytes: task.bytes, sf: task.sf });
    }
  }

  async close(): Promise<void> {
    for (const t of this.queue.splice(0)) t.reject(new Error('the load ended'));
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
    for (const s of this.slots) {
      if (s.timer) clearTimeout(s.timer);
      s.worker = undefined;
    }
  }
}
