/**
 * The folders' dependency rules (docs/architecture.md): core knows no service and no server; a
 * service never reaches into the server, and into another service only through a folder the
 * services share or an interface another service declares for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/** Folders under src/services that several services share rather than own (NCBI's data layer). */
const SHARED = new Set(['ncbi']);
/**
 * Interfaces one service declares for another, imported for their types only: the AlphaFold DB's
 * 3D-Beacons summary lists experimental structures through a provider the PDB implements.
 */
const DECLARED: Record<string, readonly string[]> = { pdb: ['alphafold/beacons.ts'] };

interface Import {
  file: string;
  target: string;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** Every relative import and re-export of a file, resolved to a path below src/. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/gm;
  for (const m of text.matchAll(re)) {
    const spec = (m[3] ?? m[4]) as string;
    const target = relative(SRC, normalize(join(dirname(file), spec))).replace(/\.js$/, '.ts');
    out.push({ file: relative(SRC, file), target, typeOnly: m[2] !== undefined });
  }
  return out;
}

const ALL = sources(SRC).flatMap(importsOf);
const top = (p: string) => p.split('/')[0];
/** The service folder a path is in; undefined outside them (types.ts and registry.ts sit beside them). */
const serviceOf = (p: string) => (p.startsWith('services/') && p.split('/').length > 2 ? p.split('/')[1] : undefined);

describe('dependencies between folders', () => {
  it('reads the imports it checks (the scanner finds known ones)', () => {
    expect(ALL.some((i) => i.file.startsWith('services/eutils/') && i.target.startsWith('services/ncbi/'))).toBe(true);
    expect(ALL.some((i) => i.file === 'services/pdb/data/beacons.ts' && i.target === 'services/alphafold/beacons.ts' && i.typeOnly)).toBe(true);
    expect(ALL.length).toBeGreaterThan(1000);
  });

  it('keeps core free of services, the server, the CLI and MCP', () => {
    const wrong = ALL.filter((i) => top(i.file) === 'core' && ['services', 'server', 'cli', 'mcp'].includes(top(i.target) as string));
    expect(wrong).toEqual([]);
  });

  it('keeps services out of the server, the CLI and MCP', () => {
    const wrong = ALL.filter((i) => top(i.file) === 'services' && ['server', 'cli', 'mcp'].includes(top(i.target) as string));
    expect(wrong).toEqual([]);
  });

  it('lets a service reach another only through a shared folder or a declared interface, for its types', () => {
    const wrong = ALL.filter((i) => {
      const from = serviceOf(i.file);
      const to = serviceOf(i.target);
      if (!from || !to || from === to) return false;
      if (SHARED.has(to)) return false;
      return !(i.typeOnly && DECLARED[from]?.includes(i.target.slice('services/'.length)));
    });
    expect(wrong).toEqual([]);
  });
});

describe('the SQLite binding', () => {
  it('is loaded in one place, which picks the build that runs on this Node (src/core/store/sqlite-driver.ts)', () => {
    // A direct import of better-sqlite3 would load 13 on Node 20, where it crashes the process.
    const root = join(SRC, '..');
    const files = ['src', 'test', 'bench', 'synthetic', 'scripts'].flatMap((d) => sources(join(root, d)));
    const direct = /^\s*import\s+(?!type\b)[^'";]*from\s+'better-sqlite3(?:-node20)?'|require\(\s*'better-sqlite3(?:-node20)?'\s*\)|import\(\s*'better-sqlite3(?:-node20)?'\s*\)/m;
    const offenders = files.filter((f) => direct.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(files.length).toBeGreaterThan(300);
    expect(offenders).toEqual([]);
    // The one place chooses by the running Node's major version.
    expect(readFileSync(join(SRC, 'core/store/sqlite-driver.ts'), 'utf8')).toMatch(/process\.versions\.node/);
  });

  it('opens a database on this Node, and names what to do when its build is missing', async () => {
    const { default: Database, SQLITE_BINDING, loadBinding } = await import('../src/core/store/sqlite-driver.js');
    expect(SQLITE_BINDING).toBe(Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20');
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS n').get()).toEqual({ n: 2 });
    db.close();
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'better-sqlite3-node20'\nRequire stack: ..."), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadBinding('better-sqlite3-node20', missing)).toThrow(
      /\(better-sqlite3-node20\) cannot be loaded \(Cannot find module 'better-sqlite3-node20'\): .*npm rebuild better-sqlite3-node20.*Node 22 or later/,
    );
    expect(() => loadBinding('better-sqlite3', missing)).toThrow(/\(better-sqlite3\) cannot be loaded .*run `npm install`/);
  });
});
