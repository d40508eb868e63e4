import type { Entry } from '../../../core/mmcif/block-reader.js';
import { categoryPlans } from './schema.js';

/**
 * The Data API's short journal name: the abbreviation without its dots, each word capitalised
 * ("J.Mol.Biol." → "J Mol Biol"), which is how it normalises ISO abbreviations.
 */
export function journalAbbrev(abbrev: string): string {
  return abbrev
    .replace(/\./g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ');
}

export interface Citations {
  all: Record<string, unknown>[];
  primary: Record<string, unknown> | undefined;
  pubmedId: number | undefined;
  doi: string | undefined;
}

/** `citation` with the RCSB's additions (authors, primary flag, journal), and the primary one. */
export function citations(entry: Entry): Citations {
  const plan = categoryPlans('entry').get('citation');
  const table = entry.table('citation');
  const authors = entry.table('citation_author');
  const byCitation = new Map<string, { name: string; ordinal: number; orcid: string }[]>();
  for (let r = 0; r < authors.rows; r++) {
    const cid = authors.str('citation_id', r) ?? '';
    const name = authors.str('name', r);
    if (!name) continue;
    let list = byCitation.get(cid);
    if (!list) byCitation.set(cid, (list = []));
    list.push({ name, ordinal: authors.int('ordinal', r) ?? list.length + 1, orcid: authors.str('identifier_ORCID', r) ?? '?' });
  }
  const all: Record<string, unknown>[] = [];
  let primary: Record<string, unknown> | undefined;
  if (plan) {
    const rows = table.json(plan);
    for (const c of rows) {
      const list = (byCitation.get(String(c.id)) ?? []).sort((a, b) => a.ordinal - b.ordinal);
      if (list.length > 0) c.rcsb_authors = list.map((a) => a.name);
      c.rcsb_is_primary = c.id === 'primary' ? 'Y' : 'N';
      if (typeof c.journal_abbrev === 'string') c.rcsb_journal_abbrev = journalAbbrev(c.journal_abbrev);
      all.push(c);
      if (c.id === 'primary') {
        const { rcsb_is_primary: _flag, ...rest } = c;
        primary = { ...rest };
        if (list.length > 0) primary.rcsb_ORCID_identifiers = list.map((a) => a.orcid);
      }
    }
  }
  const pm = primary?.pdbx_database_id_PubMed;
  const doi = primary?.pdbx_database_id_DOI;
  return {
    all,
    primary,
    pubmedId: typeof pm === 'number' && pm > 0 ? pm : undefined,
    doi: typeof doi === 'string' ? doi : undefined,
  };
}
