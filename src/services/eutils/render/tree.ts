/** A small XML tree writer: indented two spaces per level, as NCBI's ASN.1-derived XML is. */
import { escapeAttr, escapeXml } from '../../ncbi/text.js';

export interface XNode {
  name: string;
  attrs?: Record<string, string>;
  /** Text content, child elements, or nothing (an empty element). */
  body?: string | number | XNode[];
}

/** Children may be absent (`cond && element(...)`): such entries are dropped. */
export type Child = XNode | undefined | null | false | '';

export function element(name: string, body?: string | number | Child[], attrs?: Record<string, string>): XNode {
  const node: XNode = { name };
  if (attrs) node.attrs = attrs;
  if (Array.isArray(body)) node.body = body.filter((c): c is XNode => !!c);
  else if (body !== undefined) node.body = body;
  return node;
}

export function renderTree(node: XNode, depth = 0, out: string[] = []): string[] {
  const pad = '  '.repeat(depth);
  const attrs = node.attrs
    ? Object.entries(node.attrs)
        .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
        .join('')
    : '';
  if (node.body === undefined || (Array.isArray(node.body) && node.body.length === 0)) out.push(`${pad}<${node.name}${attrs}/>`);
  else if (Array.isArray(node.body)) {
    out.push(`${pad}<${node.name}${attrs}>`);
    for (const c of node.body) renderTree(c, depth + 1, out);
    out.push(`${pad}</${node.name}>`);
  } else out.push(`${pad}<${node.name}${attrs}>${escapeXml(String(node.body))}</${node.name}>`);
  return out;
}
