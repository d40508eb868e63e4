/** esummary: document summaries (version 2.0) of db=gene and db=clinvar UIDs, XML or JSON. */
import { loadVariants } from '../../ncbi/clinvar/view.js';
import { loadGenes } from '../../ncbi/gene/view.js';
import type { ServiceContext } from '../../types.js';
import { backend, dbBuild, type Backend, type DbName } from '../data.js';
import type { Params } from '../params.js';
import { CLINVAR_DOCSUM, clinvarDocsum } from '../render/clinvar-docsum.js';
import { GENE_DOCSUM, geneDocsum } from '../render/gene-docsum.js';
import { JSON_TYPE } from '../errors.js';
import { errorReply, header, xmlReply, type Reply } from '../replies.js';
import { docsumJson, docsumXml, type SNode, type SValue } from '../schema.js';
import { XML_DECL, docsumDoctype } from '../xml.js';
import { asMode, inputIds, readDb, readMode } from './common.js';

const NOT_FOUND = 'cannot get document summary';
const MAX_IDS = { json: 500, xml: 10_000 } as const;

export const DOCSUM_FIELDS: Record<DbName, readonly SNode[]> = { gene: GENE_DOCSUM, clinvar: CLINVAR_DOCSUM };

/** Docsum values of the UIDs that exist, keyed by UID. */
export async function docsums(ctx: ServiceContext, db: DbName, b: Backend | undefined, ids: number[]): Promise<Map<number, Record<string, SValue>>> {
  const out = new Map<number, Record<string, SValue>>();
  if (!b) return out;
  if (db === 'gene') {
    const weights = await b.searcher.weights(ids);
    for (const [id, v] of await loadGenes(ctx.db, b.t, ids, { weights })) out.set(id, geneDocsum(v));
  } else {
    for (const [id, v] of await loadVariants(ctx.db, b.t, ids, { vcv: true })) if (v.rows.length) out.set(id, clinvarDocsum(v));
  }
  return out;
}

/** The esummary XML of a list of UIDs (also efetch's rettype=docsum). */
export function docsumSetXml(db: DbName, b: Backend | undefined, uids: string[], found: Map<number, Record<string, SValue>>): string {
  const fields = DOCSUM_FIELDS[db];
  const docs = uids.map((u) => {
    const v = found.get(Number(u));
    return v ? docsumXml(fields, u, v) : `<DocumentSummary uid="${u}">\n<error>${NOT_FOUND}</error>\n</DocumentSummary>`;
  });
  const build = b ? `<DbBuild>${dbBuild(b)}</DbBuild>\n` : '';
  return `${XML_DECL}${docsumDoctype(db)}\n<eSummaryResult>\n<DocumentSummarySet status="OK">\n${build}${docs.join('\n')}\n</DocumentSummarySet>\n</eSummaryResult>\n`;
}

/** JSON esummary, written by hand so that `uids` comes first as on the real service (JavaScript puts numeric keys first). */
export function docsumSetJson(db: DbName, uids: string[], found: Map<number, Record<string, SValue>>): string {
  const fields = DOCSUM_FIELDS[db];
  const members = uids.map((u) => {
    const v = found.get(Number(u));
    return `${JSON.stringify(u)}:${JSON.stringify(v ? docsumJson(fields, u, v) : { uid: u, error: NOT_FOUND })}`;
  });
  return `{"header":${JSON.stringify(header('esummary'))},"result":{"uids":${JSON.stringify(uids)}${members.map((m) => `,${m}`).join('')}}}`;
}

export async function esummary(ctx: ServiceContext, p: Params): Promise<Reply> {
  const mode = asMode(readMode(p, 'esummary'));
  const db = readDb(p, 'esummary', mode);
  if (typeof db !== 'string') return db;
  const version = p.str('version');
  if (version && version !== '2.0' && version !== '1.0') return errorReply('esummary', mode, `Invalid version "${version}": esummary writes version 2.0 document summaries`, 400);
  const b = await backend(ctx, db);
  const input = await inputIds(ctx, p, 'esummary', mode, db, b, 20);
  if (input.kind === 'reply') return input.reply;
  const bad = input.tokens.findIndex((t) => !/^\d{1,10}$/.test(t));
  if (bad >= 0) return errorReply('esummary', mode, `Invalid uid ${input.tokens[bad]} at position=${bad}`);
  const uids = [...new Set(input.tokens.map((t) => String(Number(t))))];
  if (uids.length > MAX_IDS[mode]) {
    return errorReply('esummary', mode, `Too many UIDs in request. Maximum number of UIDs is ${MAX_IDS[mode]} for ${mode.toUpperCase()} format output.`);
  }
  const found = await docsums(ctx, db, b, uids.map(Number));
  return mode === 'json' ? { status: 200, type: JSON_TYPE, body: docsumSetJson(db, uids, found) } : xmlReply(docsumSetXml(db, b, uids, found));
}
