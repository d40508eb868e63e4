/**
 * Rich text of a protocol: its own fields, its steps' text and their components' descriptions and
 * comments. Stored as HTML; `content_format` serves it as HTML, Markdown or Draft.js raw JSON.
 */
import type { Doc } from './extract.js';
import { draftToHtml, toDraftJson, toMarkdown } from './richtext.js';

export const CONTENT_FORMATS = ['html', 'markdown', 'json'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** Rich-text fields of the protocol object. */
const PROTOCOL_FIELDS = ['description', 'guidelines', 'warning', 'before_start', 'materials_text'];
/** Rich-text fields of a step component's source (description, comment, note, expected result, safety). */
const SOURCE_FIELDS = ['description', 'body'];

type Convert = (text: string) => string;
const CONVERT: Record<Exclude<ContentFormat, 'html'>, Convert> = { markdown: toMarkdown, json: toDraftJson };

const isDoc = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v);

function fields(o: Doc, names: readonly string[], f: Convert): Doc {
  const out: Doc = { ...o };
  for (const n of names) if (typeof out[n] === 'string') out[n] = f(out[n] as string);
  return out;
}

function mapSteps(steps: unknown[], f: Convert): unknown[] {
  return steps.map((s) => {
    if (!isDoc(s)) return s;
    const step = fields(s, ['step'], f);
    if (Array.isArray(step.components)) {
      step.components = step.components.map((c) => (isDoc(c) && isDoc(c.source) ? { ...c, source: fields(c.source, SOURCE_FIELDS, f) } : c));
    }
    return step;
  });
}

function mapProtocol(doc: Doc, f: Convert): Doc {
  const out = fields(doc, PROTOCOL_FIELDS, f);
  if (Array.isArray(out.steps)) out.steps = mapSteps(out.steps, f);
  return out;
}

export function formatSteps(steps: unknown, format: ContentFormat): unknown {
  return format === 'html' || !Array.isArray(steps) ? steps : mapSteps(steps, CONVERT[format]);
}

export function formatProtocol(doc: Doc, format: ContentFormat): Doc {
  return format === 'html' ? doc : mapProtocol(doc, CONVERT[format]);
}

/** Rich text loaded as Draft.js JSON (the current upstream API's default) is kept as HTML. */
export function storedAsHtml(doc: Doc): Doc {
  return mapProtocol(doc, (s) => draftToHtml(s) ?? s);
}
