/** The platform's input readers: what every service's load streams its files through. */
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openInput, peek } from '../src/core/ingest/inputs.js';
import { tempDir } from './helpers/stores.js';

const FD_DIR = '/proc/self/fd';
const noProc = existsSync(FD_DIR) ? '' : ' (skipped: needs /proc to count open files)';

/** Descriptors of this process open on `path`. */
function openOn(path: string): number {
  let n = 0;
  for (const fd of readdirSync(FD_DIR)) {
    try {
      if (readlinkSync(join(FD_DIR, fd)) === path) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

const settle = () => new Promise((res) => setTimeout(res, 50));

describe('input files', () => {
  it(`close the file under a gzip stream that is stopped early, as a peek stops${noProc}`, { skip: Boolean(noProc) }, async () => {
    const dir = tempDir();
    const path = join(dir, 'big.json.gz');
    writeFileSync(path, gzipSync(Buffer.from(`[${'1,'.repeat(2_000_000)}1]`)));
    for (let i = 0; i < 20; i++) expect(await peek(path, 64)).toMatch(/^\[1,1,/);
    await settle();
    expect(openOn(path)).toBe(0);

    const stream = openInput(path);
    for await (const chunk of stream) {
      expect((chunk as Buffer).length).toBeGreaterThan(0);
      break; // leaving the loop destroys the stream
    }
    await settle();
    expect(openOn(path)).toBe(0);
  });

  it('reads plain and gzipped files alike', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'hello');
    writeFileSync(join(dir, 'a.txt.gz'), gzipSync('hello'));
    expect(await peek(join(dir, 'a.txt'))).toBe('hello');
    expect(await peek(join(dir, 'a.txt.gz'))).toBe('hello');
  });
});
