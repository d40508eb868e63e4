/** Pieces several operations share: identifier lists, list keys, grouped lists and activity tables. */
import type { Output } from '../output/formats.js';
import { csvTable, txtLines } from '../output/formats.js';
import { renderDoc, type Answer } from '../output/render.js';
import { listReturn } from '../options.js';
import type { Options } from '../request.js';
import type { Env } from '../resolve.js';
import type { ActivityRow, AssayRow } from '../store/assays.js';
import { pcErrors } from '../errors.js';
import type { ListDomain } from '../search/listkeys.js';

export type IdName = 'CID' | 'SID' | 'AID';
const LIST_DOMAIN: Record<IdName, ListDomain> = { CID: 'compound', SID: 'substance', AID: 'assay' };

/** `{"IdentifierList": {"CID": [...]}}`, or its list key with `list_return=listkey`. */
export async function identifierList(env: Env, name: IdName, ids: number[], output: Output, options: Options): Promise<Answer> {
  if (listReturn(options) === 'listkey') {
    const key = await env.listkeys.create(LIST_DOMAIN[name], ids, Date.now());
    return renderDoc({ IdentifierList: { Size: ids.length, ListKey: key } }, output, options);
  }
  return renderDoc({ IdentifierList: { [name]: ids } }, output, options, { TXT: () => txtLines(ids) });
}

/**
 * Identifiers linked to each input identifier: grouped by input (`InformationList`, the default
 * across domains) or flattened to the unique set (`list_return=flat`, implied by TXT).
 */
export async function linkedList(env: Env, from: IdName, to: IdName, groups: [number, number[]][], output: Output, options: Options, what: string): Promise<Answer> {
  const withLinks = groups.filter(([, ids]) => ids.length);
  if (!withLinks.length) throw pcErrors.notFound(`No ${what} found`, `No ${what} are linked to the given ${from}(s)`);
  const mode = listReturn(options);
  if (mode === 'flat' || mode === 'listkey' || output === 'TXT') {
    const flat = [...new Set(withLinks.flatMap(([, ids]) => ids))];
    return identifierList(env, to, flat, output, options);
  }
  return renderDoc({ InformationList: { Information: withLinks.map(([id, ids]) => ({ [from]: id, [to]: ids })) } }, output, options);
}

export const SUMMARY_COLUMNS = [
  'AID',
  'Panel Member ID',
  'SID',
  'CID',
  'Activity Outcome',
  'Target Accession',
  'Target GeneID',
  'Activity Value [uM]',
  'Activity Name',
  'Assay Name',
  'Assay Type',
  'PubMed ID',
  'RNAi',
];

/** Bioactivity rows as PubChem's `Table` (`assaysummary`; `concise` has no Panel Member ID). */
export function activityTable(rows: ActivityRow[], assays: Map<number, AssayRow>, output: Output, options: Options, panelColumn: boolean): Answer {
  const columns = panelColumn ? SUMMARY_COLUMNS : SUMMARY_COLUMNS.filter((c) => c !== 'Panel Member ID');
  const values = rows.map((r) => {
    const a = assays.get(r.aid);
    const full: (string | number | null)[] = [
      r.aid,
      null,
      r.sid,
      r.cid,
      r.outcome,
      r.accession || null,
      r.gene_id || null,
      r.value,
      r.name || null,
      a?.name ?? null,
      a?.type ?? null,
      r.pmid || null,
      null,
    ];
    return panelColumn ? full : full.filter((_, i) => i !== 1);
  });
  const doc = { Table: { Columns: { Column: columns }, Row: values.map((v) => ({ Cell: v.map((x) => (x === null ? '' : String(x))) })) } };
  return renderDoc(doc, output, options, { CSV: () => csvTable(columns, values) });
}
