/**
 * XML as PubChem writes it. PUG REST's own documents (property tables, identifier and information
 * lists, Waiting, Fault) and PUG View records follow their JSON one to one: members become
 * elements, arrays repeat the element. Full records use NCBI's ASN.1 XML naming (see asn.ts).
 */

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&apos;'));
}

export const PUG_REST_NS = 'http://pubchem.ncbi.nlm.nih.gov/pug_rest';
export const PUG_VIEW_NS = 'http://pubchem.ncbi.nlm.nih.gov/pug_view';
const SCHEMA: Record<string, string> = {
  [PUG_REST_NS]: 'https://pubchem.ncbi.nlm.nih.gov/pug_rest/pug_rest.xsd',
  [PUG_VIEW_NS]: 'https://pubchem.ncbi.nlm.nih.gov/pug_view/pug_view.xsd',
};

export function xmlHeader(root: string, ns: string, schema = SCHEMA[ns]): string {
  const loc = schema ? `\n    xs:schemaLocation="${ns} ${schema}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}\n    xmlns="${ns}"\n    xmlns:xs="http://www.w3.org/2001/XMLSchema-instance"${loc}>\n`;
}

function text(v: unknown): string {
  return escapeXml(typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));
}

function element(name: string, value: unknown, indent: string, out: string[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) element(name, v, indent, out);
    return;
  }
  if (typeof value === 'object') {
    out.push(`${indent}<${name}>\n`);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) element(k, v, indent + '  ', out);
    out.push(`${indent}</${name}>\n`);
    return;
  }
  out.push(`${indent}<${name}>${text(value)}</${name}>\n`);
}

/** A `{Root: {...}}` document (PUG REST or PUG View) as XML in the given namespace. */
export function documentXml(doc: Record<string, unknown>, ns = PUG_REST_NS): string {
  const [root, body] = Object.entries(doc)[0] ?? ['Empty', {}];
  const out: string[] = [xmlHeader(root, ns)];
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) element(k, v, '  ', out);
  } else if (body !== undefined) {
    out.push(`  ${text(body)}\n`);
  }
  out.push(`</${root}>\n`);
  return out.join('');
}
