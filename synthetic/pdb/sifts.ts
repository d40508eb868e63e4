/**
 * SIFTS `pdb_chain_uniprot.tsv` rows (the EBI file that maps PDB chains to UniProt ranges): a
 * comment line with the date and counts, then a header and one row per chain segment.
 */

export interface SiftsRow {
  pdb: string;
  chain: string;
  uniprot: string;
  resBeg: number;
  resEnd: number;
  pdbBeg: string;
  pdbEnd: string;
  spBeg: number;
  spEnd: number;
}

export const SIFTS_HEADER = ['PDB', 'CHAIN', 'SP_PRIMARY', 'RES_BEG', 'RES_END', 'PDB_BEG', 'PDB_END', 'SP_BEG', 'SP_END'].join('\t');

/** The file text; `date` is written as SIFTS writes it (`# 2024/01/31 - 12:00 | ...`). */
export function siftsTsv(rows: SiftsRow[], date: string): string {
  const pdbs = new Set(rows.map((r) => r.pdb)).size;
  const uniprots = new Set(rows.map((r) => r.uniprot)).size;
  const lines = [`# ${date} | PDB: ${pdbs} | UniProt: ${uniprots}`, SIFTS_HEADER];
  for (const r of rows) {
    lines.push([r.pdb.toLowerCase(), r.chain, r.uniprot, r.resBeg, r.resEnd, r.pdbBeg, r.pdbEnd, r.spBeg, r.spEnd].join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/** 4HHB as SIFTS maps it: alpha chains A, C to P69905 and beta chains B, D to P68871 (initiator Met not in the entry). */
export const SIFTS_4HHB: SiftsRow[] = [
  { pdb: '4hhb', chain: 'A', uniprot: 'P69905', resBeg: 1, resEnd: 141, pdbBeg: '1', pdbEnd: '141', spBeg: 2, spEnd: 142 },
  { pdb: '4hhb', chain: 'B', uniprot: 'P68871', resBeg: 1, resEnd: 146, pdbBeg: '1', pdbEnd: '146', spBeg: 2, spEnd: 147 },
  { pdb: '4hhb', chain: 'C', uniprot: 'P69905', resBeg: 1, resEnd: 141, pdbBeg: '1', pdbEnd: '141', spBeg: 2, spEnd: 142 },
  { pdb: '4hhb', chain: 'D', uniprot: 'P68871', resBeg: 1, resEnd: 146, pdbBeg: '1', pdbEnd: '146', spBeg: 2, spEnd: 147 },
];
