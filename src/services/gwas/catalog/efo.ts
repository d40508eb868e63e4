/**
 * EFO's ontology in its OBO form (`efo.obo`, a release asset of EBI SPOT's EFO releases): the
 * catalog's downloads name each trait's EFO term and its parent category, never the levels between,
 * so `show_child_trait` reaches a term's full depth only from EFO itself. Only `[Term]` stanzas are
 * read, and of them only `id`, `name`, `is_a` and `is_obsolete`; the file (hundreds of MB) is read
 * line by line and each term is handed on once its stanza ends.
 */
import type { Readable } from 'node:stream';
import { baseName, lines } from '../../../core/ingest/inputs.js';

export interface EfoTermRecord {
  kind: 'efoTerm';
  /** The catalog's short form: `EFO_0000270`, `MONDO_0004979`, `Orphanet_558`. */
  shortForm: string;
  label: string;
  /** Short forms of its `is_a` parents, each once. */
  parents: string[];
}

export type OboItem = { term: EfoTermRecord; line: number } | { problem: string; line: number };

export function isObo(name: string): boolean {
  return baseName(name).endsWith('.obo');
}

/**
 * An OBO identifier as the catalog writes it. EFO's release writes its own terms as `EFO:0000270`
 * or `efo:EFO_0000270` and a few as full IRIs; imported terms as `MONDO:0004979`, `Orphanet:558`.
 */
export function oboShortForm(id: string): string | undefined {
  if (id === '' || /\s/.test(id)) return undefined;
  if (/^https?:\/\//.test(id)) return id.split(/[/#]/).pop() || undefined;
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) return undefined;
  const local = id.slice(colon + 1);
  // `efo:EFO_0000270`: the local part is already a short form.
  if (/^[A-Za-z][A-Za-z0-9]*_\S+$/.test(local)) return local;
  return `${id.slice(0, colon)}_${local}`;
}

/** The identifier a tag's value starts with: qualifiers (`{...}`) and the `! name` comment dropped. */
const idOf = (value: string): string => (value.split(/\s/)[0] ?? '').replace(/\{.*$/, '');

interface Stanza {
  line: number;
  id?: string;
  label: string;
  parents: string[];
  obsolete: boolean;
  problem?: { problem: string; line: number };
}

function finish(s: Stanza): OboItem | undefined {
  if (s.problem) return s.problem;
  if (s.obsolete) return undefined;
  if (s.id === undefined) return { problem: '[Term] without an id', line: s.line };
  return { term: { kind: 'efoTerm', shortForm: s.id, label: s.label, parents: [...new Set(s.parents)].filter((p) => p !== s.id) }, line: s.line };
}

/**
 * The live terms of an OBO file, in file order, or for a malformed stanza what is wrong and where
 * (the stanza is then left out). Obsolete terms are left out without a word: EFO keeps thousands.
 */
export async function* oboTerms(stream: Readable): AsyncGenerator<OboItem> {
  let cur: Stanza | undefined;
  const flush = () => {
    const out = cur && finish(cur);
    cur = undefined;
    return out;
  };
  for await (const { line, no } of lines(stream)) {
    const text = line.trim();
    if (text.startsWith('[')) {
      const done = flush();
      if (done) yield done;
      if (text === '[Term]') cur = { line: no, label: '', parents: [], obsolete: false };
      continue;
    }
    // The header, other stanzas ([Typedef], [Instance]), blank and comment lines.
    if (!cur || cur.problem || text === '' || text.startsWith('!')) continue;
    const colon = text.indexOf(':');
    if (colon <= 0) {
      cur.problem = { problem: `not a tag: value line: "${text.slice(0, 80)}"`, line: no };
      continue;
    }
    const tag = text.slice(0, colon);
    const value = text.slice(colon + 1).trim();
    if (tag === 'id') {
      const sf = oboShortForm(idOf(value));
      if (cur.id !== undefined) cur.problem = { problem: `a second id "${value}" in one [Term]`, line: no };
      else if (sf === undefined) cur.problem = { problem: `malformed id "${value}"`, line: no };
      else cur.id = sf;
    } else if (tag === 'name') {
      cur.label = value.replace(/\s+\{[^}]*\}$/, '');
    } else if (tag === 'is_a') {
      const sf = oboShortForm(idOf(value));
      if (sf === undefined) cur.problem = { problem: `malformed is_a "${value}"`, line: no };
      else cur.parents.push(sf);
    } else if (tag === 'is_obsolete') {
      cur.obsolete = idOf(value) === 'true';
    }
  }
  const done = flush();
  if (done) yield done;
}
