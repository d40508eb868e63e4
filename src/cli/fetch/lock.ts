/**
 * One fetch of a dataset at a time: two would write the same partial files. The lock is a file
 * holding the fetching process's id; one left by a process that is gone is taken over.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FetchError } from './errors.js';
import { processAlive } from '../../core/process.js';

export async function lockDataset(dir: string, what: string): Promise<() => Promise<void>> {
  const path = join(dir, '.fetch.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      // Load folders of processes that were killed.
      for (const name of await readdir(dir)) {
        const pid = /^\.load-(\d+)$/.exec(name)?.[1];
        if (pid && Number(pid) !== process.pid && !processAlive(Number(pid))) await rm(join(dir, name), { recursive: true, force: true });
      }
      return () => rm(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(await readFile(path, 'utf8').catch(() => ''));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
        throw new FetchError(`another fetch of ${what} is running (process ${holder}); wait for it to finish`);
      }
      await rm(path, { force: true });
    }
  }
  throw new FetchError(`cannot lock ${path}`);
}
