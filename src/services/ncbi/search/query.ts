/**
 * The Entrez query language as E-utilities read it: terms with optional field tags in brackets,
 * quoted phrases, trailing `*` for truncation, AND / OR / NOT (upper case) evaluated strictly left
 * to right (Entrez gives them no precedence), parentheses, and `#n` for a query of the history.
 * Words next to each other without an operator are ANDed; a run of words right before a tag is one
 * phrase searched in that field (`breast cancer[dis]`).
 */

export type QNode =
  | { t: 'term'; text: string; quoted: boolean; prefix: boolean; tag: string | undefined; raw: string }
  | { t: 'history'; key: number; raw: string }
  | { t: 'op'; op: 'AND' | 'OR' | 'NOT'; l: QNode; r: QNode }
  | { t: 'group'; c: QNode };

export class QuerySyntaxError extends Error {
  override readonly name = 'QuerySyntaxError';
}

type Token =
  | { k: 'lp' | 'rp'; at: number }
  | { k: 'op'; op: 'AND' | 'OR' | 'NOT'; at: number }
  | { k: 'word'; v: string; at: number }
  | { k: 'quoted'; v: string; at: number }
  | { k: 'tag'; v: string; at: number }
  | { k: 'hist'; n: number; at: number };

const MAX_QUERY = 8000;

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(') {
      out.push({ k: 'lp', at: i++ });
      continue;
    }
    if (c === ')') {
      out.push({ k: 'rp', at: i++ });
      continue;
    }
    if (c === '"') {
      const end = q.indexOf('"', i + 1);
      if (end < 0) throw new QuerySyntaxError(`unterminated quoted phrase starting at position ${i + 1}`);
      out.push({ k: 'quoted', v: q.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    if (c === '[') {
      const end = q.indexOf(']', i + 1);
      if (end < 0) throw new QuerySyntaxError(`unterminated field tag starting at position ${i + 1}`);
      out.push({ k: 'tag', v: q.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    if (c === ']') throw new QuerySyntaxError(`unexpected "]" at position ${i + 1}`);
    let j = i;
    while (j < q.length && !/[\s()"[\]]/.test(q[j] as string)) j++;
    const w = q.slice(i, j);
    if (w === 'AND' || w === 'OR' || w === 'NOT') out.push({ k: 'op', op: w, at: i });
    else if (/^#\d+$/.test(w)) out.push({ k: 'hist', n: Number(w.slice(1)), at: i });
    else out.push({ k: 'word', v: w, at: i });
    i = j;
  }
  return out;
}

function normTag(tag: string): string {
  return tag
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/:(no)?exp$/, '');
}

function termNode(text: string, quoted: boolean, tag: string | undefined, rawTag: string | undefined): QNode {
  let v = text.trim().replace(/\s+/g, ' ');
  const prefix = v.endsWith('*');
  if (prefix) v = v.replace(/\*+$/, '').trimEnd();
  if (!v) throw new QuerySyntaxError(quoted ? 'empty quoted phrase' : 'a truncation "*" needs at least one character before it');
  const shown = quoted ? `"${text}"` : text;
  return { t: 'term', text: v, quoted, prefix, tag, raw: rawTag !== undefined ? `${shown}[${rawTag}]` : shown };
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(): Token | undefined {
    return this.toks[this.i];
  }

  parse(): QNode {
    const n = this.expr();
    const left = this.peek();
    if (left) throw new QuerySyntaxError(left.k === 'rp' ? `unbalanced ")" at position ${left.at + 1}` : `unexpected text at position ${left.at + 1}`);
    return n;
  }

  private expr(): QNode {
    let left = this.primary();
    for (;;) {
      const t = this.peek();
      if (!t || t.k === 'rp') return left;
      let op: 'AND' | 'OR' | 'NOT' = 'AND';
      if (t.k === 'op') {
        op = t.op;
        this.i++;
        const next = this.peek();
        if (!next || next.k === 'rp' || next.k === 'op') throw new QuerySyntaxError(`${op} at position ${t.at + 1} has no term after it`);
      }
      const right = this.primary();
      left = { t: 'op', op, l: left, r: right };
    }
  }

  private primary(): QNode {
    const t = this.peek();
    if (!t) throw new QuerySyntaxError('the query ends where a term was expected');
    if (t.k === 'op') throw new QuerySyntaxError(`${t.op} at position ${t.at + 1} has no term before it`);
    if (t.k === 'rp') throw new QuerySyntaxError(`unbalanced ")" at position ${t.at + 1}`);
    if (t.k === 'tag') throw new QuerySyntaxError(`field tag [${t.v}] at position ${t.at + 1} follows no term`);
    if (t.k === 'lp') {
      this.i++;
      if (this.peek()?.k === 'rp') throw new QuerySyntaxError(`empty parentheses at position ${t.at + 1}`);
      const inner = this.expr();
      if (this.peek()?.k !== 'rp') throw new QuerySyntaxError(`unbalanced "(" at position ${t.at + 1}`);
      this.i++;
      return { t: 'group', c: inner };
    }
    if (t.k === 'hist') {
      this.i++;
      return { t: 'history', key: t.n, raw: `#${t.n}` };
    }
    if (t.k === 'quoted') {
      this.i++;
      const tag = this.takeTag();
      return termNode(t.v, true, tag && normTag(tag), tag);
    }
    // A run of plain words: one phrase when a tag follows it, otherwise words ANDed.
    const run: string[] = [];
    while (this.peek()?.k === 'word') run.push((this.toks[this.i++] as { v: string }).v);
    const tag = this.takeTag();
    if (tag !== undefined) return termNode(run.join(' '), false, normTag(tag), tag);
    let node: QNode = termNode(run[0] as string, false, undefined, undefined);
    for (const w of run.slice(1)) node = { t: 'op', op: 'AND', l: node, r: termNode(w, false, undefined, undefined) };
    return node;
  }

  private takeTag(): string | undefined {
    const t = this.peek();
    if (t?.k !== 'tag') return undefined;
    this.i++;
    return t.v;
  }
}

export function parseQuery(q: string): QNode {
  if (q.length > MAX_QUERY) throw new QuerySyntaxError(`the query is longer than ${MAX_QUERY} characters`);
  const toks = tokenize(q);
  if (toks.length === 0) throw new QuerySyntaxError('empty query');
  return new Parser(toks).parse();
}

/** The history keys a query refers to (`#1 AND BRCA1[gene]` -> [1]). */
export function historyKeys(n: QNode, out: number[] = []): number[] {
  if (n.t === 'history') out.push(n.key);
  else if (n.t === 'op') {
    historyKeys(n.l, out);
    historyKeys(n.r, out);
  } else if (n.t === 'group') historyKeys(n.c, out);
  return out;
}
