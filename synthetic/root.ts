/**
 * The project's root folder, found the same way from these sources (tests run them as TypeScript)
 * and from their build in dist-bench/synthetic/: the nearest folder above with package.json.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no package.json above the synthetic data generators');
    dir = up;
  }
  return dir;
}

export const ROOT = findRoot();
