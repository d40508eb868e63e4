/** XML output as E-utilities write it: the declaration, the DOCTYPE lines of the real service, escaping. */
import { escapeXml } from '../ncbi/text.js';

export const XML_DECL = '<?xml version="1.0" encoding="UTF-8" ?>\n';

/** Where NCBI publishes the E-utilities DTDs, and the ASN.1 module DTDs of its records. */
export const EUTILS_DTD = 'https://eutils.ncbi.nlm.nih.gov/eutils/dtd';
export const NCBI_DTD = 'https://www.ncbi.nlm.nih.gov/data_specs/dtd';
/** The older Entrez DTD folder, still named by espell and egquery replies. */
export const ENTREZ_DTD = 'https://www.ncbi.nlm.nih.gov/entrez/query/DTD';

/** The DOCTYPE line of each envelope, as the real service sends it. */
export const DOCTYPE = {
  esearch: `<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "${EUTILS_DTD}/20060628/esearch.dtd">`,
  einfo: `<!DOCTYPE eInfoResult PUBLIC "-//NLM//DTD einfo 20190110//EN" "${EUTILS_DTD}/20190110/einfo.dtd">`,
  elink: `<!DOCTYPE eLinkResult PUBLIC "-//NLM//DTD elink 20101123//EN" "${EUTILS_DTD}/20101123/elink.dtd">`,
  esummaryV1: `<!DOCTYPE eSummaryResult PUBLIC "-//NLM//DTD esummary v1 20041029//EN" "${EUTILS_DTD}/20041029/esummary-v1.dtd">`,
  efetch: `<!DOCTYPE eEfetchResult PUBLIC "-//NLM//DTD efetch 20131226//EN" "${EUTILS_DTD}/20131226/efetch.dtd">`,
  epost: `<!DOCTYPE ePostResult PUBLIC "-//NLM//DTD epost 20090526//EN" "${EUTILS_DTD}/20090526/epost.dtd">`,
  espell: `<!DOCTYPE eSpellResult PUBLIC "-//NLM//DTD eSpellResult, 23 November 2004//EN" "${ENTREZ_DTD}/eSpell.dtd">`,
  egquery: `<!DOCTYPE Result PUBLIC "-//NLM//DTD eSearchResult, January 2004//EN" "${ENTREZ_DTD}/egquery.dtd">`,
  entrezgene: `<!DOCTYPE Entrezgene-Set PUBLIC "-//NLM//DTD NCBI-Entrezgene, 21st January 2005//EN" "${NCBI_DTD}/NCBI_Entrezgene.dtd">`,
} as const;

/** The docsum DTDs of db=gene and db=clinvar (version 2.0): where the real service publishes them. */
export const DOCSUM_DTD = {
  gene: { date: '20230808', file: 'esummary_gene.dtd' },
  clinvar: { date: '20230811', file: 'esummary_clinvar.dtd' },
} as const;

export function docsumDoctype(db: keyof typeof DOCSUM_DTD): string {
  const d = DOCSUM_DTD[db];
  return `<!DOCTYPE eSummaryResult PUBLIC "-//NLM//DTD esummary ${db} ${d.date}//EN" "${EUTILS_DTD}/${d.date}/${d.file}">`;
}

/** `<name>text</name>`, escaped. */
export function el(name: string, text: string | number): string {
  return `<${name}>${escapeXml(String(text))}</${name}>`;
}

/** An error envelope: `<root><ERROR>message</ERROR></root>` under the given DOCTYPE. */
export function errorXml(root: string, doctype: string, message: string): string {
  return `${XML_DECL}${doctype}\n<${root}>\n\t<ERROR>${escapeXml(message)}</ERROR>\n</${root}>\n`;
}
