import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';

/**
 * Where files kept as loaded (structure entries, predicted models and their confidence files) live.
 * Keys are the SHA-256 of the bytes, so a document written in a load's generation can name its file
 * before the load switches: a failed load leaves at most unreferenced files behind, never a served
 * file changed. Writing the same bytes twice keeps one copy.
 */
export interface FileStore {
  readonly kind: 'folder' | 'database' | 's3';
  /** Keeps the bytes and returns their key. `tx` is the load's transaction, where one is open. */
  put(bytes: Buffer, tx?: Db): Promise<string>;
  get(key: string): Promise<Buffer | undefined>;
  /** For logs and status: where the files are. */
  describe(): string;
}

export function fileKey(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const KEY = /^[0-9a-f]{64}$/;

export function isFileKey(key: string): boolean {
  return KEY.test(key);
}

/** The files in the database's own table `bm_files`: what replicas on one PostgreSQL share. */
export class DatabaseFileStore implements FileStore {
  readonly kind = 'database';
  constructor(private readonly db: Db) {}

  async put(bytes: Buffer, tx?: Db): Promise<string> {
    const key = fileKey(bytes);
    await (tx ?? this.db).run('INSERT INTO bm_files (key, size, bytes) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING', [key, bytes.length, bytes]);
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    if (!isFileKey(key)) return undefined;
    const row = await this.db.one<{ bytes: Buffer | Uint8Array }>('SELECT bytes FROM bm_files WHERE key = ?', [key], { hot: true });
    if (!row) return undefined;
    return Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes);
  }

  describe(): string {
    return `database (${this.db.dialect})`;
  }
}

const attached = new WeakMap<Db, FileStore>();

/** Chooses the file store of a database handle (done where the store is opened). */
export function attachFileStore(db: Db, store: FileStore): void {
  attached.set(db, store);
}

/** The file store that goes with a database: the one attached, else the database's own table. */
export function fileStoreOf(db: Db): FileStore {
  let s = attached.get(db);
  if (!s) {
    s = new DatabaseFileStore(db);
    attached.set(db, s);
  }
  return s;
}
