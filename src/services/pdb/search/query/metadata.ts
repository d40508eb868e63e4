/**
 * `/rcsbsearch/v2/metadata/schema` and `/metadata/chemical/schema`: the published attribute
 * schemas, cut down to the attributes this server can search (those the loaded documents give
 * values to, and none of those it never serves: unserved.ts). The official clients read both when
 * they are imported.
 */
import type { Db } from '../../../../core/store/db.js';
import { METADATA_FILES, metadataText, type Catalogue } from '../attributes.js';
import { perGeneration, searchableAttributes, type SearchScope } from './engine.js';
import { unservedReason } from './unserved.js';

type Node = { type?: string; properties?: Record<string, Node>; items?: Node; rcsb_search_context?: unknown } & Record<string, unknown>;

/** The node without the leaves `keep` refuses, or undefined when nothing under it is kept. */
function prune(node: Node, path: string[], keep: (p: string) => boolean): Node | undefined {
  if (node.type === 'object' && node.properties) {
    const props: Record<string, Node> = {};
    for (const [k, v] of Object.entries(node.properties)) {
      const p = prune(v, [...path, k], keep);
      if (p) props[k] = p;
    }
    if (Object.keys(props).length === 0 && path.length > 0) return undefined;
    const out: Node = { ...node, properties: props };
    if (Array.isArray(node.required)) out.required = (node.required as string[]).filter((r) => r in props);
    return out;
  }
  if (node.type === 'array' && node.items) {
    const items = prune(node.items, path, keep);
    return items ? { ...node, items } : undefined;
  }
  return keep(path.join('.')) ? node : undefined;
}

const cache = perGeneration<string>();

export async function metadataSchema(db: Db, s: SearchScope, which: Catalogue): Promise<string> {
  const index = which === 'chemical' ? s.ccd : s.archive;
  const uniprot = which === 'structure' ? s.uniprot : undefined;
  return cache(db, `${which}:${index?.sattr ?? '-'}:${uniprot?.sattrs ?? '-'}`, async () => {
    const present = index ? await searchableAttributes(db, index) : new Set<string>();
    if (uniprot) for (const p of await searchableAttributes(db, uniprot)) present.add(p);
    const full = JSON.parse(metadataText(which)) as Node;
    // Attributes this server never fills are left out even where a document happens to hold one.
    return JSON.stringify(prune(full, [], (p) => present.has(p) && unservedReason(p) === undefined) ?? { ...full, properties: {} });
  });
}

export { METADATA_FILES };
