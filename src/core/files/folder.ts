import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileKey, isFileKey, type FileStore } from './store.js';

/**
 * Files in a folder, two levels of fan-out by key (`ab/cd/abcd…`) so no directory grows past a few
 * thousand names at the size of the full archives. Written to a temporary name and renamed, so a
 * reader never sees half a file.
 */
export class FolderFileStore implements FileStore {
  readonly kind = 'folder';
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(bytes: Buffer): Promise<string> {
    const key = fileKey(bytes);
    const path = this.pathOf(key);
    const exists = await stat(path).then(
      (s) => s.size === bytes.length,
      () => false,
    );
    if (exists) return key;
    await mkdir(join(this.root, key.slice(0, 2), key.slice(2, 4)), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, path);
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    if (!isFileKey(key)) return undefined;
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  describe(): string {
    return `folder ${this.root}`;
  }
}
