/**
 * How selective the substructure screen is, against the one a stronger screen would give: for each
 * query, how many compounds of an SD file pass the screen on PubChem's keys (what the search uses,
 * `chem/subskeys-screen.ts`), how many pass RDKit's pattern fingerprint (2,048 bits, made for
 * substructure screening), and how many RDKit matches; and what a pattern fingerprint costs to
 * compute from a stored SMILES (what a pass over the loaded compounds would pay per compound),
 * beside reading the SMILES alone.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json
 *   node dist-bench/bench/pubchem-pattern-screen.js --sdf <Compound SD file (.sdf.gz)> [--limit 20000] [SMILES ...]
 *
 * Without SMILES: benzoic acid, pyridine, benzene and an amide. The file must carry
 * PUBCHEM_CACTVS_SUBSKEYS (PubChem's own files, test/fixtures/pubchem/real-subskeys.sdf.gz, or files
 * written by `biomirror pubchem sdf`).
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';

const { values, positionals } = parseArgs({ options: { sdf: { type: 'string' }, limit: { type: 'string' } }, allowPositionals: true });
if (!values.sdf) throw new Error('--sdf <Compound SD file> is required');
const LIMIT = Number(values.limit ?? 20_000);
const QUERIES = positionals.length ? positionals : ['OC(=O)c1ccccc1', 'c1ccncc1', 'c1ccccc1', 'C(=O)N'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const dist = (p: string): Promise<Any> => import(join(ROOT, 'dist', p));

// As the matching threads read compounds (core/chem/match-worker.mjs).
const FOR_MATCHING = JSON.stringify({ removeHs: false, assignStereo: false });
const PATTERN = JSON.stringify({ nBits: 2048 });

const covers = (a: Uint8Array, b: Uint8Array) => {
  for (let i = 0; i < b.length; i++) if (((a[i] as number) & (b[i] as number)) !== b[i]) return false;
  return true;
};

async function main(): Promise<void> {
  const { rdkit, parseMol } = await dist('services/pubchem/chem/rdkit.js');
  const { subskeysEngine } = await dist('services/pubchem/chem/subskeys-engine.js');
  const { screenKeys } = await dist('services/pubchem/chem/subskeys-screen.js');
  const { decodeSubskeys } = await dist('services/pubchem/chem/subskeys-codec.js');
  const { sdfRecords } = await dist('services/pubchem/ingest/sdf-stream.js');
  const r = await rdkit();
  const keysOf = await subskeysEngine();

  const compounds: { smiles: string; keys: Uint8Array }[] = [];
  for await (const item of sdfRecords(createReadStream(values.sdf as string).pipe(createGunzip())) as AsyncIterable<{ record: string | { tags: Map<string, string> } }>) {
    if (typeof item.record === 'string') continue;
    const keys = decodeSubskeys(item.record.tags.get('PUBCHEM_CACTVS_SUBSKEYS') ?? '');
    const smiles = item.record.tags.get('PUBCHEM_SMILES') ?? item.record.tags.get('PUBCHEM_OPENEYE_ISO_SMILES');
    if (typeof keys === 'string' || !smiles) continue;
    compounds.push({ smiles, keys });
    if (compounds.length >= LIMIT) break;
  }
  log(`${compounds.length} compounds with keys and SMILES`);

  const mols = () => compounds.map((c) => r.get_mol(c.smiles, FOR_MATCHING));
  let t0 = performance.now();
  for (const m of mols()) m?.delete();
  const readUs = ((performance.now() - t0) * 1000) / compounds.length;
  t0 = performance.now();
  const patterns = mols().map((m) => {
    if (!m) return undefined;
    const fp = m.get_pattern_fp_as_uint8array(PATTERN) as Uint8Array;
    m.delete();
    return fp;
  });
  const patternUs = ((performance.now() - t0) * 1000) / compounds.length;

  const rows = [];
  for (const smiles of QUERIES) {
    const q = r.get_mol(smiles, JSON.stringify({ removeHs: true }));
    const parsed = parseMol(r, smiles);
    if (!q || !parsed) throw new Error(`RDKit cannot read ${smiles}`);
    const screen = screenKeys(keysOf(parsed)) as Uint8Array;
    const qPattern = q.get_pattern_fp_as_uint8array(PATTERN) as Uint8Array;
    let keysPass = 0;
    let patternPass = 0;
    let matches = 0;
    let patternMissed = 0;
    compounds.forEach((c, i) => {
      if (covers(c.keys, screen)) keysPass++;
      const p = patterns[i];
      const passes = p !== undefined && covers(p, qPattern);
      if (passes) patternPass++;
      const m = r.get_mol(c.smiles, FOR_MATCHING);
      const hit = !!m && m.get_substruct_match(q) !== '{}';
      m?.delete();
      if (hit) matches++;
      if (hit && !passes) patternMissed++;
    });
    q.delete();
    const row = { query: smiles, keysPass, patternPass, matches, patternMissed, keysPrecision: round(matches / keysPass), patternPrecision: round(matches / patternPass) };
    log(JSON.stringify(row));
    rows.push(row);
  }
  console.table(rows);
  writeResults('pubchem-pattern-screen', { machine: machine(), file: values.sdf, compounds: compounds.length, readSmilesUs: round(readUs), readAndPatternUs: round(patternUs), rows });
}

runMain(main);
