/**
 * egquery: the number of records a term finds in each database. The real service counts across all
 * of Entrez; this mirror counts in the databases it serves (gene, clinvar).
 */
import type { ServiceContext } from '../../types.js';
import { DB_NAMES, backend, type DbName } from '../data.js';
import type { Params } from '../params.js';
import { errorReply, xmlReply, type Reply } from '../replies.js';
import { QuerySyntaxError, runSearch } from '../search.js';
import { DOCTYPE, el } from '../xml.js';

const MENU: Record<DbName, string> = { gene: 'Gene', clinvar: 'ClinVar' };

export async function egquery(ctx: ServiceContext, p: Params): Promise<Reply> {
  const term = p.str('term') ?? '';
  if (!term.trim()) return errorReply('egquery', 'xml', 'Empty term - nothing todo');
  const items: string[] = [];
  for (const db of DB_NAMES) {
    let count = '0';
    let status = 'Ok';
    try {
      const b = await backend(ctx, db);
      count = String((await runSearch(ctx, db, b, term, { retstart: 0, retmax: 0 })).count);
    } catch (err) {
      if (!(err instanceof QuerySyntaxError)) throw err;
      status = 'Term or Database is not found';
    }
    items.push(`\t\t<ResultItem>\n\t\t\t${el('DbName', db)}\n\t\t\t${el('MenuName', MENU[db])}\n\t\t\t${el('Count', count)}\n\t\t\t${el('Status', status)}\n\t\t</ResultItem>\n`);
  }
  return xmlReply(`<?xml version="1.0"?>\n${DOCTYPE.egquery}\n<Result>\n\t${el('Term', term)}\n\t<eGQueryResult>\n${items.join('')}\t</eGQueryResult>\n</Result>\n`);
}
