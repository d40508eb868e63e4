/**
 * A seeded generator of a PDB archive in the mirrored layout, for benchmarks and tests: N entries
 * `{dir}/{mid}/{id}.cif.gz` written by the same entry writer as the demo, the chemical component
 * dictionary they use, and SIFTS rows for their protein chains. Sizes follow the shape of the real
 * archive: atoms per entry log-normal (median about 2,500, tail to 100,000), 1-8 entities, mostly
 * X-ray with some NMR and EM, mostly protein with some RNA. Everything in the entries is generated:
 * sequences are random (composition-weighted), UniProt accessions are generated (`Z9...`), and
 * ids begin with 0 (`0A1B`), then `pdb_0000` and a letter (`pdb_0000A1B2`), which no real id does.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/synthetic/pdb/archive.js --out DIR [--count 1000] [--seed 1]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildProtein, buildRna, placeWaters, type BuiltResidue } from './build.js';
import { buildComponentsCif } from './components.js';
import { IDENTITY, atomCount, instance, labelAsymId, polarAtoms } from './entries.js';
import { divided, writeEntry, type ComponentTable, type Entity, type EntryModel, type Instance, type Method } from './entry-writer.js';
import { SpatialGrid, add, apply, gauss, randomRotation, rng, rotation, sub, type Vec } from './geometry.js';
import { siftsTsv, type SiftsRow } from './sifts.js';
import { componentTable } from './make-demo.js';

const B36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The i-th generated id: `0` + three base-36 characters, then `pdb_0000` + a letter + three. */
export function archiveId(i: number): string {
  if (i < 36 ** 3) return `0${B36[Math.floor(i / 1296)]}${B36[Math.floor(i / 36) % 36]}${B36[i % 36]}`;
  const j = i - 36 ** 3;
  if (j >= 26 * 36 ** 3) throw new Error('too many entries');
  return `pdb_0000${B36[10 + Math.floor(j / 46656)]}${B36[Math.floor(j / 1296) % 36]}${B36[Math.floor(j / 36) % 36]}${B36[j % 36]}`;
}

/** Amino-acid frequencies of UniProtKB (approximate, percent), for composition-weighted random sequences. */
const AA_FREQ: Array<[string, number]> = [
  ['LEU', 9.9],
  ['ALA', 8.3],
  ['GLY', 7.1],
  ['VAL', 6.9],
  ['GLU', 6.8],
  ['SER', 6.6],
  ['ILE', 5.9],
  ['LYS', 5.8],
  ['ARG', 5.5],
  ['ASP', 5.5],
  ['THR', 5.3],
  ['PRO', 4.7],
  ['ASN', 4.1],
  ['GLN', 3.9],
  ['PHE', 3.9],
  ['TYR', 2.9],
  ['MET', 2.4],
  ['HIS', 2.3],
  ['CYS', 1.4],
  ['TRP', 1.1],
];
const AA_TOTAL = AA_FREQ.reduce((s, [, f]) => s + f, 0);

const ORGANISMS: Array<[string, number]> = [
  ['Homo sapiens', 9606],
  ['Mus musculus', 10090],
  ['Escherichia coli K-12', 83333],
  ['Saccharomyces cerevisiae S288C', 559292],
  ['Arabidopsis thaliana', 3702],
  ['Drosophila melanogaster', 7227],
  ['Thermus thermophilus HB8', 300852],
  ['Bos taurus', 9913],
  ['Rattus norvegicus', 10116],
  ['Mycobacterium tuberculosis H37Rv', 83332],
];
const KEYWORDS = ['HYDROLASE', 'TRANSFERASE', 'OXIDOREDUCTASE', 'SIGNALING PROTEIN', 'TRANSPORT PROTEIN', 'DNA BINDING PROTEIN', 'IMMUNE SYSTEM', 'STRUCTURAL PROTEIN', 'LYASE', 'ISOMERASE'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function randomSequence(r: () => number, n: number): string[] {
  return Array.from({ length: n }, () => {
    let x = r() * AA_TOTAL;
    for (const [aa, f] of AA_FREQ) if ((x -= f) < 0) return aa;
    return 'ALA';
  });
}

/** Helix/strand/coil runs, roughly the mix of globular proteins. */
function randomSs(r: () => number, n: number): string {
  let s = '';
  while (s.length < n) {
    const k = r();
    s += k < 0.4 ? 'H'.repeat(8 + Math.floor(r() * 14)) : k < 0.65 ? 'E'.repeat(4 + Math.floor(r() * 6)) : 'C'.repeat(2 + Math.floor(r() * 7));
  }
  return s.slice(0, n);
}

const date = (r: () => number, from: number, span: number) => new Date(Date.UTC(from, 0, 1) + Math.floor(r() * span) * 86400000).toISOString().slice(0, 10);

export interface GeneratedEntry {
  model: EntryModel;
  sifts: SiftsRow[];
}

/** Entry i of the archive of this seed; the same (seed, i) always gives the same entry. */
export function generateEntry(seed: number, i: number): GeneratedEntry {
  const r = rng((seed * 1_000_003 + i * 7919) >>> 0);
  const id = archiveId(i);
  const targetAtoms = Math.round(Math.min(110_000, Math.max(300, Math.exp(Math.log(2500) + 1.2 * gauss(r)))));
  const m = r();
  let method: Method = m < 0.84 ? 'X-RAY DIFFRACTION' : m < 0.93 ? 'ELECTRON MICROSCOPY' : 'SOLUTION NMR';
  if (method === 'SOLUTION NMR' && targetAtoms > 4000) method = 'X-RAY DIFFRACTION';
  const nPoly = Math.min(6, 1 + Math.floor(-Math.log(1 - r() * 0.999) / 0.9));
  const withRna = r() < 0.1;
  const entities: Entity[] = [];
  const instances: Instance[] = [];
  const sifts: SiftsRow[] = [];
  const grid = new SpatialGrid(4.5);
  const perEntity = targetAtoms / nPoly;
  let chainNo = 0;
  const slot = (k: number, spacing: number): Vec => [(k % 8) * spacing, (Math.floor(k / 8) % 8) * spacing, Math.floor(k / 64) * spacing];
  const built: Array<{ entityId: string; res: BuiltResidue[]; copies: number; protein: boolean }> = [];
  for (let e = 0; e < nPoly; e++) {
    const rnaEntity = withRna && e === nPoly - 1;
    const entityId = String(e + 1);
    const org = pick(r, ORGANISMS);
    if (rnaEntity) {
      const n = 8 + Math.floor(r() * 60);
      const seq = Array.from({ length: n }, () => pick(r, ['A', 'C', 'G', 'U']));
      entities.push({ kind: 'polymer', id: entityId, description: `RNA (${n}-MER)`, polyType: 'polyribonucleotide', seq, src: { kind: 'syn', organism: 'synthetic construct', taxid: 32630 } });
      built.push({ entityId, res: buildRna(seq, r), copies: 1, protein: false });
    } else {
      let len = Math.max(30, Math.min(800, Math.round(Math.exp(Math.log(220) + 0.6 * gauss(r)))));
      const copies = Math.max(1, Math.min(120, Math.round(perEntity / (len * 7.9))));
      if (copies === 1) len = Math.max(30, Math.min(800, Math.round(perEntity / 7.9)));
      const seq = randomSequence(r, len);
      entities.push({
        kind: 'polymer',
        id: entityId,
        description: `Generated protein ${id}-${entityId}`,
        polyType: 'polypeptide(L)',
        seq,
        src: { kind: 'gen', organism: org[0], taxid: org[1], host: { organism: 'Escherichia coli BL21(DE3)', taxid: 469008 } },
        uniprot: { accession: `Z9${B36[10 + (i % 26)]}${B36[Math.floor(i / 26) % 36]}${B36[(i * 7 + e) % 36]}${e % 10}`, name: `GEN${e + 1}_${id}`, begin: 1 },
      });
      built.push({ entityId, res: buildProtein(seq, randomSs(r, len), r), copies, protein: true });
    }
  }
  // place copies on a lattice, each turned at random; spacing from the largest chain
  const extent = Math.max(...built.map((b) => radiusOf(b.res)));
  const spacing = 2 * extent + 6;
  const twoChar = built.reduce((s, b) => s + b.copies, 0) > 62;
  for (const b of built) {
    for (let c = 0; c < b.copies; c++) {
      const at = slot(chainNo, spacing);
      const rot = randomRotation(r(), r(), r(), at);
      const mid = centre(b.res);
      const placed = b.res.map((res) => ({ compId: res.compId, atoms: res.atoms.map((a) => ({ ...a, xyz: apply(rot, [a.xyz[0] - mid[0], a.xyz[1] - mid[1], a.xyz[2] - mid[2]]) })) }));
      for (const res of placed) for (const a of res.atoms) grid.add(a.xyz);
      const auth = twoChar ? `${B36[10 + (Math.floor(chainNo / 36) % 26)]}${B36[chainNo % 36]}` : labelAsymId(chainNo);
      const bBase = 15 + 40 * r();
      instances.push(instance(labelAsymId(chainNo), b.entityId, auth, [placed], { polymer: true, b: () => bBase }));
      if (b.protein) {
        const n = placed.length;
        sifts.push({
          pdb: id.toLowerCase(),
          chain: auth,
          uniprot: (entities[Number(b.entityId) - 1] as { uniprot: { accession: string } }).uniprot.accession,
          resBeg: 1,
          resEnd: n,
          pdbBeg: '1',
          pdbEnd: String(n),
          spBeg: 1,
          spEnd: n,
        });
      }
      chainNo++;
    }
  }
  if (method === 'X-RAY DIFFRACTION') {
    const polymerAtoms = instances.flatMap((x) => x.residues.map((res) => ({ compId: res.compId, atoms: res.models[0]! })));
    const waters = placeWaters(polarAtoms(polymerAtoms), Math.round(atomCount(instances) * 0.08), r, grid);
    if (waters.length) {
      entities.push({ kind: 'water', id: String(entities.length + 1), compId: 'HOH', description: 'water' });
      instances.push(
        instance(labelAsymId(chainNo), String(entities.length), instances[0]!.authAsymId, [waters.map((xyz) => ({ compId: 'HOH', atoms: [{ name: 'O', element: 'O', xyz }] }))], {
          firstAuth: 1001,
          b: () => 35,
        }),
      );
    }
  }
  if (method === 'SOLUTION NMR') {
    // ten models: each chain of model 1 turned a little about its own centre (residue geometry kept)
    for (const inst of instances) {
      const c = centre(inst.residues.map((res) => ({ compId: res.compId, atoms: res.models[0]! })));
      for (let k = 1; k < 10; k++) {
        const rot = rotation([gauss(r), gauss(r), gauss(r)], 2 * gauss(r));
        const shift: Vec = [0.3 * gauss(r), 0.3 * gauss(r), 0.3 * gauss(r)];
        for (const res of inst.residues) {
          res.models.push(res.models[0]!.map((a) => ({ ...a, xyz: add(add(apply(rot, sub(a.xyz, c)), c), shift) })));
        }
      }
    }
  }
  const resolution = method === 'X-RAY DIFFRACTION' ? 1.2 + 2.2 * r() : method === 'ELECTRON MICROSCOPY' ? 2.5 + 3 * r() : 0;
  const deposit = date(r, 1995, 30 * 365);
  const release = new Date(Date.parse(deposit) + (30 + Math.floor(r() * 300)) * 86400000).toISOString().slice(0, 10);
  const xtal = method === 'X-RAY DIFFRACTION';
  const kw = pick(r, KEYWORDS);
  const model: EntryModel = {
    id,
    header: `# GENERATED by biomirror (synthetic/pdb/archive.ts, seed ${seed}): not an experimental structure.`,
    title: `GENERATED ENTRY ${id}: ${kw.toLowerCase()} with ${instances.length} chains (generated, not an experimental structure)`,
    keywords: { pdbx: kw, text: `${kw}, generated` },
    method,
    depositDate: deposit,
    revisions: [{ date: release, major: 1, minor: 0 }],
    authors: ['Generated, A.'],
    citation: { title: `Generated entry ${id}`, authors: ['Generated, A.'] },
    ...(method !== 'SOLUTION NMR'
      ? {
          cell: xtal
            ? { a: 8 * spacing, b: 8 * spacing, c: Math.max(1, Math.ceil(chainNo / 64)) * spacing, alpha: 90, beta: 90, gamma: 90, z: 1 }
            : { a: 1, b: 1, c: 1, alpha: 90, beta: 90, gamma: 90, z: 1 },
          spaceGroup: { name: 'P 1', number: 1 },
        }
      : {}),
    ...(xtal
      ? {
          xray: {
            resolution,
            resLow: 40 + 10 * r(),
            rWork: 0.15 + 0.08 * r(),
            rFree: 0.2 + 0.08 * r(),
            reflections: Math.round((4000 * atomCount(instances) ** 0.5) / resolution),
            completeness: 95 + 5 * r(),
            redundancy: 3 + 6 * r(),
            iOverSigma: 5 + 20 * r(),
          },
        }
      : {}),
    ...(method === 'ELECTRON MICROSCOPY' ? { em: { resolution, particles: 50_000 + Math.floor(r() * 500_000) } } : {}),
    ...(method === 'SOLUTION NMR'
      ? {
          nmr: {
            calculated: 100,
            submitted: 10,
            criteria: 'structures with the lowest energy',
            representative: 1,
            refinementMethod: 'simulated annealing',
            software: [{ name: 'CYANA', classification: 'structure calculation' }],
          },
        }
      : {}),
    entities,
    instances,
    assemblies: [
      {
        id: '1',
        details: 'author_defined_assembly',
        oligomericDetails: instances.length === 1 ? 'monomeric' : `${instances.filter((x) => entities[Number(x.entityId) - 1]!.kind === 'polymer').length}-meric`,
        count: instances.filter((x) => entities[Number(x.entityId) - 1]!.kind === 'polymer').length,
        gens: [{ oper: '1', asyms: instances.map((x) => x.asymId) }],
      },
    ],
    operators: [IDENTITY],
    conns: [],
  };
  return { model, sifts };
}

function centre(res: BuiltResidue[]): Vec {
  const all = res.flatMap((x) => x.atoms);
  return all.reduce<Vec>((s, a) => [s[0] + a.xyz[0] / all.length, s[1] + a.xyz[1] / all.length, s[2] + a.xyz[2] / all.length], [0, 0, 0]);
}

function radiusOf(res: BuiltResidue[]): number {
  const c = centre(res);
  return Math.max(...res.flatMap((x) => x.atoms.map((a) => Math.hypot(a.xyz[0] - c[0], a.xyz[1] - c[1], a.xyz[2] - c[2]))));
}

let componentsPromise: Promise<{ text: string; table: ComponentTable }> | undefined;
/** The dictionary for generated entries (all the components the generator can use). */
export function generatorComponents(): Promise<{ text: string; table: ComponentTable }> {
  componentsPromise ??= buildComponentsCif().then(({ text, built }) => ({ text, table: componentTable(built) }));
  return componentsPromise;
}

export interface ArchiveResult {
  ids: string[];
  atoms: number[];
  methods: string[];
  entities: number[];
  files: string[];
  bytes: number;
}

/** Writes entries [from, from+count) of the seed's archive under dir, plus components and SIFTS. */
export async function writeArchive(dir: string, count: number, seed: number, from = 0): Promise<ArchiveResult> {
  const { text, table } = await generatorComponents();
  const out: ArchiveResult = { ids: [], atoms: [], methods: [], entities: [], files: [], bytes: 0 };
  const sifts: SiftsRow[] = [];
  for (let i = from; i < from + count; i++) {
    const e = generateEntry(seed, i);
    const p = join(dir, divided(e.model.id));
    mkdirSync(dirname(p), { recursive: true });
    const gz = gzipSync(writeEntry(e.model, table), { level: 6 });
    writeFileSync(p, gz);
    out.bytes += gz.length;
    out.ids.push(e.model.id);
    out.atoms.push(atomCount(e.model.instances));
    out.methods.push(e.model.method);
    out.entities.push(e.model.entities.length);
    out.files.push(p);
    sifts.push(...e.sifts);
  }
  writeFileSync(join(dir, 'components.cif.gz'), gzipSync(text, { level: 6 }));
  writeFileSync(join(dir, 'pdb_chain_uniprot.tsv.gz'), gzipSync(siftsTsv(sifts, '2026/11/25 - 00:00'), { level: 6 }));
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, count: { type: 'string' }, seed: { type: 'string' } } });
  if (!values.out) throw new Error('--out DIR is required');
  const t0 = Date.now();
  const res = await writeArchive(values.out, Number(values.count ?? 1000), Number(values.seed ?? 1));
  const sorted = [...res.atoms].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * f))];
  const tally = (xs: Array<string | number>) =>
    [...xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string | number, number>())]
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  console.log(`${res.ids.length} entries in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${(res.bytes / 1e6).toFixed(1)} MB gzipped`);
  console.log(`atoms per entry: median ${q(0.5)}, 10% ${q(0.1)}, 90% ${q(0.9)}, max ${sorted.at(-1)}`);
  console.log(`methods: ${tally(res.methods)}`);
  console.log(`entities per entry: ${tally(res.entities)}`);
}
