import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AssemblyNotFound,
  CifFormatError,
  CifPool,
  CifTaskTimeout,
  LegacyFormatUnavailable,
  atomCount,
  closeCifPool,
  parseCif,
  parseOperExpression,
  polymerSequences,
  runCifTask,
  toAssemblyCif,
  toAssemblyPdb,
  toBinaryCif,
  toLegacyPdb,
  type CifFile,
} from '../src/core/mmcif/index.js';
import { missingBiopython } from './helpers/tools.js';
import { TWO_OPERATORS, fixture, generatedCif, gz, type GenEntry } from './rcsb-files-fixtures.js';

const noBiopython = missingBiopython();
const work = mkdtempSync(join(tmpdir(), 'mmcif-'));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await closeCifPool();
});

const realCif = fixture('4hhb.cif.gz');
const realPdb = gunzipSync(fixture('4hhb.pdb.gz')).toString('utf8');
const realPdb1 = gunzipSync(fixture('4hhb.pdb1.gz')).toString('utf8');
const lines = (text: string, records: RegExp) => text.split('\n').filter((l) => records.test(l));
const COORDS = /^(ATOM {2}|HETATM|TER {3}|MODEL |ENDMDL)/;

/** Numbers compared as numbers (BinaryCIF keeps values, not their text: 1.00 reads back as 1). */
const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
const norm = (v: string) => (NUMBER.test(v) && !/^0\d/.test(v) ? String(Number(Number(v).toPrecision(10))) : v);

/** Every value of every column of a category, as text, row by row (numbers normalised). */
function categoryValues(file: CifFile, name: string, skip: string[] = []): string[][] {
  const cat = file.blocks[0]!.categories[name]!;
  const names = cat.fieldNames.filter((f) => !skip.includes(f));
  return Array.from({ length: cat.rowCount }, (_, r) =>
    names.map((f) => {
      const field = cat.getField(f)!;
      return field.valueKind(r) === 0 ? norm(field.str(r)) : field.valueKind(r) === 1 ? '.' : '?';
    }),
  );
}

function biopython(fmtA: string, textA: string | Uint8Array, fmtB: string, textB: string | Uint8Array) {
  const a = join(work, `a.${fmtA}`);
  const b = join(work, `b.${fmtB}`);
  writeFileSync(a, textA);
  writeFileSync(b, textB);
  const r = spawnSync('/usr/bin/python3', [join(import.meta.dirname, 'rcsb-files-biopython.py'), fmtA, a, fmtB, b], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { a: number; b: number; modelsA: number; modelsB: number; chainsA: string[]; chainsB: string[]; firstDiff: unknown };
}

describe('reading', () => {
  it('reads gzipped mmCIF and BinaryCIF with the same atoms', async () => {
    const text = await parseCif(realCif);
    const binary = await parseCif(fixture('4hhb.bcif'));
    expect(atomCount(text)).toBe(4779);
    expect(atomCount(binary)).toBe(4779);
    expect(categoryValues(binary, 'atom_site').map((r) => r.slice(0, 14))).toEqual(categoryValues(text, 'atom_site').map((r) => r.slice(0, 14)));
  });

  it('rejects truncated, corrupt and malformed input with CifFormatError naming the problem', async () => {
    await expect(parseCif(realCif.subarray(0, realCif.length / 2))).rejects.toThrow(/gzip/);
    const corrupt = Buffer.from(realCif);
    corrupt.fill(0x41, 40, 4000);
    await expect(parseCif(corrupt)).rejects.toBeInstanceOf(CifFormatError);
    await expect(parseCif('data_X\nloop_\n_a.b\n_a.c\n1 2 3\n')).rejects.toThrow(/line/);
    await expect(parseCif(new Uint8Array([0x82, 0xa1, 0x61, 0xc1, 0xff]))).rejects.toBeInstanceOf(CifFormatError);
    await expect(parseCif('')).rejects.toBeInstanceOf(CifFormatError);
  });
});

describe('legacy PDB', () => {
  it('infers ATOM and HETATM from the entities and residues where atom_site has no group_PDB', async () => {
    const text = gunzipSync(realCif).toString('utf8');
    // The same file without the column, as other programs write mmCIF.
    const bare = text.replace('_atom_site.group_PDB \n', '').replace(/^(?:ATOM|HETATM) +(?=\d+ )/gm, '');
    expect(bare).not.toMatch(/^HETATM/m);
    const ours = toLegacyPdb(await parseCif(bare));
    const RECORDS = /^(ATOM {2}|HETATM|TER|HET {3}|HETNAM)/;
    expect(lines(ours, RECORDS)).toEqual(lines(realPdb, RECORDS));
    // A modified residue of a chain (MET 55 of chain B renamed MSE, its SD kept): HETATM with a HET record.
    const modified = bare.replace(/^(\d+ +\S+ +\S+ +\. +)MET( +B +2 +55 +\? +[-\d.]+ +[-\d.]+ +[-\d.]+ +[\d.]+ +[\d.]+ +\? +55 +)MET/gm, '$1MSE$2MSE');
    expect(modified).not.toEqual(bare);
    const mse = toLegacyPdb(await parseCif(modified));
    const msAtoms = lines(mse, /^(ATOM {2}|HETATM).{11}MSE B {2}55 /);
    expect(msAtoms.length).toBeGreaterThan(4);
    expect(msAtoms.every((l) => l.startsWith('HETATM'))).toBe(true);
    expect(lines(mse, /^HET {4}MSE {2}B {2}55 /)).toHaveLength(1);
    // With group_PDB the file's own word stands.
    expect(lines(toLegacyPdb(await parseCif(text)), /^HETATM.{11}MET/)).toEqual([]);
  });

  it('writes the atoms, TER records and header records of the real 4hhb.pdb column for column', async () => {
    const ours = toLegacyPdb(await parseCif(realCif));
    expect(lines(ours, COORDS)).toEqual(lines(realPdb, COORDS));
    const HEADERS = /^(HEADER|TITLE |KEYWDS|EXPDTA|AUTHOR|DBREF |SEQRES|HET {3}|HETNAM|CRYST1|ORIGX|SCALE)/;
    expect(lines(ours, HEADERS)).toEqual(lines(realPdb, HEADERS));
    expect(ours.trimEnd().endsWith('END')).toBe(true);
    expect(
      ours
        .split('\n')
        .filter(Boolean)
        .every((l) => l.length === 80),
    ).toBe(true);
  });

  it(`gives Biopython's SEQRES reader the chains and sequences of the real file${noBiopython}`, { skip: Boolean(noBiopython) }, async () => {
    const path = join(work, 'seqres.pdb');
    writeFileSync(path, toLegacyPdb(await parseCif(realCif)));
    const read = (file: string) => {
      const script = 'import sys,json\nfrom Bio import SeqIO\nprint(json.dumps([[r.id, str(r.seq)] for r in SeqIO.parse(sys.argv[1], "pdb-seqres")]))';
      const r = spawnSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      return JSON.parse(r.stdout) as [string, string][];
    };
    const real = join(work, 'real-seqres.pdb');
    writeFileSync(real, realPdb);
    const ours = read(path);
    expect(ours.map(([id]) => id)).toEqual(['4HHB:A', '4HHB:B', '4HHB:C', '4HHB:D']);
    expect(ours[0]?.[1]).toMatch(/^VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF/);
    expect(ours).toEqual(read(real));
  });

  it(`is read back by Biopython with the atoms of the real file${noBiopython}`, { skip: Boolean(noBiopython) }, async () => {
    const r = biopython('pdb', toLegacyPdb(await parseCif(realCif)), 'pdb', realPdb);
    expect(r.a).toBe(4779);
    expect(r).toMatchObject({ b: 4779, chainsA: ['A', 'B', 'C', 'D'], firstDiff: null });
  });

  it('continues long author lists on numbered AUTHOR records, breaking after commas', async () => {
    const authors = Array.from({ length: 12 }, (_, i) => `'Author${i}, A.B.'`).join('\n');
    const text = generatedCif({ id: '9ZZF', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 1 }] }).replace(
      '#\n_struct.entry_id',
      `#\nloop_\n_audit_author.name\n${authors}\n#\n_struct.entry_id`,
    );
    const records = lines(toLegacyPdb(await parseCif(text)), /^AUTHOR/);
    expect(records.length).toBeGreaterThan(1);
    expect(records[1]!.startsWith('AUTHOR   2 A.B.AUTHOR')).toBe(true);
    const names = records
      .map((l, i) => l.slice(i === 0 ? 10 : 11).trim())
      .join('')
      .split(',');
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `A.B.AUTHOR${i}`));
  });

  it('wraps several models in MODEL/ENDMDL and numbers each from 1', async () => {
    const nmr: GenEntry = { id: '9ZZB', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 2 }], models: 3 };
    const text = toLegacyPdb(await parseCif(generatedCif(nmr)));
    expect(lines(text, /^MODEL /).map((l) => l.trim())).toEqual(['MODEL        1', 'MODEL        2', 'MODEL        3']);
    expect(lines(text, /^ENDMDL/)).toHaveLength(3);
    expect(lines(text, /^ATOM /).filter((l) => l.slice(6, 11).trim() === '1')).toHaveLength(3);
  });

  it('refuses what the format cannot hold, as the archive does', async () => {
    const big: GenEntry = { id: '9ZZC', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 25_000 }] };
    const file = await parseCif(generatedCif(big));
    expect(atomCount(file)).toBe(100_000);
    expect(() => toLegacyPdb(file)).toThrow(LegacyFormatUnavailable);
    const long: GenEntry = { id: '9ZZD', chains: [{ label: 'A', auth: 'AA', entity: '1', residues: 1 }] };
    await expect(parseCif(generatedCif(long)).then(toLegacyPdb)).rejects.toThrow(/longer than one character/);
    const many: GenEntry = {
      id: '9ZZE',
      chains: Array.from({ length: 63 }, (_, i) => ({ label: `L${i}`, auth: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!'[i]!, entity: '1', residues: 1 })),
    };
    await expect(parseCif(generatedCif(many)).then(toLegacyPdb)).rejects.toThrow(/63 chains/);
    // 62 single-character chains still fit.
    const fits = { ...many, chains: many.chains.slice(0, 62) };
    expect(lines(toLegacyPdb(await parseCif(generatedCif(fits))), /^TER/)).toHaveLength(62);
  });
});

describe('BinaryCIF', () => {
  it('encodes every category of the entry, and Mol*’s binary reader gets back every value', async () => {
    const text = await parseCif(realCif);
    const bcif = toBinaryCif(text);
    const back = await parseCif(bcif);
    const names = text.blocks[0]!.categoryNames;
    expect(back.blocks[0]!.categoryNames).toEqual(names);
    for (const name of names) expect(categoryValues(back, name), name).toEqual(categoryValues(text, name));
    // The same atoms as the real host's BinaryCIF of the entry.
    const real = await parseCif(fixture('4hhb.bcif'));
    expect(categoryValues(back, 'atom_site').map((r) => r.slice(0, 15))).toEqual(categoryValues(real, 'atom_site').map((r) => r.slice(0, 15)));
  });

  it('keeps string columns that look numeric as strings', async () => {
    const file = await parseCif('data_T\nloop_\n_t.code\n_t.n\n007 1\n1e5 2\n');
    const back = await parseCif(toBinaryCif(file));
    expect(categoryValues(back, 't')).toEqual([
      ['007', '1'],
      ['1e5', '2'],
    ]);
  });
});

describe('assemblies', () => {
  it('parses operator expressions: lists, ranges, products and named operators', () => {
    expect(parseOperExpression('1')).toEqual([['1']]);
    expect(parseOperExpression('(1,2,5)')).toEqual([['1', '2', '5']]);
    expect(parseOperExpression('(1-3)')).toEqual([['1', '2', '3']]);
    expect(parseOperExpression('(1-2)(6-7)')).toEqual([
      ['1', '2'],
      ['6', '7'],
    ]);
    expect(parseOperExpression('(X0)(1-2,11)')).toEqual([['X0'], ['1', '2', '11']]);
    expect(parseOperExpression('P')).toEqual([['P']]);
    for (const bad of ['', '(1', '(5-1)', '(1,,2)', '1)(2']) expect(() => parseOperExpression(bad), bad).toThrow(CifFormatError);
  });

  it('writes 4HHB assembly 1 with the atoms and categories of the real assembly file', async () => {
    const ours = await parseCif(toAssemblyCif(await parseCif(realCif), '1'));
    const real = await parseCif(fixture('4hhb-assembly1.cif.gz'));
    expect(ours.blocks[0]!.header).toBe('XXXX');
    expect(categoryValues(ours, 'atom_site')).toEqual(categoryValues(real, 'atom_site'));
    expect(categoryValues(ours, 'pdbx_chain_remapping')).toEqual(categoryValues(real, 'pdbx_chain_remapping'));
    expect([...ours.blocks[0]!.categoryNames].sort()).toEqual([...real.blocks[0]!.categoryNames].sort());
  });

  it('writes 4HHB .pdb1 with the MODEL and atom records of the real file', async () => {
    const ours = toAssemblyPdb(await parseCif(realCif), '1');
    expect(lines(ours, COORDS)).toEqual(lines(realPdb1, COORDS));
    expect(ours.startsWith(lines(realPdb1, /^HEADER/)[0]!)).toBe(true);
  });

  it(`assembly files are read back by Biopython with the real files' atoms${noBiopython}`, { skip: Boolean(noBiopython) }, async () => {
    const file = await parseCif(realCif);
    const cif = biopython('cif', toAssemblyCif(file, '1'), 'cif', gunzipSync(fixture('4hhb-assembly1.cif.gz')));
    expect(cif).toMatchObject({ a: 4779, b: 4779, firstDiff: null });
    const pdb = biopython('pdb', toAssemblyPdb(file, '1'), 'pdb', realPdb1);
    expect(pdb).toMatchObject({ a: 4779, b: 4779, modelsA: 1, firstDiff: null });
  });

  it('applies several operators and products, naming copies as the archive does', async () => {
    const file = await parseCif(generatedCif(TWO_OPERATORS));
    const one = await parseCif(toAssemblyCif(file, '1'));
    const site = one.blocks[0]!.categories.atom_site!;
    const col = (n: string) => Array.from({ length: site.rowCount }, (_, r) => site.getField(n)!.str(r));
    // (1,2) over A and B: the first copy keeps the ids, the second appends the operator.
    expect([...new Set(col('label_asym_id'))]).toEqual(['A', 'B', 'A-2', 'B-2']);
    expect([...new Set(col('auth_asym_id'))]).toEqual(['B', 'C', 'B-2', 'C-2']);
    expect(site.rowCount).toBe(2 * (3 + 2) * 4);
    // Operator 2 turns x and y round: the copy of atom 1 sits at (-x, -y, z).
    const x = col('Cartn_x').map(Number);
    const y = col('Cartn_y').map(Number);
    const copyOfFirst = 20;
    expect(x[copyOfFirst]).toBeCloseTo(-x[0]!, 3);
    expect(y[copyOfFirst]).toBeCloseTo(-y[0]!, 3);
    expect(col('id')).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
    // (1-2)(3): translation first, then each of 1 and 2.
    const two = await parseCif(toAssemblyCif(file, '2'));
    const s2 = two.blocks[0]!.categories.atom_site!;
    const c2 = (n: string, r: number) => s2.getField(n)!.str(r);
    expect([c2('label_asym_id', 0), c2('label_asym_id', 12)]).toEqual(['A', 'A-2-3']);
    expect(Number(c2('Cartn_x', 0))).toBeCloseTo(x[0]! + 10, 3);
    expect(Number(c2('Cartn_x', 12))).toBeCloseTo(-(x[0]! + 10), 3);
    const pdb = toAssemblyPdb(file, '2');
    expect(lines(pdb, /^MODEL /)).toHaveLength(2);
    expect(lines(pdb, /^ATOM /)).toHaveLength(24);
    expect(() => toAssemblyCif(file, '3')).toThrow(AssemblyNotFound);
  });
});

describe('sequences', () => {
  it('lists polymer entities with label and author chains, names and organisms', async () => {
    const [alpha, beta] = polymerSequences(await parseCif(realCif));
    expect(alpha).toMatchObject({ entityId: '1', description: 'Hemoglobin subunit alpha', organisms: [{ name: 'Homo sapiens', taxId: '9606' }] });
    expect(alpha!.chains).toEqual([
      { label: 'A', auth: 'A' },
      { label: 'C', auth: 'C' },
    ]);
    expect(alpha!.sequence).toMatch(/^VLSPADKTNVKAAWGKVGAHAGEYGAEALERMF[A-Z]+SKYR$/);
    expect(beta!.sequence).toHaveLength(146);
    const gen = polymerSequences(await parseCif(generatedCif(TWO_OPERATORS)));
    expect(gen[0]!.chains).toEqual([
      { label: 'A', auth: 'B' },
      { label: 'B', auth: 'C' },
    ]);
  });
});

describe('worker pool', () => {
  it('runs conversions off the main thread with the same result as a direct call', async () => {
    const direct = toLegacyPdb(await parseCif(realCif));
    const pooled = Buffer.from(await runCifTask('pdb', realCif, 30_000)).toString('utf8');
    expect(pooled).toBe(direct);
    await expect(runCifTask('pdb', realCif.subarray(0, 1000), 30_000)).rejects.toBeInstanceOf(CifFormatError);
    await expect(runCifTask('assembly-pdb', realCif, 30_000, { assembly: '7' })).rejects.toBeInstanceOf(AssemblyNotFound);
    const big = gz(generatedCif({ id: '9ZZC', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 25_000 }] }));
    await expect(runCifTask('pdb', big, 30_000)).rejects.toBeInstanceOf(LegacyFormatUnavailable);
  });

  it('ends a conversion past its budget, and the next task gets a fresh thread', async () => {
    const pool = new CifPool(1);
    try {
      await pool.run('check', realCif, 30_000); // thread started and warm
      // 40,000 residues exhaust 12 MB on Node 20 and 24 alike (25,000 fit on Node 24; 100,000 made Node 20's
      // ArrayBuffer allocation fail the whole process rather than the thread).
      const big = gz(generatedCif({ id: '9ZZC', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 40_000 }] }));
      await expect(pool.run('bcif', big, 5)).rejects.toBeInstanceOf(CifTaskTimeout);
      // A task that waits its whole budget behind a long one fails without being run.
      const long = pool.run('bcif', big, 30_000);
      await expect(pool.run('check', realCif, 20)).rejects.toThrow(/waited/);
      await long;
      const again = await pool.run('sequences', realCif, 30_000);
      expect(JSON.parse(Buffer.from(again).toString('utf8'))).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });

  it('fails only the task whose thread runs out of memory', async () => {
    const pool = new CifPool(1, 12);
    try {
      // 40,000 residues exhaust 12 MB on Node 20 and 24 alike (25,000 fit on Node 24; 100,000 made Node 20's
      // ArrayBuffer allocation fail the whole process rather than the thread).
      const big = gz(generatedCif({ id: '9ZZC', chains: [{ label: 'A', auth: 'A', entity: '1', residues: 40_000 }] }));
      await expect(pool.run('bcif', big, 30_000)).rejects.toBeInstanceOf(CifFormatError);
    } finally {
      await pool.close();
    }
  });
});
