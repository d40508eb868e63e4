/**
 * The polymer residues of a structure file (what structure and motif search index and take as a
 * query), from the real 4HHB files in each format the RCSB serves.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CifFormatError, closeCifPool, decodeResidues, encodeResidues, parseCif, readResidues, runCifTask, toBinaryCif, type Residues } from '../src/core/mmcif/index.js';
import { fixture } from './rcsb-files-fixtures.js';

afterAll(() => closeCifPool());

/** Residues per chain, and chain A's Cα of its first residue. */
function summary(r: Residues) {
  const per: Record<string, number> = {};
  for (let i = 0; i < r.n; i++) {
    const asym = r.asyms[r.asym[i] as number] as string;
    per[asym] = (per[asym] ?? 0) + 1;
  }
  const ca = r.names.indexOf('CA');
  let first: number[] = [];
  for (let a = r.atomStart[0] as number; a < (r.atomStart[1] as number); a++) if (r.atomName[a] === ca) first = [...r.xyz.subarray(3 * a, 3 * a + 3)].map((v) => Math.round(v * 1000) / 1000);
  return { per, first, firstSeq: r.seq[0], firstComp: r.comps[r.comp[0] as number] };
}

describe('structure file residues', () => {
  it('reads the four globin chains of 4HHB alike from mmCIF, gzipped mmCIF, BinaryCIF and legacy PDB', async () => {
    const cif = await readResidues(fixture('4hhb.cif.gz'), 'cif');
    // The first Cα of the legacy file, read by its fixed columns.
    const ca = gunzipSync(fixture('4hhb.pdb.gz'))
      .toString('latin1')
      .split('\n')
      .find((l) => l.startsWith('ATOM') && l.slice(12, 16) === ' CA ') as string;
    const first = [ca.slice(30, 38), ca.slice(38, 46), ca.slice(46, 54)].map(Number);
    // Deoxyhaemoglobin: two α chains of 141 residues, two β chains of 146, every residue modelled.
    const expected = { per: { A: 141, B: 146, C: 141, D: 146 }, first, firstSeq: 1, firstComp: 'VAL' };
    expect(summary(cif)).toEqual(expected);
    expect(cif.assemblies.map((a) => a.id)).toEqual(['1']);
    expect(cif.assemblies[0]?.asyms).toEqual(expect.arrayContaining(['A', 'B', 'C', 'D']));
    expect(summary(await readResidues(fixture('4hhb.bcif'), 'cif'))).toEqual(expected);
    expect(summary(await readResidues(toBinaryCif(await parseCif(fixture('4hhb.cif.gz'))), 'cif'))).toEqual(expected);
    // The legacy file names chains by their chain ids (the same letters in 4HHB) and numbers residues as the author did.
    expect(summary(await readResidues(fixture('4hhb.pdb.gz'), 'pdb'))).toEqual(expected);
  });

  it('travels between threads in its binary form unchanged, and refuses what is not a structure', async () => {
    const cif = await readResidues(fixture('4hhb.cif.gz'), 'cif');
    expect(decodeResidues(encodeResidues(cif))).toEqual(cif);
    expect(decodeResidues(await runCifTask('residues', fixture('4hhb.cif.gz'), 60_000))).toEqual(cif);
    expect(summary(decodeResidues(await runCifTask('residues', fixture('4hhb.pdb.gz'), 60_000, { format: 'pdb' }))).per).toEqual(summary(cif).per);
    await expect(runCifTask('residues', Buffer.from('{"not": "a structure"}'), 60_000)).rejects.toBeInstanceOf(CifFormatError);
    await expect(runCifTask('residues', fixture('4hhb.cif.gz').subarray(0, 500), 60_000)).rejects.toBeInstanceOf(CifFormatError);
    expect((await readResidues(Buffer.from('HEADER    NOTHING\nEND\n'), 'pdb')).n).toBe(0);
  });

  it('keeps ATOM rows of the first model, the first alternate location of each atom, and residues whose atoms come in another order', async () => {
    const rows = [
      // group asym seq comp atom x  (model 1 unless given)
      ['HETATM', 'A', '.', 'HOH', 'O', 9],
      ['ATOM', 'A', '1', 'GLY', 'N', 1],
      ['ATOM', 'A', '1', 'GLY', 'CA', 2],
      ['ATOM', 'A', '1', 'GLY', 'CA', 3],
      ['ATOM', 'A', '1', 'GLY', 'C', 4],
      ['ATOM', 'A', '2', 'GLY', 'CA', 5],
      ['ATOM', 'A', '2', 'GLY', 'N', 6],
      ['ATOM', 'A', '2', 'GLY', 'O', 7],
      ['ATOM', '?', '2', 'GLY', 'C', 8],
      ['ATOM', 'B', '2', 'ALA', 'N', 10],
      ['ATOM', 'B', '2', 'ALA', 'CA', 11, '2'],
    ];
    const cif = [
      'data_TEST',
      'loop_',
      ...['group_PDB', 'label_asym_id', 'auth_asym_id', 'label_seq_id', 'label_comp_id', 'label_atom_id', 'Cartn_x', 'Cartn_y', 'Cartn_z', 'pdbx_PDB_model_num'].map((f) => `_atom_site.${f}`),
      ...rows.map(([g, asym, seq, comp, atom, x, model]) => `${g} ${asym} ${asym === '?' ? 'A' : asym} ${seq} ${comp} ${atom} ${x} 0 0 ${model ?? '1'}`),
      '',
    ].join('\n');
    const r = await readResidues(Buffer.from(cif), 'cif');
    const residues = Array.from({ length: r.n }, (_, i) => ({
      asym: r.asyms[r.asym[i] as number],
      seq: r.seq[i],
      comp: r.comps[r.comp[i] as number],
      atoms: Array.from({ length: (r.atomStart[i + 1] as number) - (r.atomStart[i] as number) }, (_, k) => {
        const a = (r.atomStart[i] as number) + k;
        return `${r.names[r.atomName[a] as number]}@${r.xyz[3 * a]}`;
      }),
    }));
    expect(residues).toEqual([
      { asym: 'A', seq: 1, comp: 'GLY', atoms: ['N@1', 'CA@2', 'C@4'] },
      // Chain A's second residue goes on where its label chain is unknown (the author's stands in).
      { asym: 'A', seq: 2, comp: 'GLY', atoms: ['CA@5', 'N@6', 'O@7', 'C@8'] },
      // The second model's atom is left out.
      { asym: 'B', seq: 2, comp: 'ALA', atoms: ['N@10'] },
    ]);
  });
});
