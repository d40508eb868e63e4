/**
 * Updates of the NCBI data. NCBI regenerates gene_info and the gene2* files every day and lists the
 * GeneIDs it withdrew in gene_history (`Discontinued_GeneID`, cumulative); ClinVar republishes
 * variant_summary, var_citations and the VCV XML every week (the weekly_release folder) and lists
 * no deleted variations. Each file kind replaces its own part of a record: a gene's gene2go lines
 * replace its GO rows only. The search postings of the replaced parts are dropped by sub-field.
 */
import type { ReadContext } from '../../core/ingest/dataset.js';
import { FormatError } from '../../core/ingest/errors.js';
import { baseName, lines, openInput } from '../../core/ingest/inputs.js';
import type { Sourced } from '../../core/ingest/load.js';
import type { Deletions, Updates } from '../../core/ingest/updates.js';
import type { ClinvarRecord } from './clinvar/records.js';
import { G } from './gene/fields.js';
import type { GeneRecord } from './gene/records.js';
import { indexTables, reopenIndex } from './search/index.js';

const postings = (fields: readonly number[]) => ({ columns: 'id', where: `f IN (${fields.join(', ')})` });

/** gene_history: `#tax_id GeneID Discontinued_GeneID Discontinued_Symbol Discontinue_Date`. */
const geneHistory: Deletions = {
  file: (path) => baseName(path) === 'gene_history',
  parts: ['gene', 'refseq', 'pubmed', 'go', 'condition'],
  async *read(path: string, ctx: ReadContext) {
    let column = -1;
    for await (const { line, no } of lines(openInput(path))) {
      const cells = line.split('\t');
      if (column < 0) {
        column = cells.map((c) => c.replace(/^#/, '').trim()).indexOf('Discontinued_GeneID');
        if (column < 0) throw new FormatError(`${path}: not gene_history (no Discontinued_GeneID column)`);
        continue;
      }
      const v = cells[column]?.trim() ?? '';
      if (/^\d{1,12}$/.test(v)) yield { id: Number(v), place: { file: path, position: no } };
      else if (v) ctx.skip({ file: path, position: `line ${no}` }, `"${v.slice(0, 40)}" is not a GeneID`);
    }
  },
};

const GENE_FIELDS = [G.GENE, G.PREF, G.TID, G.CHR, G.MAP, G.DESC, G.DESIG, G.MIM, G.PROP];
const GO_FIELDS = [G.GO_BP_ID, G.GO_BP_NAME, G.GO_MF_ID, G.GO_MF_NAME, G.GO_CC_ID, G.GO_CC_NAME];

function geneKey(r: GeneRecord): { part: string; id: string | number } {
  switch (r.kind) {
    case 'gene':
      return { part: 'gene', id: r.gene.geneId };
    case 'refseq':
    case 'go':
    case 'condition':
      return { part: r.kind, id: r.row.geneId };
    case 'pubmed':
      return { part: 'pubmed', id: r.geneId };
    case 'taxname':
      return { part: 'taxname', id: r.taxId };
    case 'seqlen':
      return { part: 'seqlen', id: r.accession };
  }
}

export const geneUpdates: Updates<Sourced<GeneRecord>> = {
  noun: 'genes',
  parts: {
    gene: { genes: 'gene_id', rawpost: postings(GENE_FIELDS) },
    refseq: { refseq: 'gene_id', rawpost: postings([G.ACCN]) },
    pubmed: { pubmed: 'gene_id' },
    go: { go: 'gene_id', rawpost: postings(GO_FIELDS) },
    condition: { conditions: 'gene_id', rawpost: postings([G.DIS_KW, G.DIS_TEXT]) },
    taxname: { taxnames: 'tax_id' },
    seqlen: { seqlen: 'accession' },
  },
  key: ({ value }) => geneKey(value),
  derived: ['rawpost', 'rank', 'post', 'terms'],
  deletions: geneHistory,
  afterCopy: (db, from, to) => reopenIndex(db, indexTables(from), indexTables(to)),
};

export const clinvarUpdates: Updates<Sourced<ClinvarRecord>> = {
  noun: 'variations',
  parts: {
    row: { rows: 'variation_id', rawpost: 'id' },
    citation: { citations: 'variation_id' },
    vcv: { vcv: 'variation_id' },
  },
  key: ({ value: r }) => ({ part: r.kind, id: r.kind === 'row' ? r.row.variationId : r.variationId }),
  derived: ['rawpost', 'rank', 'post', 'terms'],
  afterCopy: (db, from, to) => reopenIndex(db, indexTables(from), indexTables(to)),
};
