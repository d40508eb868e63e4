/**
 * A parser for the part of the registry's Essie search syntax that clients use: words, "quoted
 * phrases", trailing `*`, AND / OR / NOT (upper case), parentheses, and `AREA[Field]value` with
 * `RANGE[lo, hi]` (MIN/MAX) and `MISSING`. Adjacent terms are ANDed. `EXPANSION[..]` and
 * `COVERAGE[..]` are accepted and have no effect: matching is always on whole normalised words.
 */
import { normalizeWords } from './text.js';

export type Area = 'cond' | 'intr' | 'locn' | 'spons' | 'lead' | 'titles' | 'outc' | 'ids' | 'other' | 'all';

export type Node =
  | { t: 'and'; c: Node[] }
  | { t: 'or'; c: Node[] }
  | { t: 'not'; c: Node }
  | { t: 'true' }
  /** Words of one area; several words form a phrase; `prefix` marks the last one as a prefix. */
  | { t: 'text'; area: Area; words: string[]; prefix: boolean }
  | { t: 'field'; field: string; op: 'eq'; value: string }
  | { t: 'field'; field: string; op: 'range'; lo: string; hi: string }
  | { t: 'field'; field: string; op: 'missing' };

export class EssieError extends Error {}

type Token = { k: 'lp' } | { k: 'rp' } | { k: 'and' } | { k: 'or' } | { k: 'not' } | { k: 'phrase'; v: string } | { k: 'word'; v: string } | { k: 'op'; name: string; arg: string };

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '(') {
      out.push({ k: 'lp' });
      i++;
    } else if (ch === ')') {
      out.push({ k: 'rp' });
      i++;
    } else if (ch === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) throw new EssieError('unterminated quoted phrase');
      out.push({ k: 'phrase', v: input.slice(i + 1, end) });
      i = end + 1;
    } else {
      const op = /^([A-Za-z]+)\[([^\]]*)\]/.exec(input.slice(i));
      if (op) {
        out.push({ k: 'op', name: (op[1] as string).toUpperCase(), arg: (op[2] as string).trim() });
        i += op[0].length;
        continue;
      }
      let j = i;
      while (j < input.length && !/[\s()"]/.test(input[j] as string)) j++;
      const w = input.slice(i, j);
      if (w === 'AND') out.push({ k: 'and' });
      else if (w === 'OR') out.push({ k: 'or' });
      else if (w === 'NOT') out.push({ k: 'not' });
      else out.push({ k: 'word', v: w });
      i = j;
    }
  }
  return out;
}

/** Where the words of the expression being parsed go: a text area, or a structured field. */
export type Context = { kind: 'text'; area: Area } | { kind: 'field'; field: string };

/** Maps the field named in `AREA[...]` to a context; the caller knows the data model. */
export type AreaResolver = (field: string) => Context | undefined;

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly resolve: AreaResolver,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  parse(ctx: Context): Node {
    if (this.tokens.length === 0) return { t: 'true' };
    const n = this.or(ctx);
    const rest = this.peek();
    if (rest) throw new EssieError(rest.k === 'rp' ? 'unbalanced ")"' : 'unexpected input after the expression');
    return n;
  }

  private or(ctx: Context): Node {
    const c = [this.and(ctx)];
    while (this.peek()?.k === 'or') {
      this.pos++;
      c.push(this.and(ctx));
    }
    return c.length === 1 ? (c[0] as Node) : { t: 'or', c };
  }

  private and(ctx: Context): Node {
    const c = [this.unary(ctx)];
    while (true) {
      const t = this.peek();
      if (!t || t.k === 'or' || t.k === 'rp') break;
      if (t.k === 'and') this.pos++;
      c.push(this.unary(ctx));
    }
    return c.length === 1 ? (c[0] as Node) : { t: 'and', c };
  }

  private unary(ctx: Context): Node {
    if (this.peek()?.k === 'not') {
      this.pos++;
      return { t: 'not', c: this.unary(ctx) };
    }
    return this.primary(ctx);
  }

  private primary(ctx: Context): Node {
    const t = this.tokens[this.pos++];
    if (!t) throw new EssieError('the expression ends where a term was expected');
    switch (t.k) {
      case 'lp': {
        const inner = this.or(ctx);
        if (this.tokens[this.pos++]?.k !== 'rp') throw new EssieError('missing ")"');
        return inner;
      }
      case 'phrase':
        return leaf(ctx, t.v, false);
      case 'word':
        if (ctx.kind === 'field' && t.v.toUpperCase() === 'MISSING') return { t: 'field', field: ctx.field, op: 'missing' };
        return leaf(ctx, t.v, true);
      case 'op':
        return this.operator(ctx, t.name, t.arg);
      default:
        throw new EssieError(`"${t.k.toUpperCase()}" where a term was expected`);
    }
  }

  private operator(ctx: Context, name: string, arg: string): Node {
    switch (name) {
      case 'AREA': {
        const next = this.resolve(arg);
        if (!next) throw new EssieError(`unknown search area or field "${arg}" in AREA[${arg}]`);
        return this.primary(next);
      }
      case 'RANGE': {
        if (ctx.kind !== 'field') throw new EssieError('RANGE[...] needs AREA[...] of a date or number field before it');
        const parts = arg.split(',').map((s) => s.trim());
        if (parts.length !== 2 || !parts[0] || !parts[1]) throw new EssieError(`RANGE[${arg}] must be RANGE[low, high]`);
        return { t: 'field', field: ctx.field, op: 'range', lo: parts[0], hi: parts[1] };
      }
      case 'EXPANSION':
      case 'COVERAGE':
        return this.primary(ctx);
      default:
        throw new EssieError(`operator ${name}[...] is not supported`);
    }
  }
}

function leaf(ctx: Context, raw: string, bare: boolean): Node {
  if (ctx.kind === 'field') return { t: 'field', field: ctx.field, op: 'eq', value: raw };
  const prefix = bare && raw.endsWith('*');
  const words = normalizeWords(prefix ? raw.slice(0, -1) : raw);
  if (words.length === 0) return { t: 'true' };
  return { t: 'text', area: ctx.area, words, prefix };
}

/** Removes no-op terms so that `true` only remains for an expression that constrains nothing. */
export function simplify(n: Node): Node {
  switch (n.t) {
    case 'and': {
      const c = n.c.map(simplify).filter((x) => x.t !== 'true');
      return c.length === 0 ? { t: 'true' } : c.length === 1 ? (c[0] as Node) : { t: 'and', c };
    }
    case 'or': {
      const c = n.c.map(simplify);
      if (c.some((x) => x.t === 'true')) return { t: 'true' };
      return c.length === 1 ? (c[0] as Node) : { t: 'or', c };
    }
    case 'not': {
      const c = simplify(n.c);
      return c.t === 'true' ? { t: 'true' } : { t: 'not', c };
    }
    default:
      return n;
  }
}

export function parseEssie(input: string, ctx: Context, resolve: AreaResolver): Node {
  if (input.length > 4000) throw new EssieError('expression longer than 4000 characters');
  return simplify(new Parser(lex(input), resolve).parse(ctx));
}
