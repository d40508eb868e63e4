/**
 * The RDKit work of serving requests, in structure threads (structure-worker.ts): InChIKeys,
 * records and substructure keys of structures given in requests, depictions and the engine's version. Every call has a
 * time budget, counted from when a thread takes it; a thread that passes it, or whose RDKit
 * faulted, is ended and replaced, and only that call fails. The main thread serves requests with no RDKit of its own (loads keep theirs).
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { pcErrors } from '../errors.js';
import { MatchPool, type ThreadState, type WorkerReply } from '../../../core/chem/match-pool.js';
import { SearchTimeout } from '../../../core/chem/deadline.js';
import { MAX_STRUCTURE_CHARS, type StructureKind } from './query.js';
import { MAX_INPUT_CHARS } from './rdkit.js';
import { builtPath } from '../../../core/files/project.js';

export type StructureTask =
  | { op: 'inchikey'; kind: StructureKind | 'inchi'; text: string }
  | { op: 'record'; kind: StructureKind; text: string; image?: { width: number; height: number } }
  | { op: 'depict'; molfile: string; width: number; height: number }
  | { op: 'subskeys'; kind: StructureKind; text: string }
  | { op: 'version' };

export interface StructureReply extends WorkerReply {
  key?: string;
  record?: Record<string, unknown>;
  sdf?: string;
  png?: Uint8Array;
  version?: string;
  /** PubChem's 881 substructure keys of the structure (111 bytes). */
  keys?: Uint8Array;
  /** Why the keys of a readable structure cannot be computed. */
  unavailable?: string;
}

/** The substructure keys of a request's structure, or why there are none. */
export type KeysReply = { keys: Uint8Array } | { invalid: true } | { unavailable: string };

/** Structure threads replaced in this process (after a fault, past a budget) and renewed, for `/health`. */
export const structureState: ThreadState = { replacements: 0, renewals: 0 };

/**
 * The thread's script is the compiled structure-worker.js beside this module; from the TypeScript
 * sources (tests) the build's copy is used, so run `npm run build` first.
 */
function workerUrl(): URL {
  const path = builtPath('services/pubchem/chem/structure-worker.js');
  if (!existsSync(path)) throw new Error(`structure worker missing at ${path}: run npm run build`);
  return pathToFileURL(path);
}

/** Longest a call waits for a thread (PubChem ends a request after 30 s). */
const QUEUE_MS = 30_000;

export interface StructureOptions {
  threads: number;
  /** Longest one call may run, milliseconds (thread start-up not counted). */
  callMs: number;
}

export class Structures {
  private pool: MatchPool | undefined;
  private version: Promise<string> | undefined;

  constructor(readonly opts: StructureOptions) {}

  private async run(task: StructureTask): Promise<StructureReply> {
    this.pool ??= new MatchPool(this.opts.threads, workerUrl(), structureState);
    try {
      // The budget counts from when a thread takes the call: one behind a slow call is not charged
      // for the wait, which may last as long as PubChem lets a request run.
      return await this.pool.run<StructureReply>(task, Date.now() + QUEUE_MS + this.opts.callMs, [], this.opts.callMs);
    } catch (err) {
      if (err instanceof SearchTimeout) throw pcErrors.timeout(`reading the structure took longer than its time budget of ${this.opts.callMs / 1000} s`);
      throw err;
    }
  }

  /** The standard InChIKey of a request's structure, or undefined when it cannot be read. */
  async inchikey(kind: StructureKind | 'inchi', text: string): Promise<string | undefined> {
    // Bounded here too, so an oversized text is never copied to a thread.
    if (text.length > MAX_STRUCTURE_CHARS) return undefined;
    return (await this.run({ op: 'inchikey', kind, text })).key;
  }

  /** The record (and SD text) of a request's structure, or undefined when it cannot be read. */
  async record(kind: StructureKind, text: string): Promise<{ record: Record<string, unknown>; sdf: string } | undefined> {
    if (text.length > MAX_STRUCTURE_CHARS) return undefined;
    const r = await this.run({ op: 'record', kind, text });
    return r.record && r.sdf !== undefined ? { record: r.record, sdf: r.sdf } : undefined;
  }

  /** PubChem's substructure keys of a request's structure: computed, unreadable, or not computable. */
  async subskeys(kind: StructureKind, text: string): Promise<KeysReply> {
    if (text.length > MAX_STRUCTURE_CHARS) return { invalid: true };
    const r = await this.run({ op: 'subskeys', kind, text });
    if (r.keys) return { keys: r.keys };
    if (r.unavailable !== undefined) return { unavailable: r.unavailable };
    return { invalid: true };
  }

  /** The PNG of a request's structure, or undefined when it cannot be read. */
  async image(kind: StructureKind, text: string, size: { width: number; height: number }): Promise<Buffer | undefined> {
    if (text.length > MAX_STRUCTURE_CHARS) return undefined;
    return png(await this.run({ op: 'record', kind, text, image: size }));
  }

  /** The PNG of a stored molfile's heavy atoms and how many there are, or undefined when RDKit cannot read it. */
  async depict(molfile: string, size: { width: number; height: number }): Promise<{ png: Buffer; atoms: number } | undefined> {
    if (molfile.length > MAX_INPUT_CHARS) return undefined;
    const r = await this.run({ op: 'depict', molfile, ...size });
    const image = png(r);
    return image ? { png: image, atoms: r.atoms ?? 0 } : undefined;
  }

  /** RDKit's version, asked of a thread once. */
  rdkitVersion(): Promise<string> {
    this.version ??= this.run({ op: 'version' }).then((r) => r.version ?? '');
    this.version.catch(() => (this.version = undefined));
    return this.version;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

const png = (r: StructureReply): Buffer | undefined => (r.png ? Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength) : undefined);
