/**
 * What the store needs to know of a protocol document: its identifiers, owner, visibility, the
 * values it is sorted on and its searchable words. The document itself is kept whole, as the API
 * returns it.
 */
import { plainText } from './richtext.js';

export type Doc = Record<string, unknown>;

export interface ProtocolColumns {
  id: number;
  uri: string;
  /** DOI without resolver or scheme, lower case: `10.17504/protocols.io.c4gytv`. */
  doiKey: string | null;
  /** Username of the creator; their account (if any) sees and edits the protocol while private. */
  owner: string | null;
  public: 0 | 1;
  titleKey: string;
  publishedOn: number;
  /** Latest of creation, change and publication (seconds): the `activity` order. */
  activity: number;
  /** Normalized words of title, description and authors, for `key`. */
  search: string;
}

/** Lower case, accents removed, anything but letters and digits made a space. */
export function normalizeWords(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function searchTokens(key: string): string[] {
  const words = normalizeWords(key);
  return words ? words.split(' ').slice(0, 32) : [];
}

const DOI_PREFIX = /^(?:https?:\/\/)?(?:dx\.)?(?:doi\.org\/)|^doi:\s*/i;

/** `dx.doi.org/10.17504/x`, `https://doi.org/10.17504/x` and `doi:10.17504/x` all give `10.17504/x`. */
export function doiKey(value: string): string | null {
  const k = value.trim().replace(DOI_PREFIX, '').toLowerCase();
  return /^10\.\d{4,9}\/[^\s\p{Cc}]+$/u.test(k) ? k : null;
}

export const URI = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,254}$/;

function seconds(v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** 1, "1" and true mean public; a document without the field came from a public listing. */
export function isPublic(v: unknown): 0 | 1 {
  if (v === undefined || v === null) return 1;
  return v === 1 || v === '1' || v === true ? 1 : 0;
}

function names(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.map((a) => (a && typeof a === 'object' ? (a as Doc).name : undefined)).filter((n): n is string => typeof n === 'string');
}

/** The protocol's id as an integer, or undefined when it has none usable. */
export function protocolId(doc: Doc): number | undefined {
  const v = typeof doc.id === 'string' && /^\d+$/.test(doc.id) ? Number(doc.id) : doc.id;
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

/** Why a document cannot be loaded, or its columns. */
export function columnsOf(doc: Doc): ProtocolColumns | string {
  const id = protocolId(doc);
  if (id === undefined) return 'no positive integer "id"';
  if (typeof doc.uri !== 'string' || !URI.test(doc.uri)) return `protocol ${id}: "uri" missing or not a URI segment (letters, digits, . _ ~ -)`;
  if (typeof doc.title !== 'string') return `protocol ${id}: no "title"`;
  const creator = doc.creator && typeof doc.creator === 'object' ? (doc.creator as Doc) : undefined;
  // A username no account can have (empty, or with characters a database refuses) owns nothing.
  const owner = typeof creator?.username === 'string' && creator.username !== '' && !creator.username.includes('\u0000') ? creator.username : null;
  const publishedOn = seconds(doc.published_on);
  const text = [doc.title, typeof doc.description === 'string' ? plainText(doc.description) : '', ...names(doc.authors), creator?.name].filter((s) => typeof s === 'string').join(' ');
  return {
    id,
    uri: doc.uri,
    doiKey: typeof doc.doi === 'string' ? doiKey(doc.doi) : null,
    owner,
    public: isPublic(doc.public),
    titleKey: normalizeWords(doc.title).slice(0, 200),
    publishedOn,
    activity: Math.max(seconds(doc.created_on), seconds(doc.changed_on), publishedOn),
    search: normalizeWords(text),
  };
}
