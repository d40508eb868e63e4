/**
 * The substructure screen requires only keys a match cannot lose (chem/subskeys-screen.ts). Checked
 * on the real PubChem records of test/fixtures/pubchem/real-subskeys.sdf.gz, their keys as PubChem
 * stored them: for every pair RDKit matches (common fragments and each record's own structure as
 * queries; the small records inside every other record for superstructure), the screen keeps the
 * compound.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { rdkit, type Mol, type RDKit } from '../src/services/pubchem/chem/rdkit.js';
import { parseSdf } from '../src/services/pubchem/chem/sdf.js';
import { decodeSubskeys } from '../src/services/pubchem/chem/subskeys-codec.js';
import { subskeysEngine, type KeysOf } from '../src/services/pubchem/chem/subskeys-engine.js';
import { SCREEN_ALWAYS, screenKeys, superForbidden } from '../src/services/pubchem/chem/subskeys-screen.js';
import { requestMolecule } from '../src/services/pubchem/chem/query.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz');

// Fragments a user searches for: rings, functional groups, linkers, heteroaromatics, charged forms.
const FRAGMENTS = [
  'c1ccccc1',
  'C1CCCCC1',
  'C1=CC=CC=C1',
  'c1ccncc1',
  'c1ccc2ccccc2c1',
  'c1ccc2[nH]ccc2c1',
  'c1cn[nH]c1',
  'c1cnc[nH]1',
  'c1ccsc1',
  'c1ccoc1',
  'C1CCNCC1',
  'C1CCOCC1',
  'C1CNCCN1',
  'C1COCCN1',
  'C1CCCC1',
  'C1CC1',
  'O=C1CCCN1',
  'O=c1cccc[nH]1',
  'O=C(O)c1ccccc1',
  'OC(=O)C',
  'C(=O)O',
  'C(=O)N',
  'NC(=O)c1ccccc1',
  'C(=O)OC',
  'CC(=O)Oc1ccccc1',
  'C=O',
  'C#N',
  'C=C',
  'C#C',
  'CO',
  'CN',
  'CS',
  'CCl',
  'CBr',
  'CF',
  'CI',
  'C(F)(F)F',
  'S(=O)(=O)N',
  'S(=O)(=O)',
  'P(=O)(O)O',
  'OP(=O)(O)O',
  '[N+](=O)[O-]',
  'N=N',
  'NN',
  'NO',
  'C=N',
  'N=C(N)N',
  'NC(=O)N',
  'OC(=O)N',
  'CCOCC',
  'CCCC',
  'CCCCCC',
  'CC(C)C',
  'CC(C)(C)C',
  'Oc1ccccc1',
  'Nc1ccccc1',
  'Clc1ccccc1',
  'Cc1ccccc1',
  'c1ccc(cc1)-c1ccccc1',
  'c1ccc2ncccc2c1',
  'c1ncncn1',
  'c1cncnc1',
  'O=C1CCC(=O)N1',
  'O=C1NC(=O)C=C1',
  'C1CCC2CCCCC2C1',
  'C1CC2CCC1C2',
  'O=C1C=CC(=O)C=C1',
  'c1ccc2c(c1)oc1ccccc12',
  'OCC(O)CO',
  'OC1C(O)C(O)C(O)C(O)C1O',
  'C[C@@H](C(=O)O)N',
  'NCC(=O)O',
  'SCC',
  'CSSC',
  'c1ccc2c(c1)[nH]c1ccccc12',
  '[O-]C=O',
  '[NH3+]C',
  'C[N+](C)(C)C',
  'B(O)O',
  '[Si](C)(C)C',
  '[Sn]',
  'O=[As]',
  '[Te]',
  'P',
  'c1cc[nH]c1',
];

interface Real {
  cid: number;
  smiles: string;
  keys: Uint8Array;
  mol: Mol;
  atoms: number;
}

const missing = (keys: Uint8Array, need: Uint8Array) => need.some((b, i) => (b & ~(keys[i] as number)) !== 0);
const bits = (b: Uint8Array) => Array.from(b).flatMap((x, i) => Array.from({ length: 8 }, (_, j) => ((x >> (7 - j)) & 1 ? [i * 8 + j] : [])).flat());

describe.skipIf(!existsSync(FIXTURE))('the substructure screen on real PubChem records', () => {
  let r: RDKit;
  let keysOf: KeysOf;
  const reals: Real[] = [];

  beforeAll(async () => {
    r = await rdkit();
    keysOf = await subskeysEngine();
    for (const rec of parseSdf(gunzipSync(readFileSync(FIXTURE)).toString('utf8'))) {
      if (typeof rec === 'string') continue;
      const smiles = rec.tags.get('PUBCHEM_OPENEYE_ISO_SMILES') ?? rec.tags.get('PUBCHEM_SMILES');
      const keys = decodeSubskeys(rec.tags.get('PUBCHEM_CACTVS_SUBSKEYS') ?? '');
      if (!smiles || typeof keys === 'string') continue;
      // The service matches from the compound's SMILES, read as the matching threads read it.
      const mol = r.get_mol(smiles);
      if (!mol) continue;
      reals.push({ cid: Number(rec.tags.get('PUBCHEM_COMPOUND_CID')), smiles, keys, mol, atoms: mol.get_num_atoms() });
    }
  }, 120_000);

  const queryKeys = (smiles: string): Uint8Array | undefined => {
    const m = requestMolecule(r, 'smiles', smiles);
    if (!m) return undefined;
    try {
      const k = keysOf(m);
      return typeof k === 'string' ? undefined : k;
    } finally {
      m.delete();
    }
  };

  it('keeps every compound RDKit finds for a fragment or for its own structure', () => {
    expect(reals.length).toBeGreaterThan(1300);
    const lost: string[] = [];
    let pairs = 0;
    let screenedOut = 0;
    const queries = [...FRAGMENTS.map((s) => ({ smiles: s, self: undefined as number | undefined })), ...reals.map((x) => ({ smiles: x.smiles, self: x.cid }))];
    for (const q of queries) {
      const keys = queryKeys(q.smiles);
      if (!keys) continue;
      const need = screenKeys(keys);
      const qmol = r.get_mol(q.smiles);
      if (!qmol) continue;
      try {
        for (const t of q.self === undefined ? reals : reals.filter((x) => x.cid === q.self)) {
          const hit = t.mol.get_substruct_match(qmol) !== '{}';
          const kept = !missing(t.keys, need);
          if (hit) pairs++;
          if (!hit && !kept) screenedOut++;
          if (hit && !kept) lost.push(`${q.smiles} in CID ${t.cid}: keys ${bits(need.map((b, i) => b & ~(t.keys[i] as number)))}`);
        }
      } finally {
        qmol.delete();
      }
    }
    expect(lost).toEqual([]);
    expect(pairs).toBeGreaterThan(10_000);
    // And the screen does its work: most non-matching pairs of the fragments are ruled out by keys.
    expect(screenedOut).toBeGreaterThan(40_000);
  }, 300_000);

  it('keeps every small compound RDKit finds inside another for superstructure', () => {
    const small = reals.filter((x) => x.atoms <= 14);
    expect(small.length).toBeGreaterThan(50);
    const lost: string[] = [];
    let pairs = 0;
    for (const big of reals) {
      const computed = queryKeys(big.smiles);
      if (!computed) continue;
      const forbidden = superForbidden(computed);
      for (const s of small) {
        if (s.atoms > big.atoms || !big.mol.get_substruct_match(s.mol).startsWith('{"atoms"')) continue;
        pairs++;
        if (s.keys.some((b, i) => (b & (forbidden[i] as number)) !== 0)) lost.push(`CID ${s.cid} in CID ${big.cid}`);
      }
    }
    expect(lost).toEqual([]);
    expect(pairs).toBeGreaterThan(1000);
  }, 300_000);

  it('requires no key that counts hydrogens or rings', () => {
    const kept = new Set(bits(SCREEN_ALWAYS));
    for (const k of [0, 1, 2, 3]) expect(kept.has(k)).toBe(false); // >= 4, 8, 16, 32 H
    for (let k = 115; k < 263; k++) expect(kept.has(k)).toBe(false); // rings, aromatic rings
    expect(kept.has(263 + 21)).toBe(true); // C-C
    expect(kept.has(263 + 20)).toBe(false); // C-H
    expect(kept.has(14)).toBe(true); // >= 4 C
    expect(kept.size).toBeGreaterThan(150);
  });
});
