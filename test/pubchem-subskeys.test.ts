/**
 * PubChem's substructure keys computed on RDKit (subskeys.ts) against the keys PubChem itself
 * stored in real Compound records (test/fixtures/pubchem/real-subskeys.sdf.gz, sources beside it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { rdkit, type Mol, type RDKit } from '../src/services/pubchem/chem/rdkit.js';
import { SUBSKEYS_BITS, SUBSKEYS_BYTES, subskeysOf, subskeysOfText } from '../src/services/pubchem/chem/subskeys.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'pubchem', 'real-subskeys.sdf.gz');

/** Measured on the fixture: 1,323 of its 1,328 records get PubChem's keys bit for bit. */
const MIN_IDENTICAL_RATE = 0.996;

/**
 * The keys where a record's computed value is known to differ from PubChem's (docs/compatibility.md,
 * "PubChem substructure keys computed by biomirror"): any other differing key is a regression.
 */
const KNOWN_DIFFERENCES = new Set([151, 171, 182, 187, 188, 199, 252, 377, 385, 386, 558]);

/** The keys of a PUBCHEM_CACTVS_SUBSKEYS value: base64 of the count 881 (4 bytes, big-endian), then the bits. */
function decodeTag(value: string): Uint8Array {
  const raw = Buffer.from(value.trim(), 'base64');
  expect(raw.length).toBe(4 + SUBSKEYS_BYTES);
  expect(raw.readUInt32BE(0)).toBe(SUBSKEYS_BITS);
  return new Uint8Array(raw.subarray(4));
}

function bit(keys: Uint8Array, k: number): number {
  return ((keys[k >> 3] as number) >> (7 - (k & 7))) & 1;
}

function setKeys(keys: Uint8Array): number[] {
  const out: number[] = [];
  for (let k = 0; k < SUBSKEYS_BITS; k++) if (bit(keys, k)) out.push(k);
  return out;
}

/** Keys that differ: "+k" computed but not in PubChem's, "-k" PubChem's but not computed. */
function differences(pubchem: Uint8Array, computed: Uint8Array): string[] {
  const out: string[] = [];
  for (let k = 0; k < SUBSKEYS_BITS; k++) {
    if (bit(pubchem, k) !== bit(computed, k)) out.push(`${bit(computed, k) ? '+' : '-'}${k}`);
  }
  return out;
}

interface RealRecord {
  cid: string;
  molblock: string;
  keys: Uint8Array;
}

function realRecords(): RealRecord[] {
  const out: RealRecord[] = [];
  for (const chunk of gunzipSync(readFileSync(FIXTURE))
    .toString('utf8')
    .split(/^\$\$\$\$\n/m)) {
    const end = chunk.indexOf('\nM  END');
    if (end < 0) continue;
    const cid = /^> +<PUBCHEM_COMPOUND_CID>\n(\d+)/m.exec(chunk)?.[1];
    const tag = /^> +<PUBCHEM_CACTVS_SUBSKEYS>\n(\S+)/m.exec(chunk)?.[1];
    if (!cid || !tag) throw new Error(`a fixture record without CID or keys: ${chunk.slice(0, 40)}`);
    out.push({ cid, molblock: chunk.slice(0, end + 7) + '\n', keys: decodeTag(tag) });
  }
  return out;
}

/** The record's molfile as RDKit reads it; a molfile RDKit rejects (a hypervalent Cl=S) unsanitized. */
function molOf(r: RDKit, molblock: string): Mol {
  const m = r.get_mol(molblock);
  if (m?.is_valid()) return m;
  m?.delete();
  const raw = r.get_mol(molblock, JSON.stringify({ sanitize: false, removeHs: false }));
  if (!raw?.is_valid()) throw new Error('RDKit cannot read the molfile');
  return raw;
}

function keysOfSmiles(r: RDKit, smiles: string): Uint8Array {
  const keys = subskeysOfText(r, smiles);
  if (!keys) throw new Error(`RDKit cannot read ${smiles}`);
  return keys;
}

let r: RDKit;
beforeAll(async () => {
  r = await rdkit();
});

describe('PubChem substructure keys on real PubChem records', () => {
  it('equals PubChem’s keys on the measured share of records, and differs only in known keys', () => {
    const records = realRecords();
    expect(records.length).toBe(1328);
    const unknown: string[] = [];
    const byKey = new Map<string, string[]>();
    let identical = 0;
    for (const rec of records) {
      const mol = molOf(r, rec.molblock);
      let computed: Uint8Array;
      try {
        computed = subskeysOf(mol);
      } finally {
        mol.delete();
      }
      const diff = differences(rec.keys, computed);
      if (diff.length === 0) identical++;
      for (const d of diff) {
        byKey.set(d, [...(byKey.get(d) ?? []), rec.cid]);
        if (!KNOWN_DIFFERENCES.has(Number(d.slice(1)))) unknown.push(`CID ${rec.cid} key ${d}`);
      }
    }
    const rate = identical / records.length;
    expect(unknown, `differences: ${JSON.stringify(Object.fromEntries(byKey))}`).toEqual([]);
    expect(rate, `${identical} of ${records.length} identical`).toBeGreaterThanOrEqual(MIN_IDENTICAL_RATE);
  }, 180_000);
});

describe('PubChem substructure keys of single molecules', () => {
  // Values PubChem stores for these structures.
  const PUBCHEM: [string, string][] = [
    // aspirin, CID 2244
    ['CC(=O)OC1=CC=CC=C1C(=O)O', 'AAADccBwOAAAAAAAAAAAAAAAAAAAAAAAAAAwAAAAAAAAAAABAAAAGgAACAAADASAmAAyDoAABgCIAiDSCAACCAAkIAAIiAEGCMgMJzaENRqCe2Cl4BEIuYeIyCCOAAAAAAAIAAAAAAAAABAAAAAAAAAAAA=='],
    // benzene
    ['c1ccccc1', 'AAADcYBgAAAAAAAAAAAAAAAAAAAAAAAAAAAwAAAAAAAAAAABAAAAGAAAAAAACACAEAAwAIAAAACAACBCAAACAAAgAAAIiAAAAIgIICKAERCAIAAggAAIiAcAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=='],
    // phthalic anhydride: the anhydride ring is not aromatic
    ['c1cccc2c1c(=O)oc(=O)2', 'AAADcYBwMAAAAAAAAAAAAAAAAAAAASAAAAAwAAAAAAAAAEgBAAAAGgAAAAAADACAmAAwCIAABACIAiDSCAACAAAkAAAIiAEACMgIJjKANRiCMQAkwAEIqYeLyKCOgAAAAAAQAAAAAAAAACAAAAAAAAAAAA=='],
    // a tricycle whose extended ring set has a seven-membered ring that no smallest ring shows
    ['C1C2CC2C3C1C3', 'AAADccBgAAAAAAAAAAAAAAAAGDAAAYAAAAAwYAAAAAAAAAAAAAAAGAAAAAAADQCAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIAAAAAAAAAAAAAAAEAgAAOgAAAAAAAAAAAAAAAAAAAAQAACAAAAA=='],
    // 2-nitrothiophene: the nitro group's N=O and N-O, an aromatic sulfur
    ['[O-][N+](=O)C1=CC=CS1', 'AAADcQBiMABAAAAAAAAAAAAAAAAAASAAAAAAAAAAAAAAAAABgAAAHAQEAAAACACFUACwgYAQQAiFACBCQwCDAIBgChBoiBgAZIoIIAAggYEAAABAAAAgQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=='],
  ];

  it('equals PubChem’s keys for a SMILES', () => {
    for (const [smiles, value] of PUBCHEM) {
      expect(differences(decodeTag(value), keysOfSmiles(r, smiles)), smiles).toEqual([]);
    }
  });

  it('gives aspirin’s keys in PubChem’s layout: 111 bytes, key k at bit 7 - (k & 7) of byte k >> 3', () => {
    const keys = keysOfSmiles(r, 'CC(=O)OC1=CC=CC=C1C(=O)O');
    expect(keys.length).toBe(SUBSKEYS_BYTES);
    expect(Buffer.concat([Buffer.from([0, 0, 3, 0x71]), keys]).toString('base64')).toBe(PUBCHEM[0]?.[1]);
    // >= 4 H, >= 8 H, not >= 16 H; >= 2, 4 and 8 C
    expect([0, 1, 2, 9, 10, 11, 12].map((k) => bit(keys, k))).toEqual([1, 1, 0, 1, 1, 1, 0]);
    expect((keys[SUBSKEYS_BYTES - 1] as number) & 0x7f).toBe(0);
  });

  it('counts implicit and explicit hydrogens alike', () => {
    expect(setKeys(keysOfSmiles(r, 'C'))).toEqual(setKeys(keysOfSmiles(r, '[H]C([H])([H])[H]')));
    expect(bit(keysOfSmiles(r, 'C'), 0)).toBe(1); // >= 4 H
    expect(bit(keysOfSmiles(r, '[2H]C([2H])([2H])[2H]'), 0)).toBe(1);
    expect(bit(keysOfSmiles(r, 'C'), 374)).toBe(1); // C(~H)(~H)(~H)
    expect(bit(keysOfSmiles(r, 'CC'), 374)).toBe(1);
    expect(bit(keysOfSmiles(r, 'C=C'), 374)).toBe(0);
  });

  it('uses the extended ring set: naphthalene has its envelope, biphenyl does not', () => {
    const naphthalene = keysOfSmiles(r, 'c1ccc2ccccc2c1');
    const biphenyl = keysOfSmiles(r, 'c1ccccc1-c1ccccc1');
    // >= 1 ring of size 10; >= 3 aromatic rings
    expect([bit(naphthalene, 248), bit(naphthalene, 259)]).toEqual([1, 1]);
    expect([bit(biphenyl, 248), bit(biphenyl, 259), bit(biphenyl, 257)]).toEqual([0, 0, 1]);
  });

  it('decides aromaticity as PubChem does: 2-pyridone no, pyrene four rings, imidazopyridine two', () => {
    const pyridone = keysOfSmiles(r, 'O=C1C=CC=CN1');
    expect([bit(pyridone, 180), bit(pyridone, 255)]).toEqual([0, 0]); // saturated or aromatic N ring of 6; aromatic ring
    expect(bit(keysOfSmiles(r, 'c1cc2ccc3cccc4ccc(c1)c2c34'), 200)).toBe(1); // >= 4 saturated or aromatic C rings of 6
    const imidazopyridine = keysOfSmiles(r, 'c1ccn2ccnc2c1');
    expect([bit(imidazopyridine, 180), bit(imidazopyridine, 257), bit(imidazopyridine, 259)]).toEqual([1, 1, 0]);
  });

  it('gives no keys, without throwing, for an empty molecule or one RDKit cannot describe', () => {
    const empty = r.get_mol('');
    expect(empty?.is_valid()).toBe(true);
    try {
      const keys = subskeysOf(empty as Mol);
      expect(keys.length).toBe(SUBSKEYS_BYTES);
      expect(setKeys(keys)).toEqual([]);
    } finally {
      empty?.delete();
    }
    const broken = {
      get_json: () => {
        throw new Error('no molecule');
      },
    } as unknown as Mol;
    expect(setKeys(subskeysOf(broken))).toEqual([]);
    expect(subskeysOfText(r, 'not a molecule')).toBeUndefined();
  });
});
