/** Variations as the renderers see them: their variant_summary lines, citations and VCV XML. */
import type { TableSet } from '../../../core/ingest/dataset.js';
import { ident, type Db } from '../../../core/store/db.js';
import type { SummaryRow } from './records.js';
import { clinvarTables } from './store.js';

export interface VariantView {
  variationId: number;
  /** One line per allele and assembly, in file order (GRCh37 before GRCh38 as ClinVar writes them). */
  rows: SummaryRow[];
  citations: { source: string; id: string }[];
  /** The VariationArchive of the VCV release, when it was loaded. */
  vcv: string | undefined;
}

const CHUNK = 500;
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export async function loadVariants(db: Db, t: TableSet, ids: readonly number[], opts: { vcv?: boolean } = {}): Promise<Map<number, VariantView>> {
  const n = clinvarTables(t);
  const out = new Map<number, VariantView>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const rows = await db.query<{ variation_id: number; doc: string }>(`SELECT variation_id, doc FROM ${ident(n.rows)} WHERE variation_id IN (${marks(part.length)}) ORDER BY variation_id, seq`, part);
    for (const r of rows) {
      const id = Number(r.variation_id);
      let v = out.get(id);
      if (!v) out.set(id, (v = { variationId: id, rows: [], citations: [], vcv: undefined }));
      v.rows.push(JSON.parse(r.doc) as SummaryRow);
    }
    const cites = await db.query<{ variation_id: number; source: string; citation_id: string }>(
      `SELECT DISTINCT variation_id, source, citation_id FROM ${ident(n.citations)} WHERE variation_id IN (${marks(part.length)}) ORDER BY variation_id, source, citation_id`,
      part,
    );
    for (const c of cites) out.get(Number(c.variation_id))?.citations.push({ source: c.source, id: c.citation_id });
    if (opts.vcv) {
      const xs = await db.query<{ variation_id: number; xml: string }>(`SELECT variation_id, xml FROM ${ident(n.vcv)} WHERE variation_id IN (${marks(part.length)})`, part);
      for (const x of xs) {
        const v = out.get(Number(x.variation_id));
        if (v) v.vcv = x.xml;
      }
    }
  }
  return out;
}
