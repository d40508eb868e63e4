/**
 * A reader of ASN.1 value notation, for tests: `Type ::= value` records into plain values, so a test
 * checks the structure efetch wrote rather than its spacing. A `{ ... }` of named members becomes an
 * object (members with a repeated name an array of one-member objects), a `{ ... }` of bare values an array, `name value` inside a
 * CHOICE a one-member object, numbers numbers, identifiers (enumerations) strings prefixed `#`,
 * OCTET STRINGs their `'..'H` text.
 */
export type AsnValue = number | string | AsnValue[] | { [name: string]: AsnValue };

type Token = { kind: 'open' | 'close' | 'comma' | 'assign' | 'ident' | 'number' | 'string'; text: string };

function tokens(text: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(?:(::=)|([{}])|(,)|(-?\d+)(?![\w-])|"((?:[^"]|"")*)"|([A-Za-z][\w-]*)|'([0-9A-F]*)'H)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    if (m[1]) out.push({ kind: 'assign', text: m[1] });
    else if (m[2]) out.push({ kind: m[2] === '{' ? 'open' : 'close', text: m[2] });
    else if (m[3]) out.push({ kind: 'comma', text: ',' });
    else if (m[4] !== undefined) out.push({ kind: 'number', text: m[4] });
    else if (m[5] !== undefined) out.push({ kind: 'string', text: m[5].replace(/""/g, '"') });
    else if (m[6]) out.push({ kind: 'ident', text: m[6] });
    else if (m[7] !== undefined) out.push({ kind: 'string', text: `'${m[7]}'H` });
    if (/^\s*$/.test(text.slice(re.lastIndex))) break;
  }
  if (!/^\s*$/.test(text.slice(re.lastIndex))) throw new Error(`unreadable ASN.1 at ${re.lastIndex}: ${text.slice(re.lastIndex, re.lastIndex + 40)}`);
  return out;
}

export function parseAsn(text: string): { type: string; value: AsnValue }[] {
  const ts = tokens(text);
  let i = 0;
  const next = (): Token => {
    const t = ts[i++];
    if (!t) throw new Error('ASN.1 ends early');
    return t;
  };
  const peek = (): Token | undefined => ts[i];
  const startsValue = (t: Token | undefined) => !!t && (t.kind === 'open' || t.kind === 'number' || t.kind === 'string' || t.kind === 'ident');

  function value(): AsnValue {
    const t = next();
    if (t.kind === 'number') return Number(t.text);
    if (t.kind === 'string') return t.text;
    if (t.kind === 'ident') {
      if (startsValue(peek())) return { [t.text]: value() };
      return `#${t.text}`;
    }
    if (t.kind !== 'open') throw new Error(`unexpected ${t.text}`);
    const items: { name?: string; v: AsnValue }[] = [];
    while (peek()?.kind !== 'close') {
      const h = peek();
      if (h?.kind === 'ident' && startsValue(ts[i + 1])) {
        next();
        items.push({ name: h.text, v: value() });
      } else items.push({ v: value() });
      if (peek()?.kind === 'comma') next();
      else if (peek()?.kind !== 'close') throw new Error(`expected , or } after item ${items.length}`);
    }
    next();
    if (items.length && items.every((x) => x.name !== undefined)) {
      const names = items.map((x) => x.name as string);
      // A repeated name is a list of CHOICE values (`refs { pmid 1, pmid 2 }`).
      if (new Set(names).size < names.length) return items.map((x) => ({ [x.name as string]: x.v }));
      return Object.fromEntries(items.map((x) => [x.name as string, x.v]));
    }
    if (items.some((x) => x.name !== undefined)) throw new Error('named and bare items mixed');
    return items.map((x) => x.v);
  }

  const records: { type: string; value: AsnValue }[] = [];
  while (i < ts.length) {
    const type = next();
    if (type.kind !== 'ident' || next().kind !== 'assign') throw new Error('expected `Type ::=`');
    records.push({ type: type.text, value: value() });
  }
  return records;
}

/** The value at a path of member names and list positions (`at(v, 'locus', 0, 'type')`). */
export function at(v: AsnValue | undefined, ...path: (string | number)[]): AsnValue | undefined {
  let cur: AsnValue | undefined = v;
  for (const k of path) {
    if (cur === undefined || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? (typeof k === 'number' ? cur[k] : undefined) : typeof k === 'string' ? cur[k] : undefined;
  }
  return cur;
}
