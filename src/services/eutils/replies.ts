/** What a utility answers, free of HTTP: a status, a content type and a body. */
import type { ServiceError } from '../../core/http/errors.js';
import { JSON_TYPE, TEXT_TYPE, XML_TYPE, envelopeError } from './errors.js';
import { DOCTYPE, errorXml } from './xml.js';

export interface Reply {
  status: number;
  type: string;
  body: string;
}

export type Tool = 'esearch' | 'esummary' | 'efetch' | 'elink' | 'einfo' | 'epost' | 'espell' | 'egquery';
export type Mode = 'xml' | 'json';

export const xmlReply = (body: string, status = 200): Reply => ({ status, type: XML_TYPE, body });
export const jsonReply = (body: unknown, status = 200): Reply => ({ status, type: JSON_TYPE, body: JSON.stringify(body) });
export const textReply = (body: string, status = 200): Reply => ({ status, type: TEXT_TYPE, body });

export function header(tool: Tool): { type: string; version: string } {
  return { type: tool, version: '0.3' };
}

const ENVELOPE: Record<Tool, { root: string; doctype: string }> = {
  esearch: { root: 'eSearchResult', doctype: DOCTYPE.esearch },
  esummary: { root: 'eSummaryResult', doctype: DOCTYPE.esummaryV1 },
  efetch: { root: 'eFetchResult', doctype: DOCTYPE.efetch },
  elink: { root: 'eLinkResult', doctype: DOCTYPE.elink },
  einfo: { root: 'eInfoResult', doctype: DOCTYPE.einfo },
  epost: { root: 'ePostResult', doctype: DOCTYPE.epost },
  espell: { root: 'eSpellResult', doctype: DOCTYPE.espell },
  egquery: { root: 'Result', doctype: DOCTYPE.egquery },
};

/** An `ERROR` in the utility's envelope (XML), or its JSON form: the spec's `error` beside NCBI's own member. */
export function errorReply(tool: Tool, mode: Mode, message: string, status = 200): Reply {
  if (mode === 'xml' || tool === 'efetch') {
    const e = ENVELOPE[tool];
    return xmlReply(errorXml(e.root, e.doctype, message), status);
  }
  const body: Record<string, unknown> = { header: header(tool), error: message };
  if (tool === 'esearch') body.esearchresult = { ERROR: message };
  if (tool === 'esummary') body.esummaryresult = [message];
  return jsonReply(body, status);
}

/** The same as a thrown error, for the 400s raised while reading a request. */
export function errorThrow(tool: Tool, mode: Mode, message: string, status = 400): ServiceError {
  const r = errorReply(tool, mode, message, status);
  return envelopeError(status, r.body, r.type);
}
