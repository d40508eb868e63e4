/**
 * Holdings status of entries (the Data API's `holdings/status`, read by BioJava's PDBStatus): a
 * loaded entry is CURRENT/REL. The archive load keeps no record of removed or unreleased entries
 * (obsolete.dat only drives deletions), so those, and unknown ids, have no status here.
 */
import type { PdbData } from '../store/pdb-data.js';

export interface HoldingsStatus {
  rcsb_id: string;
  rcsb_repository_holdings_combined: { status: 'CURRENT'; status_code: 'REL' };
  rcsb_repository_holdings_combined_entry_container_identifiers: { entry_id: string };
}

/** Most ids one `holdings/status?ids=` request may name. */
export const MAX_STATUS_IDS = 1000;

const ENTRY_ID = /^[0-9][A-Za-z0-9]{3}$/;

/** Status of each loaded entry among the ids, in the order asked; unknown and malformed ids are left out. */
export async function holdingsStatus(data: PdbData, ids: readonly string[]): Promise<HoldingsStatus[]> {
  const wanted = [...new Set(ids.map((i) => i.trim().toUpperCase()).filter((i) => ENTRY_ID.test(i)))];
  if (!wanted.length) return [];
  const found = await data.entries(wanted);
  return wanted
    .filter((id) => found.has(id))
    .map((id) => ({
      rcsb_id: id,
      rcsb_repository_holdings_combined: { status: 'CURRENT', status_code: 'REL' },
      rcsb_repository_holdings_combined_entry_container_identifiers: { entry_id: id },
    }));
}
