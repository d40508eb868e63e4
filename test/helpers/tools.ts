/**
 * Programs some tests drive (Chromium, Biopython, xmllint, poppler). On a machine without one, its
 * tests are skipped, and say why in their names; in CI (`BIOMIRROR_REQUIRE_TOOLS=1`, set by
 * `.ci/run`, which installs them) a missing program is a failure instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SaxesParser } from 'saxes';

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

/**
 * Well-formedness of an XML document: xmllint's verdict where it is installed (CI has it), else
 * the saxes parser's (a strict XML 1.0 parser of its own); '' when well formed, else the complaint.
 */
export function wellFormedXml(xml: string | Buffer): string {
  if (haveProgram('xmllint')) {
    const r = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
    return r.status === 0 ? '' : r.stderr || `xmllint exited ${String(r.status)}`;
  }
  if (REQUIRED) throw new Error('BIOMIRROR_REQUIRE_TOOLS is set but xmllint is missing');
  const parser = new SaxesParser();
  let complaint = '';
  parser.on('error', (e) => {
    complaint ||= e.message;
  });
  try {
    parser.write(typeof xml === 'string' ? xml : xml.toString('utf8')).close();
  } catch (e) {
    complaint ||= (e as Error).message;
  }
  return complaint;
}

/** '' when /usr/bin/python3 imports Biopython; otherwise the reason to skip (or a throw in CI). */
export function missingBiopython(): string {
  if (spawnSync('/usr/bin/python3', ['-c', 'import Bio'], { stdio: 'ignore' }).status === 0) return '';
  if (REQUIRED) throw new Error('BIOMIRROR_REQUIRE_TOOLS is set but /usr/bin/python3 cannot import Biopython');
  return ' (skipped: needs Biopython for /usr/bin/python3)';
}

/**
 * '' when /usr/bin/python3 imports pubchempy (installed, or on PYTHONPATH); otherwise the reason to
 * skip. Skipped in CI too: Debian has no pubchempy package, so CI cannot install it.
 */
export function missingPubchempy(): string {
  if (spawnSync('/usr/bin/python3', ['-c', 'import pubchempy'], { stdio: 'ignore' }).status === 0) return '';
  return ' (skipped: needs pubchempy for /usr/bin/python3, e.g. its pubchempy.py on PYTHONPATH)';
}
