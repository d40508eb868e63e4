/** A gene's cross-references, as the gene_info bulk file's dbXrefs column lists them. */
import { cellList } from '../text.js';

/** dbXrefs cells ("MIM:113705|HGNC:HGNC:1100") as database and identifier pairs. */
export function xrefs(dbXrefs: string): { db: string; value: string }[] {
  return cellList(dbXrefs).flatMap((x) => {
    const k = x.indexOf(':');
    return k > 0 ? [{ db: x.slice(0, k), value: x.slice(k + 1) }] : [];
  });
}
