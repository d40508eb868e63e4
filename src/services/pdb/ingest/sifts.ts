import type { Dataset, ReadContext, TableSet } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, lines, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { SERVICE, SIFTS, SIFTS_PREFIX, SIFTS_TABLES, countTable, createSifts, finishSifts } from '../store/tables.js';

export interface SiftsRecord {
  entry: string;
  chain: string;
  accession: string;
  resBeg: number | null;
  resEnd: number | null;
  pdbBeg: string | null;
  pdbEnd: string | null;
  spBeg: number | null;
  spEnd: number | null;
}

const COLUMNS = ['PDB', 'CHAIN', 'SP_PRIMARY', 'RES_BEG', 'RES_END', 'PDB_BEG', 'PDB_END', 'SP_BEG', 'SP_END'];
const int = (v: string | undefined): number | null => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : null);

/** SIFTS `pdb_chain_uniprot.tsv(.gz)`: a dated comment line, a header, then one row per chain segment. */
async function* read(input: string, ctx: ReadContext): AsyncGenerator<Sourced<SiftsRecord>> {
  const files = await listInputs(input);
  const bytes = new ByteProgress(
    files.reduce((s, f) => s + f.size, 0),
    (f) => ctx.progress(f),
  );
  for (const file of files) {
    let header: string[] | undefined;
    for await (const { line, no } of lines(openInput(file.path, bytes))) {
      if (line.startsWith('#')) {
        const date = /^#\s*(\d{4})\/(\d{2})\/(\d{2})/.exec(line);
        if (date) ctx.release(`${date[1]}-${date[2]}-${date[3]}`);
        continue;
      }
      if (line.trim() === '') continue;
      const cells = line.split('\t');
      if (!header) {
        header = cells.map((c) => c.trim().toUpperCase());
        if (!COLUMNS.every((c) => header?.includes(c))) throw new FormatError(`${file.path}: not a SIFTS pdb_chain_uniprot table (expected columns ${COLUMNS.join(', ')})`);
        continue;
      }
      const at = (name: string) => cells[header?.indexOf(name) ?? -1]?.trim();
      const entry = (at('PDB') ?? '').toUpperCase();
      const chain = at('CHAIN') ?? '';
      const accession = at('SP_PRIMARY') ?? '';
      if (!/^[0-9][A-Z0-9]{3}$/.test(entry) || !chain || !accession) {
        ctx.skip({ file: file.path, position: no }, 'a row without an entry id, chain and UniProt accession');
        continue;
      }
      yield {
        value: {
          entry,
          chain,
          accession,
          resBeg: int(at('RES_BEG')),
          resEnd: int(at('RES_END')),
          pdbBeg: at('PDB_BEG') ?? null,
          pdbEnd: at('PDB_END') ?? null,
          spBeg: int(at('SP_BEG')),
          spEnd: int(at('SP_END')),
        },
        place: { file: file.path, position: no },
      };
    }
  }
}

async function write(tx: Db, t: TableSet, batch: readonly Sourced<SiftsRecord>[]): Promise<readonly number[]> {
  const rows: SqlValue[][] = batch.map(({ value: v }) => [v.entry, v.chain, v.accession, v.resBeg, v.resEnd, v.pdbBeg, v.pdbEnd, v.spBeg, v.spEnd]);
  await tx.insertMany(t.name('chains'), ['entry_id', 'chain', 'accession', 'res_beg', 'res_end', 'pdb_beg', 'pdb_end', 'sp_beg', 'sp_end'], rows);
  return [];
}

export function siftsDataset(demo: string): Dataset<Sourced<SiftsRecord>> {
  return {
    service: SERVICE,
    name: SIFTS,
    tablePrefix: SIFTS_PREFIX,
    tables: SIFTS_TABLES,
    batchSize: 5000,
    demo,
    read,
    create: createSifts,
    write,
    finish: finishSifts,
    count: (db, t) => countTable(db, t, 'chains'),
    // SIFTS republishes the whole mapping each week and lists nothing as removed: an update's lines
    // replace the chains of the entries they name.
    updates: {
      noun: 'entries',
      parts: { entry: { chains: 'entry_id' } },
      key: ({ value }) => ({ part: 'entry', id: value.entry }),
    },
  };
}
