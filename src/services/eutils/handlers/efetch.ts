/**
 * efetch: full records. What is written is chosen by a table keyed by database, rettype and retmode
 * (db=gene: Entrezgene XML, docsum, gene_table and summary text; db=clinvar: VCV and RCV XML, docsum).
 */
import { loadVariants } from '../../ncbi/clinvar/view.js';
import { loadGenes } from '../../ncbi/gene/view.js';
import type { ServiceContext } from '../../types.js';
import { backend, type Backend, type DbName } from '../data.js';
import type { Params } from '../params.js';
import { vcvSet, rcvSet } from '../render/clinvar-fetch.js';
import { entrezgeneAsn, entrezgeneSet } from '../render/entrezgene.js';
import { geneSummaryText, geneTableText } from '../render/gene-text.js';
import { JSON_TYPE } from '../errors.js';
import { errorReply, errorThrow, textReply, xmlReply, type Reply } from '../replies.js';
import { DOCTYPE, XML_DECL } from '../xml.js';
import { asMode, inputIds, readDb } from './common.js';
import { docsumSetJson, docsumSetXml, docsums } from './esummary.js';

type Writer = (ctx: ServiceContext, b: Backend, ids: number[]) => Promise<Reply | undefined>;

const NO_IDS = 'ID list is empty! Possibly it has no correct IDs.';

async function genes(ctx: ServiceContext, b: Backend, ids: number[], pubmed = false) {
  const found = await loadGenes(ctx.db, b.t, ids, { pubmed, weights: await b.searcher.weights(ids) });
  const views = ids.flatMap((id) => found.get(id) ?? []);
  return views.length ? views : undefined;
}

async function variants(ctx: ServiceContext, b: Backend, ids: number[]) {
  const found = await loadVariants(ctx.db, b.t, ids, { vcv: true });
  const views = ids.flatMap((id) => {
    const v = found.get(id);
    return v && v.rows.length ? [v] : [];
  });
  return views.length ? views : undefined;
}

async function docsumWriter(ctx: ServiceContext, b: Backend, ids: number[], json: boolean): Promise<Reply | undefined> {
  const found = await docsums(ctx, b.db, b, ids);
  if (!found.size) return undefined;
  const uids = ids.map(String);
  return json ? { status: 200, type: JSON_TYPE, body: docsumSetJson(b.db, uids, found) } : xmlReply(docsumSetXml(b.db, b, uids, found));
}

/**
 * rettype=uilist: the UIDs of the records found, in the order asked, one a line (text) or as an
 * esearch IdList (xml), as NCBI writes it for every database.
 */
async function uilist(ctx: ServiceContext, b: Backend, ids: number[], xml: boolean): Promise<Reply | undefined> {
  const found = await docsums(ctx, b.db, b, ids);
  const uids = ids.filter((id) => found.has(id));
  if (!uids.length) return undefined;
  if (!xml) return textReply(uids.map((id) => `${id}\n`).join(''));
  return xmlReply(`${XML_DECL}${DOCTYPE.esearch}\n<eSearchResult>\n<IdList>\n${uids.map((id) => `<Id>${id}</Id>\n`).join('')}</IdList>\n</eSearchResult>\n`);
}

/** `db/rettype/retmode` -> writer; an empty rettype is the database's default record. */
const WRITERS: Record<string, Writer> = {
  'gene//xml': async (ctx, b, ids) => {
    const v = await genes(ctx, b, ids, true);
    return v && xmlReply(entrezgeneSet(v));
  },
  'gene//asn.1': async (ctx, b, ids) => {
    const v = await genes(ctx, b, ids, true);
    return v && textReply(entrezgeneAsn(v));
  },
  'gene//text': async (ctx, b, ids) => {
    const v = await genes(ctx, b, ids);
    return v && textReply(geneSummaryText(v));
  },
  'gene/docsum/text': async (ctx, b, ids) => {
    const v = await genes(ctx, b, ids);
    return v && textReply(geneSummaryText(v));
  },
  'gene/docsum/xml': (ctx, b, ids) => docsumWriter(ctx, b, ids, false),
  'gene/docsum/json': (ctx, b, ids) => docsumWriter(ctx, b, ids, true),
  'gene/gene_table/text': async (ctx, b, ids) => {
    const v = await genes(ctx, b, ids);
    return v && textReply(geneTableText(v));
  },
  'clinvar//xml': async (ctx, b, ids) => {
    const v = await variants(ctx, b, ids);
    return v && xmlReply(vcvSet(v));
  },
  'clinvar/vcv/xml': async (ctx, b, ids) => {
    const v = await variants(ctx, b, ids);
    return v && xmlReply(vcvSet(v));
  },
  'clinvar/rcv/xml': async (ctx, b, ids) => {
    const v = await variants(ctx, b, ids);
    return v && xmlReply(rcvSet(v));
  },
  'clinvar/docsum/xml': (ctx, b, ids) => docsumWriter(ctx, b, ids, false),
  'clinvar/docsum/json': (ctx, b, ids) => docsumWriter(ctx, b, ids, true),
  'gene/uilist/text': (ctx, b, ids) => uilist(ctx, b, ids, false),
  'gene/uilist/xml': (ctx, b, ids) => uilist(ctx, b, ids, true),
  'clinvar/uilist/text': (ctx, b, ids) => uilist(ctx, b, ids, false),
  'clinvar/uilist/xml': (ctx, b, ids) => uilist(ctx, b, ids, true),
};

/** rettypes whose only form is text, whatever retmode says (as on the real service). */
const TEXT_ONLY: Record<string, true> = { 'gene/gene_table': true };
/** rettypes written as text unless retmode asks for another form. */
const TEXT_DEFAULT: Record<string, true> = { 'gene/uilist': true, 'clinvar/uilist': true };

function supported(db: DbName): string {
  return Object.keys(WRITERS)
    .filter((k) => k.startsWith(`${db}/`))
    .map((k) => {
      const [, rettype, retmode] = k.split('/');
      return `${rettype ? `rettype=${rettype} ` : ''}retmode=${retmode}`;
    })
    .join(', ');
}

export async function efetch(ctx: ServiceContext, p: Params): Promise<Reply> {
  const db = readDb(p, 'efetch', 'xml');
  if (typeof db !== 'string') return db;
  let rettype = p.lower('rettype') ?? '';
  if (db === 'clinvar' && rettype === 'clinvarset') rettype = 'rcv';
  const retmode = p.lower('retmode') || (TEXT_ONLY[`${db}/${rettype}`] || TEXT_DEFAULT[`${db}/${rettype}`] ? 'text' : 'xml');
  const key = TEXT_ONLY[`${db}/${rettype}`] ? `${db}/${rettype}/text` : `${db}/${rettype}/${retmode}`;
  const writer = WRITERS[key];
  if (!writer) {
    const what = `${rettype ? `rettype=${rettype} ` : ''}retmode=${retmode}`;
    throw errorThrow('efetch', 'xml', `${what} is not served for db=${db}; this mirror writes ${supported(db)}`);
  }
  const mode = asMode(retmode);
  const b = await backend(ctx, db);
  const input = await inputIds(ctx, p, 'efetch', mode, db, b, 20);
  if (input.kind === 'reply') return input.reply;
  const ids = [...new Set(input.tokens.filter((t) => /^\d{1,10}$/.test(t)).map(Number))];
  if (!ids.length || !b) return errorReply('efetch', mode, NO_IDS);
  return (await writer(ctx, b, ids)) ?? errorReply('efetch', mode, NO_IDS);
}
