/**
 * Programs some tests drive (Chromium, Biopython, xmllint, poppler). On a machine without one, its
 * tests are skipped, and say why in their names; in CI (`BIOMIRROR_REQUIRE_TOOLS=1`, set by
 * `.ci/run`, which installs them) a missing program is a failure instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const REQUIRED = process.env.BIOMIRROR_REQUIRE_TOOLS === '1';

/** Whether a program is there: an absolute path that exists, or a name found on the PATH. */
export function haveProgram(program: string): boolean {
  if (program.startsWith('/')) return existsSync(program);
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** '' when the program is there; otherwise the reason to put in the skipped tests' names (or a throw in CI). */
export function missing(program: string, what = program): string {
  if (haveProgram(program)) return '';
  if (REQUIRED) throw new Error(`BIOMIRROR_REQUIRE_TOOLS is set but ${what} is missing`);
  return ` (skipped: needs ${what})`;
}
