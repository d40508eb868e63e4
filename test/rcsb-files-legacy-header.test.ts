/**
 * The header records of a legacy `.pdb` written from the mmCIF, compared with the
 * real 4hhb.pdb record type by record type, and read by Biopython's parse_pdb_header; those of
 * two X-ray entries with full headers (2XHE, 1A8O) compared with their archive files likewise.
 * Records 4HHB lacks (SEQADV, an NCS operator to generate, SHEET, CISPEP) and REMARK 290 for a space
 * group or cell that cannot be used are checked on altered copies of its mmCIF.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCifPool, parseCif, toLegacyPdb } from '../src/core/mmcif/index.js';
import { firstBlock } from '../src/core/mmcif/parse.js';
import { mergeHeader } from '../src/services/pdb/files/legacy-header.js';
import { fileHostRoutes } from '../src/services/pdb/files/routes.js';
import { dictionaryBonds, fixture, gz, memorySource } from './rcsb-files-fixtures.js';
import { missingBiopython } from './helpers/tools.js';
import type { TestApp } from './helpers/app.js';
import { withDemoPdb } from './helpers/pdb.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { tableSet } from '../src/core/ingest/dataset.js';
import { ident } from '../src/core/store/db.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbFiles } from '../src/services/pdb/files/index.js';
import { CCD_PREFIX, ccdBonds } from '../src/services/pdb/store/tables.js';

const noBiopython = missingBiopython();
const realPdb = gunzipSync(fixture('4hhb.pdb.gz')).toString('utf8');
const source = memorySource({ '4HHB': fixture('4hhb.cif.gz') }, {});
/** Paths of a file host that has the demo's chemical component dictionary (HEM's bonds among them). */
const CCD = '/with-dictionary';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(async (f) => fileHostRoutes(f, source), { prefix: '/rcsb/files' });
  const withDictionary = memorySource({ '4HHB': fixture('4hhb.cif.gz') }, {}, await dictionaryBonds(join(import.meta.dirname, '..', 'src', 'services', 'pdb', 'demo', 'components.cif.gz')));
  await app.register(async (f) => fileHostRoutes(f, withDictionary), { prefix: `${CCD}/rcsb/files` });
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

/** A category as an mmCIF loop, appended to an altered copy of the 4HHB mmCIF. */
const loop = (category: string, fields: readonly string[], rows: readonly string[]) => ['loop_', ...fields.map((f) => `_${category}.${f}`), ...rows, '#', ''].join('\n');

const cif4hhb = () => gunzipSync(fixture('4hhb.cif.gz')).toString('utf8');

/** Our legacy text of an mmCIF text, header merged. */
async function legacyOf(cif: string): Promise<string> {
  const file = await parseCif(cif);
  return mergeHeader(toLegacyPdb(file), firstBlock(file));
}

/** 4HHB's mmCIF with a made-up three-strand sheet (registered), a two-strand one (no hydrogen bonds listed) and two cis peptides: not a real entry. */
function withSheetsAndCisPeptides(): string {
  const residue = ['comp_id', 'asym_id', 'seq_id'];
  const range = [
    'sheet_id',
    'id',
    ...residue.map((f) => `beg_label_${f}`),
    'pdbx_beg_PDB_ins_code',
    ...residue.map((f) => `end_label_${f}`),
    'pdbx_end_PDB_ins_code',
    ...residue.map((f) => `beg_auth_${f}`),
    ...residue.map((f) => `end_auth_${f}`),
  ];
  const partner = (n: number) => [...['atom_id', ...residue].map((f) => `range_${n}_label_${f}`), `range_${n}_PDB_ins_code`, ...['atom_id', ...residue].map((f) => `range_${n}_auth_${f}`)];
  const cis = ['pdbx_id', 'label_comp_id', 'label_seq_id', 'label_asym_id', 'label_alt_id', 'pdbx_PDB_ins_code', 'auth_comp_id', 'auth_seq_id', 'auth_asym_id'];
  const cis2 = ['pdbx_label_comp_id_2', 'pdbx_label_seq_id_2', 'pdbx_label_asym_id_2', 'pdbx_PDB_ins_code_2', 'pdbx_auth_comp_id_2', 'pdbx_auth_seq_id_2', 'pdbx_auth_asym_id_2'];
  return [
    cif4hhb(),
    loop('struct_sheet', ['id', 'type', 'number_strands', 'details'], ['AA1 ? 3 ?', 'B ? 2 ?']),
    loop('struct_sheet_order', ['sheet_id', 'range_id_1', 'range_id_2', 'offset', 'sense'], ['AA1 1 2 ? anti-parallel', 'AA1 2 3 ? parallel', 'B 1 2 ? anti-parallel']),
    loop('struct_sheet_range', range, [
      'AA1 1 VAL A 1 ? SER A 3 ? VAL A 1 SER A 3',
      'AA1 2 HIS B 2 ? THR B 4 ? HIS B 2 THR B 4',
      'AA1 3 LYS A 7 ? ASN A 9 ? LYS A 7 ASN A 9',
      'B 1 VAL C 1 ? SER C 3 ? VAL C 1 SER C 3',
      'B 2 LYS D 8 ? ALA D 10 ? LYS D 8 ALA D 10',
    ]),
    loop(
      'pdbx_struct_sheet_hbond',
      ['sheet_id', 'range_id_1', 'range_id_2', ...partner(1), ...partner(2)],
      ['AA1 1 2 O LEU A 2 ? O LEU A 2 N LEU B 3 ? N LEU B 3', 'AA1 2 3 N THR B 4 ? N THR B 4 O THR A 8 ? O THR A 8'],
    ),
    loop('struct_mon_prot_cis', [...cis, ...cis2, 'pdbx_PDB_model_num', 'pdbx_omega_angle'], ['1 SER 3 A . ? SER 3 A PRO 4 A ? PRO 4 A 1 -6.14', '2 THR 4 B . ? THR 4 B PRO 5 B ? PRO 5 B 1 12.3']),
  ].join('\n');
}

/** Biopython's parse_pdb_header over a legacy text: [resolution, release date, deposition date]. */
async function biopythonHeader(text: string): Promise<unknown> {
  const script = [
    'import io, sys, json',
    'from Bio.PDB import parse_pdb_header',
    'h = parse_pdb_header(io.StringIO(sys.stdin.read()))',
    'print(json.dumps([h["resolution"], h["release_date"], h["deposition_date"]]))',
  ].join('\n');
  const run = promisify(execFile)('/usr/bin/python3', ['-c', script], { encoding: 'utf8', timeout: 20_000 });
  run.child.stdin?.end(text);
  return JSON.parse((await run).stdout);
}

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
    const order = [
      'HEADER',
      'TITLE',
      'CAVEAT',
      'COMPND',
      'SOURCE',
      'KEYWDS',
      'AUTHOR',
      'REVDAT',
      'SPRSDE',
      'JRNL',
      'REMARK',
      'SEQRES',
      'HETNAM',
      'HETSYN',
      'FORMUL',
      'HELIX',
      'LINK',
      'SITE',
      'CRYST1',
      'SCALE3',
      'MTRIX1',
      'ATOM',
      'CONECT',
      'MASTER',
      'END   ',
    ].map(firstOf);
    expect(order.every((v) => v >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Every line 80 columns.
    expect(ours.split('\n').filter((l) => l && l.length !== 80)).toEqual([]);
  });

  it("writes an NMR entry's REMARK 3, 210, 215 and 465 (one list for the whole ensemble), NUMMDL and CRYST1 as the archive's 2BEG and 1LCD files", async () => {
    for (const id of ['2beg', '1lcd']) {
      const ours = await legacyOf(gunzipSync(fixture(`${id}.cif.gz`)).toString('utf8'));
      const real = gunzipSync(fixture(`${id}.pdb.gz`)).toString('utf8');
      for (const type of ['EXPDTA', 'NUMMDL', 'CRYST1', 'REMARK   2', 'REMARK   3', 'REMARK 210', 'REMARK 215', 'REMARK 465']) {
        expect(records(ours, type), `${id} ${type}`).toEqual(records(real, type));
      }
      expect(records(ours, 'NUMMDL')).toHaveLength(1);
      // A crystal's remark is not written for a solution: 2BEG's mmCIF has an empty exptl_crystal row.
      expect(records(ours, 'REMARK 280')).toEqual([]);
    }
    // Every line of 2BEG's REMARK 465 and 210 (the ensemble's missing residues; a remark over six lines).
    const ours = await legacyOf(gunzipSync(fixture('2beg.cif.gz')).toString('utf8'));
    expect(records(ours, 'REMARK 465')).toHaveLength(87);
    expect(records(ours, 'REMARK 210')).toContain('REMARK 210                                   RESTRAINT VIOLATIONS');
    // Keywords separated by a comma and a space (the mmCIF has them so); AUTHOR and KEYWDS end by column 79.
    expect(records(ours, 'KEYWDS')[0]).toBe("KEYWDS    ALZHEIMER'S, FIBRIL, PROTOFILAMENT, BETA-SANDWICH, QUENCHED");
    expect(records(ours, 'AUTHOR')[0]).toBe('AUTHOR    T.LUHRS,C.RITTER,M.ADRIAN,D.RIEK-LOHER,B.BOHRMANN,H.DOBELI,');
    for (const l of [...records(ours, 'AUTHOR'), ...records(ours, 'KEYWDS')]) expect(l.length, l).toBeLessThanOrEqual(79);
  });

  it('lists missing residues model by model when the models of an ensemble miss different ones', async () => {
    // 2BEG with ASP 1 of chain A observed in model 2 (its row of the unobserved residues taken out).
    const cif = gunzipSync(fixture('2beg.cif.gz')).toString('utf8');
    const altered = cif.replace(/^\d+ +Y 1 2 +A ASP 1 +\? *\n/m, '');
    expect(altered).not.toEqual(cif);
    const r465 = records(await legacyOf(altered), 'REMARK 465');
    expect(r465.some((l) => l.includes('MODELS'))).toBe(false);
    expect(r465).toContain('REMARK 465   M RES C SSSEQI');
    expect(r465).toContain('REMARK 465   1 ASP A     1');
    expect(r465).not.toContain('REMARK 465   2 ASP A     1');
    expect(r465).toContain('REMARK 465   2 ALA A     2');
    expect(r465).toContain('REMARK 465  10 LYS E    16');
    // 80 residues in each of 10 models, less the one.
    expect(r465.filter((l) => /^REMARK 465 +\d+ [A-Z]{3} [A-E] /.test(l))).toHaveLength(799);
  });

  it('agrees with the real 4hhb.pdb record type by record type (figure reported)', async () => {
    const ours = (await app.inject({ method: 'GET', url: `${CCD}/rcsb/files/download/4hhb.pdb` })).body;
    const a = agreement(ours, realPdb);
    console.log(`legacy header agreement with the real 4hhb.pdb: ${a.matched}/${a.total} lines (${a.percent}%)`, a.perType);
    for (const type of ['HEADER', 'COMPND', 'SOURCE', 'REVDAT', 'JRNL', 'REMARK', 'HELIX', 'LINK', 'CRYST1', 'SCALE1', 'ORIGX1']) expect(a.perType[type], type).not.toMatch(/^0\//);
    // Before these records were written: 71 of 1,064 non-coordinate lines (6.7%); with COMPND, SOURCE, REVDAT, JRNL, REMARK 1/2, HELIX and LINK: 170 (16.0%);
    // with CAVEAT, SPRSDE, REMARK 3-900, HETSYN, FORMUL, SITE, MTRIX, CONECT and MASTER: 999 (93.9%); with REMARK 290: 1,023 (96.1%);
    // with REMARK 1's book references (EDIT, REF continued, PUBL, empty REFN) and 60-column JRNL text: 1,041 (97.8%).
    // With the dictionary's bonds in CONECT: 1,055 (99.2%). The other 9: REVDAT 2-9 (the mmCIF's revision history has
    // 7 revisions, not the legacy file's 9, and revised categories rather than record names).
    expect(a.matched).toBeGreaterThanOrEqual(1055);
    expect(records(ours, 'CONECT')).toEqual(records(realPdb, 'CONECT'));
    expect(records(ours, 'REMARK   1')).toEqual(records(realPdb, 'REMARK   1'));
    expect(records(ours, 'MASTER')).toEqual(records(realPdb, 'MASTER'));
    for (const type of ['CAVEAT', 'SPRSDE', 'HETSYN', 'FORMUL', 'SITE', 'MTRIX1', 'MTRIX2', 'MTRIX3']) expect(a.perType[type], type).toMatch(/^(\d+)\/\1$/);
  });

  it('writes CAVEAT, SPRSDE, HETSYN, FORMUL, SITE and MTRIX as the real 4hhb.pdb has them, and no SEQADV (4HHB has none)', async () => {
    const ours = (await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body;
    for (const type of ['CAVEAT', 'SPRSDE', 'HETSYN', 'FORMUL', 'SITE  ', 'MTRIX1', 'MTRIX2', 'MTRIX3']) expect(records(ours, type), type).toEqual(records(realPdb, type));
    expect(records(ours, 'FORMUL')).toContain('FORMUL  11  HOH   *221(H2 O)');
    expect(records(ours, 'SEQADV')).toEqual([]);
  });

  it('writes REMARK 3, 4, 100, 200, 280, 290, 300, 350, 500, 610, 620, 800 and 900 as the real 4hhb.pdb has them', async () => {
    const ours = (await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body;
    for (const n of [3, 4, 100, 200, 280, 290, 300, 350, 500, 610, 620, 800, 900]) {
      const type = `REMARK ${String(n).padStart(3)}`;
      expect(records(ours, type), type).toEqual(records(realPdb, type));
    }
    // REMARK 290 from P 1 21 1's operators (Mol*'s tables) and the cell: the screw axis's translation is b/2 in Angstrom.
    expect(records(ours, 'REMARK 290       2555')).toEqual(['REMARK 290       2555   -X,Y+1/2,-Z']);
    expect(records(ours, 'REMARK 290   SMTRY2   2')).toEqual(['REMARK 290   SMTRY2   2  0.000000  1.000000  0.000000       41.79500']);
    // REMARK 1: the journal references agree; the two book chapters are cited with editor, publisher and
    // a split title that the mmCIF's citation rows do not carry (checked by the test above for JRNL).
    expect(records(ours, 'REMARK   1  TITL   STEREOCHEMISTRY OF IRON IN DEOXYHAEMOGLOBIN')).toHaveLength(1);
  });

  it("takes a HET group's bonds from the loaded dictionary, the rest from distances, and keeps the two files apart", async () => {
    const withBonds = records((await app.inject({ method: 'GET', url: `${CCD}/rcsb/files/download/4hhb.pdb` })).body, 'CONECT');
    const real = records(realPdb, 'CONECT');
    expect(withBonds).toEqual(real);
    // The propionate of heme A 142: CBA-CGA (2.3 A in this model) bonded, the carboxylate's O1A-O2A contact (1.5 A) not.
    for (const l of ['CONECT 4399 4398 4400', 'CONECT 4400 4399 4401 4402', 'CONECT 4401 4400', 'CONECT 4402 4400']) expect(withBonds).toContain(l);
    const fromDistances = records((await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body, 'CONECT');
    expect(fromDistances).toContain('CONECT 4401 4400 4402');
    expect(fromDistances).not.toEqual(real);
  });

  it('writes CONECT for the HET groups and LINK bonds and MASTER with the record counts', async () => {
    const ours = (await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body;
    const conect = records(ours, 'CONECT');
    const real = records(realPdb, 'CONECT');
    // The LINK bonds (His NE2 - heme Fe) and the Fe - N bonds of each heme, as wwPDB writes them.
    for (const l of ['CONECT  650 4431', 'CONECT 4431  650 4427 4428 4429', 'CONECT 4431 4430', 'CONECT 3965 4562', 'CONECT 4562 3965 4558 4559 4560']) expect(conect).toContain(l);
    expect(conect).toHaveLength(real.length);
    // The bonds within a HET group come from distances (the mmCIF has no chem_comp_bond): 166 of the 180 lines
    // agree; the 14 others are the heme propionates, whose 1984 geometry has C-C bonds of 2.1-2.3 A and O-O
    // contacts of 1.5-1.9 A, where wwPDB takes the bonds from the chemical component dictionary instead.
    const realSet = new Set(real);
    expect(conect.filter((l) => realSet.has(l)).length).toBeGreaterThanOrEqual(166);
    // Every bond is listed from both of its atoms.
    const pairs = new Set(
      conect.flatMap((l) =>
        l
          .slice(11)
          .trim()
          .split(/\s+/)
          .map((p) => `${l.slice(6, 11).trim()}-${p}`),
      ),
    );
    for (const p of pairs) expect(pairs.has(p.split('-').reverse().join('-')), p).toBe(true);
    // MASTER: every count the real file has but REMARK's (708 there; ours counts the REMARK lines written).
    const master = records(ours, 'MASTER')[0] ?? '';
    const realMaster = records(realPdb, 'MASTER')[0] ?? '';
    expect(master.slice(15)).toBe(realMaster.slice(15));
    expect(Number(master.slice(10, 15))).toBe(records(ours, 'REMARK').length);
    expect(
      ours
        .trimEnd()
        .split('\n')
        .slice(-2)
        .map((l) => l.slice(0, 6).trimEnd()),
    ).toEqual(['MASTER', 'END']);
  });

  it('writes SEQADV from struct_ref_seq_dif and a blank MTRIX column 60 for an operator to generate (altered copy of 4HHB)', async () => {
    // 4HHB's mmCIF with two made-up sequence differences and its NCS operator marked "generate": not a real entry.
    const altered =
      gunzipSync(fixture('4hhb.cif.gz'))
        .toString('utf8')
        .replace(/_struct_ncs_oper\.code\s+given/, '_struct_ncs_oper.code generate') +
      [
        'loop_',
        ...[
          'align_id',
          'pdbx_pdb_id_code',
          'mon_id',
          'pdbx_pdb_strand_id',
          'seq_num',
          'pdbx_pdb_ins_code',
          'pdbx_seq_db_name',
          'pdbx_seq_db_accession_code',
          'db_mon_id',
          'pdbx_seq_db_seq_num',
          'details',
          'pdbx_auth_seq_num',
          'pdbx_ordinal',
        ].map((f) => `_struct_ref_seq_dif.${f}`),
        "1 4HHB MET A 1 ? UNP P69905 ? ? 'expression tag' 0 1",
        "2 4HHB ALA B 8 ? UNP P68871 GLU 8 'engineered mutation' 7 2",
        '#',
        '',
      ].join('\n');
    const file = await parseCif(altered);
    const ours = mergeHeader(toLegacyPdb(file), firstBlock(file));
    // Columns 8-11 id, 13-15 residue, 17 chain, 19-22 number, 25-28 database, 30-38 accession, 40-42 and 44-48 its residue, 50-70 comment.
    expect(records(ours, 'SEQADV')).toEqual(['SEQADV 4HHB MET A    0  UNP  P69905              EXPRESSION TAG', 'SEQADV 4HHB ALA B    7  UNP  P68871    GLU     8 ENGINEERED MUTATION']);
    const order = ['DBREF ', 'SEQADV', 'SEQRES'].map((t) => ours.split('\n').findIndex((l) => l.startsWith(t)));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(records(ours, 'MTRIX1')).toEqual(['MTRIX1   1 -0.952899  0.301963 -0.028045       17.04968']);
  });

  it("writes SHEET and CISPEP in the format's columns, in record order (altered copy of 4HHB)", async () => {
    const ours = await legacyOf(withSheetsAndCisPeptides());
    // Columns 8-10 strand, 12-14 sheet id, 15-16 strands, 18-27 and 29-38 first and last residue, 39-40 sense,
    // 42-55 the current strand's registering atom (name, residue, chain, number, code), 57-70 the previous strand's.
    expect(records(ours, 'SHEET')).toEqual([
      'SHEET    1 AA1 3 VAL A   1  SER A   3  0',
      'SHEET    2 AA1 3 HIS B   2  THR B   4 -1  N  LEU B   3   O  LEU A   2',
      'SHEET    3 AA1 3 LYS A   7  ASN A   9  1  O  THR A   8   N  THR B   4',
      'SHEET    1   B 2 VAL C   1  SER C   3  0',
      'SHEET    2   B 2 LYS D   8  ALA D  10 -1',
    ]);
    // Columns 8-10 serial, 12-22 and 26-36 the two residues, 44-46 model (0 in a single-model entry), 54-59 omega.
    expect(records(ours, 'CISPEP')).toEqual(['CISPEP   1 SER A    3    PRO A    4          0        -6.14', 'CISPEP   2 THR B    4    PRO B    5          0        12.30']);
    const lines = ours.split('\n');
    const firstOf = (type: string) => lines.findIndex((l) => l.startsWith(type));
    const order = ['HELIX', 'SHEET', 'LINK', 'CISPEP', 'SITE', 'CRYST1'].map(firstOf);
    expect(order.every((v) => v >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(lines.filter((l) => l && l.length !== 80)).toEqual([]);
    // MASTER counts the SHEET lines (columns 31-35).
    expect(Number(records(ours, 'MASTER')[0]?.slice(30, 35))).toBe(5);
  });

  it('leaves REMARK 290 out for an unknown space group or a non-crystal method, and its SMTRY lines for a missing cell, without failing', async () => {
    const cif = cif4hhb();
    const unknown = cif.replace("'P 1 21 1'", "'Q 9 99'");
    const noCell = cif.replace(/_cell\.length_a\s+63\.150/, '_cell.length_a ?');
    const nmr = cif.replace("_exptl.method            'X-RAY DIFFRACTION'", "_exptl.method 'SOLUTION NMR'");
    expect([unknown, noCell, nmr].every((c) => c !== cif)).toBe(true);
    const served = memorySource({ '1AAA': gz(unknown), '2AAA': gz(noCell), '3AAA': gz(nmr) });
    const host = Fastify({ logger: false });
    await host.register(async (f) => fileHostRoutes(f, served), { prefix: '/rcsb/files' });
    try {
      const get = async (id: string) => {
        const r = await host.inject({ method: 'GET', url: `/rcsb/files/download/${id}.pdb` });
        expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
        return r.body;
      };
      const ofUnknown = await get('1AAA');
      expect(records(ofUnknown, 'REMARK 290')).toEqual([]);
      expect(records(ofUnknown, 'CRYST1')[0]).toContain('Q 9 99');
      expect(records(await get('3AAA'), 'REMARK 290')).toEqual([]);
      // Without the cell the operators are still listed; the SMTRY matrices, which need the cell, are not.
      const ofNoCell = records(await get('2AAA'), 'REMARK 290');
      expect(ofNoCell).toContain('REMARK 290       2555   -X,Y+1/2,-Z');
      expect(ofNoCell.filter((l) => l.includes('SMTRY'))).toEqual([]);
      expect(ofNoCell.at(-1)).toBe('REMARK 290 REMARK: NULL');
    } finally {
      await host.close();
    }
  });

  it(`lets Biopython's parse_pdb_header read resolution 1.74 and the release date, with SHEET and CISPEP too${noBiopython}`, { skip: Boolean(noBiopython) }, async () => {
    const ours = (await app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body;
    expect(await biopythonHeader(ours)).toEqual([1.74, '1984-07-17', '1984-03-07']);
    const altered = await legacyOf(withSheetsAndCisPeptides());
    expect(records(altered, 'SHEET')).toHaveLength(5);
    expect(await biopythonHeader(altered)).toEqual([1.74, '1984-07-17', '1984-03-07']);
  });
});

/** Our legacy text and the archive's file of a fixture entry. */
async function pair(id: string): Promise<{ ours: string; real: string }> {
  const ours = await legacyOf(gunzipSync(fixture(`${id}.cif.gz`)).toString('utf8'));
  return { ours, real: gunzipSync(fixture(`${id}.pdb.gz`)).toString('utf8') };
}

describe('legacy .pdb of two X-ray entries with full headers, compared with the archive files', () => {
  it('writes the records of 2XHE (PHENIX refinement, V. 3.30) as the archive file has them', async () => {
    const { ours, real } = await pair('2xhe');
    for (const type of ['SOURCE', 'SEQADV', 'HELIX ', 'SHEET ', 'REMARK 290', 'REMARK 300', 'REMARK 350', 'REMARK 465', 'REMARK 470', 'REMARK 500', 'FORMUL', 'DBREF ', 'SEQRES']) {
      expect(records(ours, type), type).toEqual(records(real, type));
    }
    // Every atom's ANISOU after it, from atom_site_anisotrop (U in 10^-4 square angstroms), and the atoms around them.
    expect(records(real, 'ANISOU')).toHaveLength(6267);
    expect(records(ours, 'ANISOU')).toEqual(records(real, 'ANISOU'));
    const coordinates = (text: string) => records(text, '').filter((l) => /^(ATOM|HETATM|ANISOU|TER)/.test(l));
    expect(coordinates(ours)).toEqual(coordinates(real));
    // A tensor that does not fit seven columns (U11 of 1000 square angstroms) is left out; the next atom keeps its own.
    const cif = gunzipSync(fixture('2xhe.cif.gz')).toString('utf8');
    const altered = cif.replace(/^(1 +N N +\. HIS A 1 +\? )1\.5749 /m, '$11000.5 ');
    expect(altered).not.toEqual(cif);
    const anisou = records(await legacyOf(altered), 'ANISOU');
    expect(anisou).toHaveLength(6266);
    expect(anisou[0]).toBe((records(real, 'ANISOU')[1] as string).trimEnd());
    // REMARK 3 in PHENIX's layout (bins, bulk solvent, deviations with counts, TLS groups), but for the
    // program's author list, which the mmCIF does not hold (ours: NULL).
    const authors = (l: string) => /^REMARK {3}3 {3}AUTHORS|^REMARK {3}3 {15}:/.test(l);
    expect(records(ours, 'REMARK   3').filter((l) => !authors(l))).toEqual(records(real, 'REMARK   3').filter((l) => !authors(l)));
    expect(records(ours, 'REMARK   3')).toContain('REMARK   3     1 34.6048 -  6.3981    1.00     2934   147  0.1773 0.2280');
    expect(records(ours, 'REMARK   3')).toContain('REMARK   3   DIHEDRAL  : 18.073           2421');
    expect(records(ours, 'REMARK   3')).toContain('REMARK   3      S11:  -0.2893 S12:   0.3242 S13:  -0.2213');
    // REMARK 200 but the detector's name (the mmCIF's was corrected since) and the remark (NONE there, not in the mmCIF);
    // a synchrotron's beamline is no generator model. A table cut at 50 rows counts its Ramachandran outliers.
    const other = (l: string) => /DETECTOR MANUFACTURER|^REMARK 200 REMARK:/.test(l);
    expect(records(ours, 'REMARK 200').filter((l) => !other(l))).toEqual(records(real, 'REMARK 200').filter((l) => !other(l)));
    expect(records(ours, 'REMARK 200  X-RAY GENERATOR MODEL')).toEqual(['REMARK 200  X-RAY GENERATOR MODEL          : NULL']);
    expect(records(ours, 'REMARK 500 THIS ENTRY HAS')).toEqual(['REMARK 500 THIS ENTRY HAS      52 RAMACHANDRAN OUTLIERS.']);
    // MASTER: every count but REMARK's, which differs by the author lines (8 there, 1 here).
    expect(records(ours, 'MASTER')[0]?.slice(15)).toBe(records(real, 'MASTER')[0]?.slice(15));
  });

  it('writes the records of 1A8O (X-PLOR refinement, V. 3.15, an mmCIF of the older dictionary) as the archive file has them', async () => {
    const { ours, real } = await pair('1a8o');
    // REVDAT with record names from database_PDB_rev(_record); SOURCE's cell line, vector and plasmid; BIOMT of "1,2";
    // REMARK 480 (atoms at zero occupancy); MODRES.
    for (const type of ['HEADER', 'REVDAT', 'SPRSDE', 'SOURCE', 'COMPND', 'REMARK 350', 'REMARK 480', 'REMARK 500', 'MODRES', 'SSBOND', 'LINK  ', 'HELIX ', 'FORMUL']) {
      expect(records(ours, type), type).toEqual(records(real, type));
    }
    const has = (lines: readonly string[], wanted: readonly string[]) => expect(wanted.filter((l) => !lines.includes(l))).toEqual([]);
    // REMARK 3's details on the label's line where they fit; the X-PLOR parameter and topology files.
    has(records(ours, 'REMARK   3'), [
      'REMARK   3  OTHER REFINEMENT REMARKS: BULK SOLVENT MODEL USED',
      'REMARK   3  PARAMETER FILE  1  : PARHCSDX.PRO',
      'REMARK   3  PARAMETER FILE  2  : TIP3P.PARAMETER',
      'REMARK   3  TOPOLOGY FILE  1   : TOPHCSDX.PRO',
      'REMARK   3  TOPOLOGY FILE  2   : TIP3P.TOPOLOGY',
    ]);
    // REMARK 200: a month's date, and the programs the older dictionary keeps in computing.
    const r200 = records(ours, 'REMARK 200');
    has(r200, [
      'REMARK 200  DATE OF DATA COLLECTION        : DEC-96',
      'REMARK 200  X-RAY GENERATOR MODEL          : NULL',
      'REMARK 200  INTENSITY-INTEGRATION SOFTWARE : DENZO',
      'REMARK 200  DATA SCALING SOFTWARE          : SCALEPACK',
      'REMARK 200 SOFTWARE USED: X-PLOR 3.843',
    ]);
    // A long value continues on the next line, indented by one, rather than being cut at column 80.
    const at = r200.findIndex((l) => l.startsWith('REMARK 200 METHOD USED'));
    expect(r200.slice(at, at + 2).map((l) => l.slice(11))).toEqual(['METHOD USED TO DETERMINE THE STRUCTURE: MULTI-WAVELENGTH ANOMALOUS', ' DISPERSION']);
    const r280 = records(ours, 'REMARK 280');
    const conditions = r280.slice(r280.findIndex((l) => l.includes('CRYSTALLIZATION CONDITIONS')));
    expect(conditions.slice(1).every((l) => l.startsWith('REMARK 280  ') && l.length <= 79)).toBe(true);
    expect(conditions.map((l) => l.slice(11).trim()).join(' ')).toBe(
      records(real, 'REMARK 280')
        .slice(5)
        .map((l) => l.slice(11).trim())
        .join(' '),
    );
  });

  it('agrees with the archive files of 2XHE and 1A8O record type by record type (figures reported)', async () => {
    const figures: Record<string, number> = {};
    for (const id of ['2xhe', '1a8o']) {
      const { ours, real } = await pair(id);
      const a = agreement(ours, real);
      console.log(`legacy header agreement with the real ${id}.pdb: ${a.matched}/${a.total} lines (${a.percent}%)`, a.perType);
      figures[id] = a.matched;
    }
    // 2XHE: 576 of 762 non-coordinate lines (75.6%) before REMARK 3 in PHENIX's layout, SOURCE's other tokens, REMARK 200's
    // generator model and REMARK 500's outlier count; 746 (97.9%) with them. The other 16: REMARK 3's author list (8), REMARK 100
    // (processing date and the site's id code), REMARK 200's detector name and "REMARK: NONE", REMARK 280 wrapped narrower,
    // REVDAT 2's record names (the mmCIF names revised categories) and MASTER's REMARK count.
    expect(figures['2xhe']).toBeGreaterThanOrEqual(746);
    // 1A8O: 236 of 379 (62.3%) before; 276 (72.8%) with REVDAT from database_PDB_rev, SOURCE, REMARK 3's X-PLOR files and
    // details, REMARK 200's date and programs, REMARK 350's operators, REMARK 480, MODRES and HEADER (the classification in
    // capitals, the deposition date from database_PDB_rev). The rest: numbers the 2008 file printed with more decimals than
    // the mmCIF keeps, the narrower wrapping of 2008, MSE as HETATM (the mmCIF marks it ATOM: HET, HETNAM and CONECT),
    // atom serials the test file renumbered, REMARK 525 and REMARK 100's site, which the mmCIF does not hold.
    expect(figures['1a8o']).toBeGreaterThanOrEqual(276);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('legacy .pdb CONECT from the loaded dictionary on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  withDemoPdb(
    target,
    (app, opened) => {
      t = app;
      store = opened;
    },
    [rcsbData, rcsbFiles],
  );

  it("writes the real 4hhb.pdb's CONECT records from the demo dictionary's bonds", async () => {
    const conect = records((await t.app.inject({ method: 'GET', url: '/rcsb/files/download/4hhb.pdb' })).body, 'CONECT');
    expect(conect).toEqual(records(realPdb, 'CONECT'));
    // A dictionary loaded by a version that kept no bonds has none to give (the file host then finds them from distances).
    const ccd = tableSet(CCD_PREFIX, (await t.generations.active('rcsb-data', 'components')) as number);
    expect((await ccdBonds(store.db, ccd, ['HEM', 'NAG'])).get('HEM')).toContainEqual(['CBA', 'CGA']);
    await store.db.exec(`DROP TABLE ${ident(ccd.name('comp_bonds'))}`);
    expect((await ccdBonds(store.db, ccd, ['HEM'])).size).toBe(0);
  });
});
