/**
 * The header records of a legacy `.pdb` written from the mmCIF, compared with the
 * real 4hhb.pdb record type by record type, and read by Biopython's parse_pdb_header.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCifPool } from '../src/core/mmcif/index.js';
import { fileHostRoutes } from '../src/services/pdb/files/routes.js';
import { fixture, memorySource } from './rcsb-files-fixtures.js';
import { missingBiopython } from './helpers/tools.js';

const noBiopython = missingBiopython();
const realPdb = gunzipSync(fixture('4hhb.pdb.gz')).toString('utf8');
const source = memorySource({ '4HHB': fixture('4hhb.cif.gz') }, {});

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(async (f) => fileHostRoutes(f, source), { prefix: '/rcsb/files' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await closeCifPool();
});

/** Lines of a record type, trailing blanks removed. */
const records = (text: string, type: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(type))
    .map((l) => l.trimEnd());

/** Per record type of the real file's header: how many of its lines ours has exactly. */
function agreement(ours: string, real: string) {
  const perType: Record<string, string> = {};
  let matched = 0;
  let total = 0;
  const realTypes = [
    ...new Set(
      real
        .split('\n')
        .map((l) => l.slice(0, 6).padEnd(6))
        .filter((t) => !/^(ATOM {2}|HETATM|TER {3}|END {3}|ANISOU|MODEL |ENDMDL)$/.test(t)),
    ),
  ];
  for (const type of realTypes) {
    const want = records(real, type);
    const have = new Set(records(ours, type));
    const hit = want.filter((l) => have.has(l)).length;
    perType[type.trim()] = `${hit}/${want.length}`;
    matched += hit;
    total += want.length;
  }
  return { perType, matched, total, percent: Math.round((1000 * matched) / total) / 10 };
}

describe('legacy .pdb header records', () => {
  it('writes COMPND, SOURCE, REVDAT, JRNL, REMARK 2, HELIX and LINK as the real 4hhb.pdb has them, in record order', async () => {
    const r = await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    const ours = r.body;
    for (const line of [
      'REVDAT   1   17-JUL-84 4HHB    0',
      'REMARK   2 RESOLUTION.    1.74 ANGSTROMS.',
      'JRNL        PMID   6726807',
      'JRNL        DOI    10.1016/0022-2836(84)90472-8',
      'JRNL        REF    J.MOL.BIOL.                   V. 175   159 1984',
      'JRNL        REFN                   ISSN 0022-2836',
    ]) {
      expect(records(ours, line.slice(0, 6))).toContain(line);
    }
    for (const type of ['COMPND', 'SOURCE', 'JRNL  ', 'HELIX ', 'LINK  ']) expect(records(ours, type), type).toEqual(records(realPdb, type));
    expect(records(ours, 'JRNL        AUTH')[0]).toBe(records(realPdb, 'JRNL        AUTH')[0]);
    // Order: HEADER .. AUTHOR, REVDAT, JRNL, REMARK, DBREF/SEQRES, CRYST1, atoms.
    const firstOf = (type: string) => ours.split('\n').findIndex((l) => l.startsWith(type));
    const order = ['HEADER', 'TITLE', 'COMPND', 'SOURCE', 'KEYWDS', 'AUTHOR', 'REVDAT', 'JRNL', 'REMARK', 'SEQRES', 'HELIX', 'LINK', 'CRYST1', 'ATOM'].map(firstOf);
    expect(order.every((v) => v >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Every line 80 columns.
    expect(ours.split('\n').filter((l) => l && l.length !== 80)).toEqual([]);
  });

  it('agrees with the real 4hhb.pdb record type by record type (figure reported)', async () => {
    const ours = (await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body;
    const a = agreement(ours, realPdb);
    console.log(`legacy header agreement with the real 4hhb.pdb: ${a.matched}/${a.total} lines (${a.percent}%)`, a.perType);
    for (const type of ['HEADER', 'COMPND', 'SOURCE', 'REVDAT', 'JRNL', 'REMARK', 'HELIX', 'LINK', 'CRYST1', 'SCALE1', 'ORIGX1']) expect(a.perType[type], type).not.toMatch(/^0\//);
    // Before these records were written: 71 of 1,064 non-coordinate lines (6.7%); with COMPND, SOURCE, REVDAT, JRNL, REMARK 1/2, HELIX and LINK: 170 (16.0%).
    // Most of the rest is REMARK 3-900 (708 lines) and CONECT (180), which the mmCIF alone does not give line for line.
    expect(a.matched).toBeGreaterThanOrEqual(170);
  });

  it(`lets Biopython's parse_pdb_header read resolution 1.74 and the release date${noBiopython}`, { skip: Boolean(noBiopython) }, async () => {
    const ours = (await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body;
    const script = [
      'import io, sys, json',
      'from Bio.PDB import parse_pdb_header',
      'h = parse_pdb_header(io.StringIO(sys.stdin.read()))',
      'print(json.dumps([h["resolution"], h["release_date"], h["deposition_date"]]))',
    ].join('\n');
    const run = promisify(execFile)('/usr/bin/python3', ['-c', script], { encoding: 'utf8', timeout: 20_000 });
    run.child.stdin?.end(ours);
    const r = await run;
    expect(JSON.parse(r.stdout)).toEqual([1.74, '1984-07-17', '1984-03-07']);
  });
});
