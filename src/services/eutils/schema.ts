/**
 * Document summaries (esummary version 2.0) described once, in the order of the official DTDs, and
 * written three ways from that description: XML, JSON by NCBI's conversion rules (names lower-cased,
 * the DTD's numbers as numbers, lists as arrays, the docsum keyed by its uid), and a DTD of the
 * elements served, which the mirror publishes for clients that validate offline.
 */
import { escapeAttr, escapeXml } from '../ncbi/text.js';

export type SNode = { k: 'text'; name: string } | { k: 'num'; name: string } | { k: 'obj'; name: string; children: readonly SNode[] } | { k: 'list'; name: string; item: SNode };

export type SValue = string | number | undefined | SValue[] | { [name: string]: SValue };

export const textField = (name: string): SNode => ({ k: 'text', name });
export const numberField = (name: string): SNode => ({ k: 'num', name });
export const objectField = (name: string, children: readonly SNode[]): SNode => ({ k: 'obj', name, children });
export const listField = (name: string, item: SNode): SNode => ({ k: 'list', name, item });

function xmlOf(node: SNode, value: SValue, out: string[]): void {
  if (node.k === 'text') {
    out.push(`<${node.name}>${escapeXml(value === undefined ? '' : String(value))}</${node.name}>`);
  } else if (node.k === 'num') {
    if (value !== undefined && value !== '') out.push(`<${node.name}>${String(value)}</${node.name}>`);
  } else if (node.k === 'obj') {
    const v = (value ?? {}) as Record<string, SValue>;
    out.push(`<${node.name}>`);
    for (const c of node.children) xmlOf(c, v[c.name], out);
    out.push(`</${node.name}>`);
  } else {
    const items = Array.isArray(value) ? value : [];
    out.push(`<${node.name}>`);
    for (const item of items) xmlOf(node.item, item, out);
    out.push(`</${node.name}>`);
  }
}

/** One `<DocumentSummary uid="...">` element. */
export function docsumXml(fields: readonly SNode[], uid: string, values: Record<string, SValue>): string {
  const out: string[] = [`<DocumentSummary uid="${escapeAttr(uid)}">`];
  for (const f of fields) xmlOf(f, values[f.name], out);
  out.push('</DocumentSummary>');
  return out.join('\n');
}

function jsonOf(node: SNode, value: SValue): unknown {
  if (node.k === 'text') return value === undefined ? '' : String(value);
  if (node.k === 'num') return value === undefined || value === '' ? undefined : Number(value);
  if (node.k === 'obj') {
    const v = (value ?? {}) as Record<string, SValue>;
    const o: Record<string, unknown> = {};
    for (const c of node.children) {
      const x = jsonOf(c, v[c.name]);
      if (x !== undefined) o[c.name.toLowerCase()] = x;
    }
    return o;
  }
  return (Array.isArray(value) ? value : []).map((item) => jsonOf(node.item, item));
}

/** A docsum as the `result` member of JSON esummary holds it, with `uid` first. */
export function docsumJson(fields: readonly SNode[], uid: string, values: Record<string, SValue>): Record<string, unknown> {
  const o: Record<string, unknown> = { uid };
  for (const f of fields) {
    const x = jsonOf(f, values[f.name]);
    if (x !== undefined) o[f.name.toLowerCase()] = x;
  }
  return o;
}

function model(node: SNode): string {
  if (node.k === 'text' || node.k === 'num') return '(#PCDATA)';
  if (node.k === 'obj') return `(${node.children.map((c) => `${c.name}?`).join(', ')})`;
  return `(${node.item.name})*`;
}

/** A DTD of an esummary version 2.0 response whose docsums have `fields`. */
export function docsumDtd(title: string, fields: readonly SNode[]): string {
  const decls = new Map<string, string>();
  const add = (node: SNode) => {
    const m = model(node);
    const prev = decls.get(node.name);
    if (prev !== undefined && prev !== m) throw new Error(`element ${node.name} is described twice differently`);
    decls.set(node.name, m);
    if (node.k === 'obj') node.children.forEach(add);
    if (node.k === 'list') add(node.item);
  };
  fields.forEach(add);
  decls.set('error', '(#PCDATA)');
  const lines = [`<!-- ${title}: the document summaries this server writes (esummary version 2.0) -->`];
  for (const [name, m] of decls) lines.push(`<!ELEMENT ${name} ${m}>`);
  lines.push(
    `<!ELEMENT DocumentSummary ((${fields.map((f) => `${f.name}?`).join(', ')}) | error)>`,
    '<!ATTLIST DocumentSummary uid CDATA #IMPLIED>',
    '<!ELEMENT DbBuild (#PCDATA)>',
    '<!ELEMENT DocumentSummarySet (DbBuild?, DocumentSummary*)>',
    '<!ATTLIST DocumentSummarySet status CDATA #REQUIRED>',
    '<!ELEMENT eSummaryResult (DocumentSummarySet?)>',
  );
  return lines.join('\n') + '\n';
}
