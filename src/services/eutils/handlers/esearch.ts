/** esearch: UIDs matching a query, with its translation, optionally kept on the history server. */
import { escapeXml } from '../../ncbi/text.js';
import type { ServiceContext } from '../../types.js';
import { backend } from '../data.js';
import { remember } from '../history.js';
import type { Params } from '../params.js';
import { errorReply, errorThrow, header, jsonReply, xmlReply, type Mode, type Reply } from '../replies.js';
import { HistoryError, QuerySyntaxError, runSearch, type SearchOutcome } from '../search.js';
import { DOCTYPE, XML_DECL } from '../xml.js';
import { asMode, intParam, readDb, readMode } from './common.js';

const MAX_RETMAX = 10_000;

interface Page {
  s: SearchOutcome;
  retstart: number;
  history?: { webenv: string; queryKey: number };
}

function xml(pg: Page): string {
  const { s } = pg;
  const out: string[] = [`${XML_DECL}${DOCTYPE.esearch}\n<eSearchResult><Count>${s.count}</Count><RetMax>${s.ids.length}</RetMax><RetStart>${pg.retstart}</RetStart>`];
  if (pg.history) out.push(`<QueryKey>${pg.history.queryKey}</QueryKey><WebEnv>${pg.history.webenv}</WebEnv>`);
  out.push(s.ids.length ? `<IdList>\n${s.ids.map((id) => `<Id>${id}</Id>\n`).join('')}</IdList>` : '<IdList/>');
  out.push(
    s.translationSet.length
      ? `<TranslationSet>${s.translationSet.map((t) => `<Translation>     <From>${escapeXml(t.from)}</From>     <To>${escapeXml(t.to)}</To>    </Translation>`).join('')}</TranslationSet>`
      : '<TranslationSet/>',
  );
  if (s.stack.length) {
    const items = s.stack.map((i) =>
      typeof i === 'string'
        ? `   <OP>${i}</OP>`
        : `   <TermSet>    <Term>${escapeXml(i.term)}</Term>    <Field>${escapeXml(i.field)}</Field>    <Count>${i.count}</Count>    <Explode>${i.explode ? 'Y' : 'N'}</Explode>   </TermSet>`,
    );
    out.push(`<TranslationStack>${items.join('')}  </TranslationStack>`);
  }
  out.push(`<QueryTranslation>${escapeXml(s.translation)}</QueryTranslation>`);
  if (s.phrasesNotFound.length || s.fieldsNotFound.length) {
    out.push(
      `<ErrorList>${s.phrasesNotFound.map((x) => `<PhraseNotFound>${escapeXml(x)}</PhraseNotFound>`).join('')}${s.fieldsNotFound.map((x) => `<FieldNotFound>${escapeXml(x)}</FieldNotFound>`).join('')}</ErrorList>`,
    );
  }
  if (s.count === 0) out.push('<WarningList><OutputMessage>No items found.</OutputMessage></WarningList>');
  out.push('</eSearchResult>\n');
  return out.join('');
}

function json(pg: Page): unknown {
  const { s } = pg;
  const r: Record<string, unknown> = { count: String(s.count), retmax: String(s.ids.length), retstart: String(pg.retstart) };
  if (pg.history) Object.assign(r, { querykey: String(pg.history.queryKey), webenv: pg.history.webenv });
  r.idlist = s.ids.map(String);
  r.translationset = s.translationSet.map((t) => ({ from: t.from, to: t.to }));
  if (s.stack.length) {
    r.translationstack = s.stack.map((i) => (typeof i === 'string' ? i : { term: i.term, field: i.field, count: String(i.count), explode: i.explode ? 'Y' : 'N' }));
  }
  r.querytranslation = s.translation;
  if (s.phrasesNotFound.length || s.fieldsNotFound.length) r.errorlist = { phrasesnotfound: s.phrasesNotFound, fieldsnotfound: s.fieldsNotFound };
  if (s.count === 0) r.warninglist = { phrasesignored: [], quotedphrasesnotfound: [], outputmessages: ['No items found.'] };
  return { header: header('esearch'), esearchresult: r };
}

export async function esearch(ctx: ServiceContext, p: Params): Promise<Reply> {
  const mode: Mode = asMode(readMode(p, 'esearch'));
  const db = readDb(p, 'esearch', mode);
  if (typeof db !== 'string') return db;
  const rettype = p.lower('rettype') ?? 'uilist';
  if (rettype !== 'uilist' && rettype !== 'count') throw errorThrow('esearch', mode, `Invalid rettype "${rettype}": esearch writes uilist or count`);
  const sort = p.lower('sort');
  if (sort && sort !== 'relevance') throw errorThrow('esearch', mode, `Invalid sort "${sort}": this mirror orders db=${db} by relevance only`);
  const retstart = intParam(p, 'esearch', mode, 'retstart', 0, 0, 100_000_000);
  const retmax = Math.min(intParam(p, 'esearch', mode, 'retmax', 20, 0, 100_000_000), MAX_RETMAX);
  const webenv = p.str('webenv');
  let term = p.str('term') ?? '';
  if (!term) {
    const qk = p.str('query_key');
    if (!qk || !webenv) return errorReply('esearch', mode, 'Empty term and query_key - nothing todo');
    term = `#${intParam(p, 'esearch', mode, 'query_key', 1, 1, 1_000_000)}`;
  }
  const b = await backend(ctx, db);
  let s: SearchOutcome;
  try {
    s = await runSearch(ctx, db, b, term, { webenv, retstart, retmax: rettype === 'count' ? 0 : retmax, field: p.str('field') });
  } catch (err) {
    if (err instanceof QuerySyntaxError) throw errorThrow('esearch', mode, `Invalid query syntax: ${err.message}`);
    if (err instanceof HistoryError) return errorReply('esearch', mode, err.message);
    throw err;
  }
  if (rettype === 'count') {
    return mode === 'json'
      ? jsonReply({ header: header('esearch'), esearchresult: { count: String(s.count) } })
      : xmlReply(`${XML_DECL}${DOCTYPE.esearch}\n<eSearchResult><Count>${s.count}</Count></eSearchResult>\n`);
  }
  const pg: Page = { s, retstart };
  if (p.lower('usehistory') === 'y') pg.history = await remember(ctx.db, webenv, { db, term: s.expanded });
  return mode === 'json' ? jsonReply(json(pg)) : xmlReply(xml(pg));
}
