/**
 * espell: spelling suggestions for a search term. The real service corrects against PubMed's and
 * each database's vocabularies, which no bulk file carries; this mirror suggests no corrections:
 * the corrected query is the query as given, each word kept as `Original`.
 */
import type { ServiceContext } from '../../types.js';
import type { Params } from '../params.js';
import { xmlReply, type Reply } from '../replies.js';
import { DOCTYPE, el } from '../xml.js';
import { readDb } from './common.js';

export async function espell(_ctx: ServiceContext, p: Params): Promise<Reply> {
  const db = readDb(p, 'espell', 'xml');
  if (typeof db !== 'string') return db;
  const term = p.str('term') ?? '';
  const words = term.split(/(\s+)/).filter((w) => w.length > 0);
  const spelled = words.map((w) => el('Original', w)).join('');
  return xmlReply(
    `<?xml version="1.0"?>\n${DOCTYPE.espell}\n<eSpellResult>\n\t${el('Database', db)}\n\t${el('Query', term)}\n\t${el('CorrectedQuery', term)}\n\t<SpelledQuery>${spelled}</SpelledQuery>\n\t<ERROR/>\n</eSpellResult>\n`,
  );
}
