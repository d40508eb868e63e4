/**
 * epost: keeps a list of UIDs on the history server, under a new or the given WebEnv, for the other
 * utilities to read by `WebEnv` + `query_key` (how Biopython users send long id lists). The list is
 * kept as a UID term (`672,7157[uid]`), so reading it follows the data served.
 */
import type { ServiceContext } from '../../types.js';
import { remember } from '../history.js';
import { idGroups, type Params } from '../params.js';
import { errorReply, xmlReply, type Reply } from '../replies.js';
import { DOCTYPE, XML_DECL, el } from '../xml.js';
import { readDb } from './common.js';

/** Ids one epost may keep (NCBI advises batches of at most 10,000). */
const MAX_IDS = 100_000;

export async function epost(ctx: ServiceContext, p: Params): Promise<Reply> {
  const db = readDb(p, 'epost', 'xml');
  if (typeof db !== 'string') return db;
  const tokens = idGroups(p).flat();
  if (!tokens.length) return errorReply('epost', 'xml', 'Empty id list - nothing todo');
  if (tokens.length > MAX_IDS) return errorReply('epost', 'xml', `Too many ids: at most ${MAX_IDS} per epost`, 400);
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const t of tokens) (/^\d{1,10}$/.test(t) && Number(t) > 0 ? valid : invalid).push(t);
  const lines = [`${XML_DECL}${DOCTYPE.epost}<ePostResult>`];
  if (invalid.length) lines.push(`\t<InvalidIdList>\n${invalid.map((i) => `\t\t${el('Id', i)}\n`).join('')}\t</InvalidIdList>`);
  if (valid.length) {
    const unique = [...new Set(valid.map(Number))];
    const h = await remember(ctx.db, p.str('webenv'), { db, term: `${unique.join(',')}[uid]` });
    lines.push(`\t<QueryKey>${h.queryKey}</QueryKey>`, `\t${el('WebEnv', h.webenv)}`);
  } else {
    lines.push('\t<ERROR>No valid UIDs to post</ERROR>');
  }
  lines.push('</ePostResult>', '');
  return xmlReply(lines.join('\n'));
}
