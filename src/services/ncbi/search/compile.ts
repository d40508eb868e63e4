/**
 * Turns a parsed query into a plan: each term becomes index lookups plus the translation the real
 * service shows (`human[orgn]` -> `"Homo sapiens"[Organism]`), keeping the query's shape so the
 * query translation and the translation stack can be written from it.
 */
import { normalize, words } from '../text.js';
import { allFieldSubs, fieldByTag, type Atom, type CNode, type Database, type FieldDef, type ResolveContext, type SubField } from './fields.js';
import type { QNode } from './query.js';

export interface Leaf {
  node: CNode;
  translation: string;
  /** The field named in the translation stack. */
  field: string;
  explode: boolean;
  /** The term as the user wrote it (reported when nothing matches it). */
  raw: string;
  count: number;
}

export type Plan = { k: 'leaf'; leaf: Leaf } | { k: 'op'; op: 'AND' | 'OR' | 'NOT'; l: Plan; r: Plan } | { k: 'group'; c: Plan };

export interface Compiled {
  plan: Plan;
  translationSet: { from: string; to: string }[];
  fieldsNotFound: string[];
}

const ALL_FIELDS = 'All Fields';

function quoteIfPhrase(text: string, quoted: boolean): string {
  return quoted || /\s/.test(text) ? `"${text}"` : text;
}

/** Index lookups of a phrase in some sub-fields: whole values in keyword ones, all words in text ones. */
export function phraseNode(subs: readonly SubField[], text: string, prefix: boolean): CNode {
  const kw = subs.filter((s) => s.kind === 'keyword').map((s) => s.code);
  const tx = subs.filter((s) => s.kind === 'text').map((s) => s.code);
  const parts: CNode[] = [];
  if (kw.length) parts.push({ k: 'atom', fields: kw, terms: [normalize(text)], prefix });
  if (tx.length) {
    const ws = words(text);
    const atoms: Atom[] = ws.map((w, i) => ({ k: 'atom', fields: tx, terms: [w], prefix: prefix && i === ws.length - 1 }));
    if (atoms.length === 1) parts.push(atoms[0] as Atom);
    else if (atoms.length > 1) parts.push({ k: 'and', c: atoms });
  }
  if (parts.length === 0) return { k: 'atom', fields: kw.length ? kw : tx, terms: [normalize(text)], prefix };
  return parts.length === 1 ? (parts[0] as CNode) : { k: 'or', c: parts };
}

class Compiler {
  readonly translationSet: { from: string; to: string }[] = [];
  readonly fieldsNotFound: string[] = [];
  constructor(
    private readonly db: Database,
    private readonly ctx: ResolveContext,
    private readonly defaultField: FieldDef | undefined,
  ) {}

  async plan(n: QNode): Promise<Plan> {
    if (n.t === 'group') return { k: 'group', c: await this.plan(n.c) };
    if (n.t === 'op') return { k: 'op', op: n.op, l: await this.plan(n.l), r: await this.plan(n.r) };
    if (n.t === 'history') throw new Error('history references are expanded before compiling');
    let field: FieldDef | undefined = this.defaultField;
    if (n.tag !== undefined) {
      field = fieldByTag(this.db, n.tag);
      if (!field) this.fieldsNotFound.push(n.tag);
    }
    // [All Fields] is what an untagged term searches.
    if (field?.name === 'ALL') field = undefined;
    const shown = quoteIfPhrase(n.text, n.quoted) + (n.prefix ? '*' : '');
    if (field) return this.tagged(field, n.text, n.quoted, n.prefix, n.raw, shown);
    return this.untagged(n.text, n.quoted, n.prefix, n.raw, shown);
  }

  private leaf(node: CNode, translation: string, field: string, explode: boolean, raw: string): Plan {
    return { k: 'leaf', leaf: { node, translation, field, explode, raw, count: 0 } };
  }

  private async tagged(f: FieldDef, text: string, quoted: boolean, prefix: boolean, raw: string, shown: string): Promise<Plan> {
    if (f.uid) {
      // One id, or the comma-separated list an epost keeps in the history.
      const ids = /^\d{1,10}(,\d{1,10})*$/.test(text) ? text.split(',').map(Number) : [];
      return this.leaf({ k: 'uid', ids }, `${text}[${f.fullName}]`, f.fullName, false, raw);
    }
    if (f.resolve && !prefix) {
      const r = await f.resolve(text, this.ctx);
      if (r) {
        if (r.translation !== `${shown}[${f.fullName}]`) this.translationSet.push({ from: raw, to: r.translation });
        return this.leaf(r.node, r.translation, f.fullName, f.explode ?? false, raw);
      }
      // An unknown organism matches nothing, as on the real service.
      return this.leaf({ k: 'atom', fields: f.subs.map((s) => s.code), terms: [normalize(text)], prefix: false }, `${shown}[${f.fullName}]`, f.fullName, f.explode ?? false, raw);
    }
    return this.leaf(phraseNode(f.subs, text, prefix), `${shown}[${f.fullName}]`, f.fullName, f.explode ?? false, raw);
  }

  private async untagged(text: string, quoted: boolean, prefix: boolean, raw: string, shown: string): Promise<Plan> {
    const all = this.leaf(phraseNode(allFieldSubs(this.db), text, prefix), `${shown}[${ALL_FIELDS}]`, ALL_FIELDS, false, raw);
    // Automatic term mapping: a bare organism name also searches the organism field.
    const org = this.db.fields.find((f) => f.resolve);
    if (!org || prefix || quoted) return all;
    const r = await org.resolve?.(text, this.ctx);
    if (!r) return all;
    const to = `${r.translation} OR ${shown}[${ALL_FIELDS}]`;
    this.translationSet.push({ from: raw, to });
    return { k: 'group', c: { k: 'op', op: 'OR', l: this.leaf(r.node, r.translation, org.fullName, org.explode ?? false, raw), r: all } };
  }
}

/** Compiles a query (history references already expanded). `field` is E-utilities' `field` parameter. */
export async function compileQuery(db: Database, q: QNode, ctx: ResolveContext, field?: string): Promise<Compiled> {
  const def = field ? fieldByTag(db, field.trim().toLowerCase()) : undefined;
  const c = new Compiler(db, ctx, def);
  if (field && !def) c.fieldsNotFound.push(field);
  const plan = await c.plan(q);
  return { plan, translationSet: c.translationSet, fieldsNotFound: c.fieldsNotFound };
}

export function leaves(p: Plan, out: Leaf[] = []): Leaf[] {
  if (p.k === 'leaf') out.push(p.leaf);
  else if (p.k === 'op') {
    leaves(p.l, out);
    leaves(p.r, out);
  } else leaves(p.c, out);
  return out;
}

/** The plan without terms that match nothing: the real service drops them and searches the rest. */
export function prune(p: Plan): Plan | undefined {
  if (p.k === 'leaf') return p.leaf.count > 0 ? p : undefined;
  if (p.k === 'group') {
    const c = prune(p.c);
    return c ? (c.k === 'leaf' ? c : { k: 'group', c }) : undefined;
  }
  const l = prune(p.l);
  const r = prune(p.r);
  if (!l) return p.op === 'NOT' ? undefined : r;
  if (!r) return l;
  return { k: 'op', op: p.op, l, r };
}

export function translate(p: Plan): string {
  if (p.k === 'leaf') return p.leaf.translation;
  if (p.k === 'group') return `(${translate(p.c)})`;
  return `${translate(p.l)} ${p.op} ${translate(p.r)}`;
}

export type StackItem = { term: string; field: string; count: number; explode: boolean } | string;

/** The translation stack: terms and operators in postfix order, closed by GROUP. */
export function stack(p: Plan, out: StackItem[] = [], top = true): StackItem[] {
  if (p.k === 'leaf') out.push({ term: p.leaf.translation, field: p.leaf.field, count: p.leaf.count, explode: p.leaf.explode });
  else if (p.k === 'group') {
    stack(p.c, out, false);
    out.push('GROUP');
  } else {
    stack(p.l, out, false);
    stack(p.r, out, false);
    out.push(p.op);
  }
  if (top && out[out.length - 1] !== 'GROUP') out.push('GROUP');
  return out;
}

/** The index lookups of a plan. */
export function toNode(p: Plan): CNode {
  if (p.k === 'leaf') return p.leaf.node;
  if (p.k === 'group') return toNode(p.c);
  const l = toNode(p.l);
  const r = toNode(p.r);
  if (p.op === 'NOT') return { k: 'not', a: l, b: r };
  const kind = p.op === 'AND' ? 'and' : 'or';
  const flat = (n: CNode) => (n.k === kind ? n.c : [n]);
  return { k: kind, c: [...flat(l), ...flat(r)] };
}
