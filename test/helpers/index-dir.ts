/**
 * One folder of engine indexes for a whole test run: indexes are named by what they are built
 * from, so the test files that load the same data (the demo, on SQLite and PostgreSQL) build it
 * once. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'biomirror-test-index-'));
  process.env.BIOMIRROR_INDEX_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
