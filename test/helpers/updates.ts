/** Shared pieces of the update tests: an update stopped part-way, and files written for one test. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LoadOptions } from '../../src/core/ingest/load.js';
import { tempDir } from './stores.js';

/** Options that stop a load once its first batch (of `batchSize` records) is written. */
export function stopAfterFirstBatch(batchSize = 1): LoadOptions {
  const controller = new AbortController();
  return {
    batchSize,
    signal: controller.signal,
    progress: { update: () => controller.abort(), done: () => undefined },
  };
}

/** Writes files (relative path -> text or bytes) into a new folder; returns the folder. */
export function folderOf(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  for (const [rel, body] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
  }
  return dir;
}
