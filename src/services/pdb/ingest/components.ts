import type { Dataset, ReadContext, TableSet } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, lines, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db } from '../../../core/store/db.js';
import { readBlock } from '../../../core/mmcif/block-reader.js';
import { chemCompDocument } from '../documents/chem-comp.js';
import { SEARCH_TABLES, buildChemIndex } from '../search/build/indexer.js';
import { CCD_PREFIX, CCD_TABLES, COMPONENTS, SERVICE, countTable, createCcd, type ComponentBond } from '../store/tables.js';

export interface ComponentRecord {
  id: string;
  doc: Record<string, unknown>;
  /** `chem_comp_bond`'s atom pairs: what a legacy file's CONECT records list within a HET group. */
  bonds: ComponentBond[];
}

function bondsOf(block: Awaited<ReturnType<typeof readBlock>>): ComponentBond[] {
  const t = block.table('chem_comp_bond');
  const out: ComponentBond[] = [];
  for (let r = 0; r < t.rows; r++) {
    const a = t.str('atom_id_1', r);
    const b = t.str('atom_id_2', r);
    if (a && b) out.push([a, b]);
  }
  return out;
}

/**
 * The chemical component dictionary (`components.cif.gz`, tens of thousands of data blocks): read
 * block by block, each parsed alone, so memory stays that of one component.
 */
async function* read(input: string, ctx: ReadContext): AsyncGenerator<Sourced<ComponentRecord>> {
  const files = (await listInputs(input)).filter((f) => /\.cif(\.gz)?$/i.test(f.path));
  if (files.length === 0) throw new FormatError(`${input}: no chemical component dictionary (.cif or .cif.gz) found`);
  const bytes = new ByteProgress(
    files.reduce((s, f) => s + f.size, 0),
    (f) => ctx.progress(f),
  );
  for (const file of files) {
    let block: string[] = [];
    let startLine = 0;
    let blocks = 0;
    const flush = async function* (): AsyncGenerator<Sourced<ComponentRecord>> {
      if (block.length === 0) return;
      const text = block.join('\n');
      block = [];
      const place = { file: file.path, position: startLine };
      try {
        const parsed = await readBlock(text);
        const doc = chemCompDocument(parsed);
        if (!doc) {
          ctx.skip(place, 'a data block without a _chem_comp.id');
          return;
        }
        yield { value: { id: String(doc.rcsb_id), doc, bonds: bondsOf(parsed) }, place };
      } catch (err) {
        ctx.skip(place, `unreadable component: ${(err as Error).message}`);
      }
    };
    try {
      for await (const { line, no } of lines(openInput(file.path, bytes))) {
        if (line.startsWith('data_')) {
          yield* flush();
          startLine = no;
          blocks++;
        }
        if (blocks > 0) block.push(line);
      }
    } catch (err) {
      // A truncated gzip: what was read stands, the rest is reported.
      ctx.skip({ file: file.path, position: startLine }, `file ends early: ${(err as Error).message}`);
      block = [];
    }
    yield* flush();
    if (blocks === 0) throw new FormatError(`${file.path}: not an mmCIF dictionary (no data_ blocks)`);
  }
}

async function write(tx: Db, t: TableSet, batch: readonly Sourced<ComponentRecord>[]): Promise<readonly number[]> {
  const seen = new Set<string>();
  const dupes: number[] = [];
  const firsts: ComponentRecord[] = [];
  batch.forEach(({ value }, i) => {
    if (seen.has(value.id)) dupes.push(i);
    else {
      seen.add(value.id);
      firsts.push(value);
    }
  });
  const existing = await tx.query<{ comp_id: string }>(
    `SELECT comp_id FROM "${t.name('comps')}" WHERE comp_id IN (${firsts.map(() => '?').join(',') || "''"})`,
    firsts.map((c) => c.id),
  );
  const taken = new Set(existing.map((r) => r.comp_id));
  const fresh = firsts.filter((c) => !taken.has(c.id));
  batch.forEach(({ value }, i) => {
    if (taken.has(value.id) && !dupes.includes(i)) dupes.push(i);
  });
  await tx.insertMany(
    t.name('comps'),
    ['comp_id', 'doc'],
    fresh.map((c) => [c.id, JSON.stringify(c.doc)]),
  );
  await tx.insertMany(
    t.name('comp_bonds'),
    ['comp_id', 'bonds'],
    fresh.filter((c) => c.bonds.length).map((c) => [c.id, JSON.stringify(c.bonds)]),
  );
  return dupes;
}

export function componentsDataset(demo: string): Dataset<Sourced<ComponentRecord>> {
  return {
    service: SERVICE,
    name: COMPONENTS,
    tablePrefix: CCD_PREFIX,
    tables: CCD_TABLES,
    batchSize: 500,
    demo,
    read,
    create: createCcd,
    write,
    finish: buildChemIndex,
    count: (db, t) => countTable(db, t, 'comps'),
    // The dictionary is republished whole; an obsolete component stays in it (its status says so),
    // so an update replaces the components it holds and removes none. The search index is rebuilt.
    updates: {
      noun: 'components',
      parts: { component: { comps: 'comp_id', comp_bonds: 'comp_id' } },
      key: ({ value }) => ({ part: 'component', id: value.id }),
      derived: SEARCH_TABLES,
    },
  };
}
