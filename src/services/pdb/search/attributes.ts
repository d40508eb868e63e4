/**
 * The searchable attributes, read from the Search API's published metadata schemas: each dotted
 * path with its value type, its search contexts (which decide the operators it takes) and the
 * nested container whose records its conditions are matched within.
 */
import { readFileSync } from 'node:fs';
import { sourcePath } from '../../../core/files/project.js';

const DIR = sourcePath('services/pdb/search/schemas/metadata/');

export type ValueKind = 'string' | 'integer' | 'number' | 'date' | 'boolean';
export type Operator = 'exact_match' | 'contains_words' | 'contains_phrase' | 'equals' | 'greater' | 'greater_or_equal' | 'less' | 'less_or_equal' | 'range' | 'exists' | 'in';

export interface Attribute {
  path: string;
  kind: ValueKind;
  contexts: readonly string[];
  /** The container flagged `rcsb_nested_indexing` this attribute sits in, if any. */
  nested: string | undefined;
}

export type Catalogue = 'structure' | 'chemical';
export const METADATA_FILES: Record<Catalogue, string> = { structure: 'structure_schema.json', chemical: 'chemical_schema.json' };

type Node = { type?: string; format?: string; properties?: Record<string, Node>; items?: Node; rcsb_search_context?: string[]; rcsb_nested_indexing?: boolean };

const texts = new Map<Catalogue, string>();
export function metadataText(c: Catalogue): string {
  let t = texts.get(c);
  if (t === undefined) {
    t = readFileSync(DIR + METADATA_FILES[c], 'utf8');
    texts.set(c, t);
  }
  return t;
}

const catalogues = new Map<Catalogue, Map<string, Attribute>>();

/** Every attribute with a search context, by dotted path. */
export function attributes(c: Catalogue): Map<string, Attribute> {
  let m = catalogues.get(c);
  if (m) return m;
  m = new Map();
  const out = m;
  const walk = (node: Node, path: string[], nested: string | undefined) => {
    if (node.rcsb_nested_indexing) nested = path.join('.');
    if (node.type === 'object') {
      for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, [...path, k], nested);
    } else if (node.type === 'array' && node.items) {
      walk({ ...node.items, rcsb_nested_indexing: node.rcsb_nested_indexing || node.items.rcsb_nested_indexing }, path, nested);
    } else if (node.type && node.type !== 'object' && node.type !== 'array') {
      // Attributes without a published search context are indexed too, and take the operators of
      // their value type (the live service answers some of them; see docs/compatibility.md).
      const kind: ValueKind = node.type === 'string' && (node.format === 'date' || node.format === 'date-time') ? 'date' : (node.type as ValueKind);
      out.set(path.join('.'), { path: path.join('.'), kind, contexts: node.rcsb_search_context ?? ['default-match'], nested });
    }
  };
  walk(JSON.parse(metadataText(c)) as Node, [], undefined);
  catalogues.set(c, m);
  return m;
}

/** The operators an attribute takes, from its search contexts (as the live service applies them). */
export function operatorsOf(a: Attribute): Set<Operator> {
  const ops = new Set<Operator>(['exists']);
  const numeric = a.kind === 'integer' || a.kind === 'number' || a.kind === 'date';
  for (const c of a.contexts) {
    if (c === 'full-text') {
      ops.add('contains_words');
      ops.add('contains_phrase');
    } else if (c === 'exact-match') {
      ops.add('exact_match');
      ops.add('in');
    } else if (c === 'default-match') {
      if (numeric) for (const o of ['equals', 'greater', 'greater_or_equal', 'less', 'less_or_equal', 'range', 'in'] as const) ops.add(o);
      else {
        ops.add('exact_match');
        ops.add('in');
        if (a.kind === 'boolean') ops.add('equals');
      }
    }
  }
  return ops;
}

export function isFullText(a: Attribute): boolean {
  return a.contexts.includes('full-text');
}

/** Words as indexed and as searched: lower case, split on anything not a letter or digit. */
export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0 && t.length <= 64);
}

/**
 * Up to this many words from each word of a full-text value are indexed as one key (`rest`), so
 * that a phrase of as many words is one range of that index, and a longer one a few lookups.
 */
export const PHRASE_WORDS = 4;

/** The key of a run of words: each followed by a space, so that a run's key prefixes every longer run's. */
export const wordRun = (words: readonly string[]): string => words.map((w) => `${w} `).join('');

/** Dates as milliseconds since the epoch (the documents write `+0000` offsets). */
export function dateMs(v: string): number | undefined {
  const norm = v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(norm) ? `${norm}T00:00:00Z` : norm);
  return Number.isFinite(ms) ? ms : undefined;
}
