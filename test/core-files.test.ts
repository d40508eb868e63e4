import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderFileStore } from '../src/core/files/folder.js';
import { DatabaseFileStore, fileKey, fileStoreOf } from '../src/core/files/store.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

describe('folder file store', () => {
  it('keeps bytes under their SHA-256, once, readable by the owner only', async () => {
    const root = tempDir();
    const files = new FolderFileStore(root);
    const bytes = Buffer.from('data_4HHB\n#\n');
    const key = await files.put(bytes);
    expect(key).toBe(fileKey(bytes));
    expect(await files.put(bytes)).toBe(key);
    const path = join(root, key.slice(0, 2), key.slice(2, 4), key);
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o077).toBe(0);
    expect((await files.get(key))?.equals(bytes)).toBe(true);
  });

  it('answers nothing for an unknown or malformed key', async () => {
    const files = new FolderFileStore(tempDir());
    expect(await files.get('0'.repeat(64))).toBeUndefined();
    expect(await files.get('../../etc/passwd')).toBeUndefined();
  });
});

describe.each(STORES)('file store on $name', (target) => {
  let store: OpenedStore;
  beforeAll(async () => {
    store = await target.open();
  });
  afterAll(() => store.cleanup());

  it('is a folder beside SQLite and the database itself on PostgreSQL', () => {
    expect(fileStoreOf(store.db).kind).toBe(target.name === 'sqlite' ? 'folder' : 'database');
  });

  it('keeps binary bytes in the database table, inside a transaction too', async () => {
    const files = new DatabaseFileStore(store.db);
    const bytes = Buffer.from([0x1f, 0x8b, 0, 255, 10, 13]);
    const key = await store.db.transaction((tx) => files.put(bytes, tx));
    expect(await files.put(bytes)).toBe(key);
    expect((await files.get(key))?.equals(bytes)).toBe(true);
    expect(await files.get('f'.repeat(64))).toBeUndefined();
  });
});
