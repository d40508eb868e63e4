/**
 * Regenerates the generated files of the RCSB PDB demo archive (src/services/pdb/demo/)
 * deterministically: the chemical component dictionary, the SIFTS mapping, the generated entries
 * and their structure factors. The real 4HHB entry is copied in only when its file is given:
 *
 *   node dist-bench/synthetic/pdb/make-demo.js [--4hhb path/to/4hhb.cif] [--out src/services/pdb/demo] [--templates]
 *
 * (--templates first remakes residue-templates.json with OpenChemLib, which takes minutes.)
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildComponentsCif, type BuiltComponent } from './components.js';
import { SIFTS_4HHB, siftsTsv, type SiftsRow } from './sifts.js';
import { demoModels } from './demo-entries.js';
import { writeTemplates } from './templates.js';
import { componentIdsOf, divided, sfPath, writeEntry, type ComponentTable } from './entry-writer.js';

/** gzip with no name and mtime 0, so the same text always gives the same bytes. */
export function gz(text: string | Buffer): Buffer {
  return gzipSync(typeof text === 'string' ? Buffer.from(text) : text, { level: 9 });
}

function write(path: string, data: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

/** The SIFTS file date written into the demo (fixed, so output is deterministic). */
export const DEMO_SIFTS_DATE = '2026/11/25 - 00:00';

/** The components 4HHB's own `_chem_comp` lists. */
export const HHB_COMPONENTS = ['ALA', 'ARG', 'ASN', 'ASP', 'CYS', 'GLN', 'GLU', 'GLY', 'HIS', 'LEU', 'LYS', 'MET', 'PHE', 'PRO', 'SER', 'THR', 'TRP', 'TYR', 'VAL', 'HEM', 'PO4', 'HOH'];

export function componentTable(built: BuiltComponent[]): ComponentTable {
  return new Map(
    built.map((b) => [
      b.def.id,
      {
        type: b.def.type,
        name: b.def.name,
        formula: b.formula,
        weight: b.weight,
        ...(b.def.oneLetter ? { oneLetter: b.def.oneLetter } : {}),
        ...(b.def.synonyms ? { synonyms: b.def.synonyms } : {}),
      },
    ]),
  );
}

export async function makeDemo(out: string, real4hhb?: string): Promise<string[]> {
  const written: string[] = [];
  const hhbPath = join(out, 'archive', divided('4HHB'));
  if (real4hhb) {
    write(hhbPath, gz(readFileSync(real4hhb)));
    written.push(hhbPath);
  }
  if (!existsSync(hhbPath)) throw new Error(`${hhbPath} missing: pass --4hhb with the archive's 4hhb.cif`);

  const models = demoModels();
  const used = new Set<string>(HHB_COMPONENTS);
  for (const d of models) for (const id of componentIdsOf(d.model)) used.add(id);
  const { text, built } = await buildComponentsCif(used);
  write(join(out, 'components.cif.gz'), gz(text));
  const table = componentTable(built);
  const sifts: SiftsRow[] = [...SIFTS_4HHB];
  for (const d of models) {
    const p = join(out, 'archive', divided(d.model.id));
    write(p, gz(writeEntry(d.model, table)));
    written.push(p);
    if (d.structureFactors) {
      const sp = join(out, sfPath(d.model.id));
      write(sp, gz(d.structureFactors));
      written.push(sp);
    }
    sifts.push(...d.sifts);
  }
  write(join(out, 'pdb_chain_uniprot.tsv.gz'), gz(siftsTsv(sifts, DEMO_SIFTS_DATE)));
  written.push(join(out, 'components.cif.gz'), join(out, 'pdb_chain_uniprot.tsv.gz'));
  return written;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--templates')) writeTemplates();
  const out = arg('--out') ?? 'src/services/pdb/demo';
  const files = await makeDemo(out, arg('--4hhb'));
  for (const f of files) console.log(f);
}
