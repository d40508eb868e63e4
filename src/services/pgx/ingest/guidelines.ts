/**
 * Guideline annotations from `guidelineAnnotations.json.zip`: one JSON document per guideline,
 * `{"guideline": {...}, "citations": [...]}`, the guideline object as PharmGKB's API serves it
 * (objCls, id, name, source, relatedGenes, relatedChemicals, summaryMarkdown, literature, history,
 * crossReferences). Structured recommendations are read from a `recommendations` array when the
 * document has one (see docs/compatibility.md).
 */
import { record, type GuidelineRecommendation, type PgxRecord } from '../records.js';
import { isoDate } from './text.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Markdown objects carry HTML; the spec's fields are plain strings. */
export function htmlText(v: unknown): string {
  const html = typeof v === 'string' ? v : str(obj(v)?.html ?? obj(v)?.markdown);
  return html
    .replace(/<\/(p|li|h\d|div|tr)>/gi, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l.length > 0)
    .join('\n');
}

/** A `{term}` object or a plain string. */
const term = (v: unknown): string => str(obj(v)?.term ?? v);

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v) ?? {})) {
    const s = htmlText(x) || str(x);
    if (s) out[k] = s;
  }
  return out;
}

export function recommendation(v: unknown): GuidelineRecommendation | undefined {
  const r = obj(v);
  if (!r) return undefined;
  return {
    phenotypes: stringMap(r.phenotypes ?? r.lookupKey),
    implications: stringMap(r.implications),
    recommendation: htmlText(r.text ?? r.recommendation ?? r.drugRecommendation),
    classification: term(r.classification),
    population: term(r.population),
  };
}

function pubmedOf(item: unknown): string {
  for (const x of arr(obj(item)?.crossReferences)) {
    const ref = obj(x);
    if (ref && /pubmed/i.test(str(ref.resource))) return str(ref.resourceId);
  }
  return '';
}

function urlOf(ref: Json): string {
  return str(ref._url ?? ref.url ?? ref.resourceId);
}

/** The guideline record of one document, or why the document is not one. */
export function guidelineRecord(doc: unknown): PgxRecord | string {
  const top = obj(doc);
  if (!top) return 'not a JSON object';
  const g = obj(top.guideline) ?? (str(top.objCls) === 'Guideline Annotation' ? top : undefined);
  if (!g) return 'no "guideline" object';
  const id = str(g.id);
  if (!/^PA\d+$/.test(id)) return `malformed guideline id "${id}"`;
  const chemicals = arr(g.relatedChemicals)
    .map(obj)
    .filter((c): c is Json => c !== undefined);
  const pmid = [...arr(g.literature), ...arr(top.citations)].map(pubmedOf).find((p) => p) ?? '';
  const pdf = arr(g.crossReferences)
    .map(obj)
    .filter((r): r is Json => r !== undefined)
    .map(urlOf)
    .find((u) => /^https?:\/\/\S+\.pdf$/i.test(u));
  const dates = arr(g.history)
    .map((h) => isoDate(str(obj(h)?.date)))
    .filter((d) => d)
    .sort();
  return record('guideline', id, {
    id,
    name: str(g.name),
    source: str(g.source),
    genes: arr(g.relatedGenes)
      .map((x) => str(obj(x)?.symbol ?? obj(x)?.name))
      .filter((s) => s),
    drugs: chemicals.filter((c) => str(c.name)).map((c) => str(c.name)),
    drugIds: chemicals.filter((c) => str(c.name)).map((c) => str(c.id)),
    summary: htmlText(g.summaryMarkdown),
    lastUpdated: dates[dates.length - 1] ?? '',
    recommendations: arr(top.recommendations ?? g.recommendations)
      .map(recommendation)
      .filter((r): r is GuidelineRecommendation => r !== undefined),
    pdfUrl: pdf ?? '',
    pmid,
  });
}
