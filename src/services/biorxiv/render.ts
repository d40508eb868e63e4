/**
 * The response envelope, `{"messages": [...], "collection": [...]}`, as JSON or XML. Records are
 * stored as JSON text and sent as stored, except that their `jatsxml` path gets the address this
 * server is reached at in front, so the link leads to the copy served here.
 */
export type Format = 'json' | 'xml';
export type Message = Record<string, string | number>;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'application/xml; charset=utf-8';

const JATS_KEY = '"jatsxml":"/content/';

/** `site` is the origin and mount the client used, e.g. `http://127.0.0.1:8080/biorxiv`. */
export function renderJson(message: Message, docs: readonly string[], site: string): string {
  const at = `"jatsxml":"${JSON.stringify(site).slice(1, -1)}/content/`;
  const records = docs.map((d) => d.replace(JATS_KEY, at)).join(',');
  return `{"messages":[${JSON.stringify(message)}],"collection":[${records}]}`;
}

// Characters XML 1.0 cannot carry at all.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlText(value: string): string {
  return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A member name as an element name (names of records are plain words; anything else is made safe). */
function tag(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

function element(name: string, value: unknown): string {
  const t = tag(name);
  if (value === null || value === undefined) return `<${t}/>`;
  if (Array.isArray(value)) return `<${t}>${value.map((v) => element('item', v)).join('')}</${t}>`;
  if (typeof value === 'object') {
    return `<${t}>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(k, v))
      .join('')}</${t}>`;
  }
  return `<${t}>${xmlText(String(value))}</${t}>`;
}

/** The same envelope as XML: <response><messages><message>..</message></messages><collection><record>..</record></collection></response>. */
export function renderXml(message: Message, docs: readonly string[], site: string): string {
  const records = docs.map((d) => {
    const rec = JSON.parse(d) as Record<string, unknown>;
    if (typeof rec.jatsxml === 'string' && rec.jatsxml.startsWith('/content/')) rec.jatsxml = site + rec.jatsxml;
    return element('record', rec);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response><messages>${element('message', message)}</messages><collection>${records.join('')}</collection></response>\n`;
}

export function render(format: Format, message: Message, docs: readonly string[], site: string): { body: string; type: string } {
  return format === 'xml' ? { body: renderXml(message, docs, site), type: XML_TYPE } : { body: renderJson(message, docs, site), type: JSON_TYPE };
}
