/**
 * Lays the members harvested from the API (ingest/details.ts) over the records they belong to,
 * before any document is derived: the derivation then treats them as if the downloads had them.
 * A harvested member wins over the same member read from a file, being the API's current answer.
 */
import type { DetailRow, DetailType, Kind, KindRows } from '../../records.js';

type Read = <K extends Kind>(kind: K) => Promise<KindRows[K][]>;

/** How a record of each type is named by a detail's key (variants by rsid, the rest by accession). */
const KEY_OF: { [T in DetailType]: (row: KindRows[T]) => string } = {
  gene: (r) => r.id,
  chemical: (r) => r.id,
  variant: (r) => r.rsid,
  label: (r) => r.id,
  pathway: (r) => r.id,
  guideline: (r) => r.id,
};

const isDetailType = (k: Kind): k is DetailType => Object.prototype.hasOwnProperty.call(KEY_OF, k);

/** A reader of records with the harvested details laid over them. */
export function withDetails(read: Read, details: readonly DetailRow[]): Read {
  if (details.length === 0) return read;
  const byRecord = new Map<string, DetailRow[]>();
  for (const d of details) {
    const id = `${d.type}\t${d.key.toLowerCase()}`;
    const list = byRecord.get(id) ?? [];
    list.push(d);
    byRecord.set(id, list);
  }
  return async <K extends Kind>(kind: K): Promise<KindRows[K][]> => {
    const rows = await read(kind);
    if (!isDetailType(kind)) return rows;
    const keyOf = KEY_OF[kind] as (row: KindRows[K]) => string;
    return rows.map((row) => {
      const found = byRecord.get(`${kind}\t${keyOf(row).toLowerCase()}`);
      if (!found) return row;
      const out: Record<string, unknown> = { ...(row as object) };
      for (const d of found) out[d.field] = d.value;
      return out as unknown as KindRows[K];
    });
  };
}
