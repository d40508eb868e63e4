import fc from 'fast-check';
import type { Seed } from './known-good.js';

/**
 * Odd inputs a client or an attacker sends: names of JavaScript object members, the metacharacters
 * of each query language the services parse (SQL, full-text, Essie, the Entrez search language,
 * SMILES/SMARTS, regular expressions, GraphQL, the PDB search DSL), traversal, bad escapes, control
 * bytes, huge and deeply nested values.
 */
export const ODD_VALUES: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999',
  '1.5',
  '0x10',
  'null',
  'undefined',
  'true',
  "'",
  '"',
  '\\',
  '`',
  ';',
  '--',
  "' OR 1=1--",
  '"; DROP TABLE x; --',
  '%',
  '_',
  '*',
  '?',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<',
  '>',
  '"unbalanced',
  'a AND',
  'OR',
  'NOT NOT NOT',
  'NEAR(',
  '^',
  ':',
  'a:b:c',
  'AREA[',
  'AREA[Phase]',
  'AREA[X](',
  'RANGE[a,',
  'SEARCH[',
  'EXPANSION[',
  'COVERAGE[',
  'BRCA1[gene',
  '((((',
  'a[b][c]',
  'a[xx]',
  '2020:2010[pdat]',
  'C1CC',
  'C(C(C(C',
  '[Xx]',
  'c1ccccc1(',
  '[#6;R2;!$(*)]',
  '*~*~*',
  'InChI=1S/',
  'InChI=1S/C9H8O4/c1-6(10)13',
  'O=[N+]([O-])',
  '(a+)+$',
  '(.*a){30}',
  '[[:alpha:]',
  '\\p{L',
  '.{1000000}',
  '{ __typename }',
  'query { entry(entry_id: "4HHB") { rcsb_id } }',
  '{"type":"terminal"}',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e',
  '/',
  '//',
  '%',
  '%E0%A4%A',
  '%FF',
  '%00',
  '%0d%0aX-Injected:1',
  '\u0000',
  '\u0001',
  '\u007f',
  '\u202e',
  '\ud800',
  '😀',
  'é',
  'Ω',
  'ǅ',
  'İ',
  'a'.repeat(10_000),
  '9'.repeat(400),
  'C'.repeat(2000),
  '('.repeat(500),
  '['.repeat(300),
];

/** Names every lookup by a name from a request must treat as unknown, never as Object's members. */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

/** Every single-place substitution of `values` into a seed: each path segment below the mount, each parameter's value and name. */
export function sweep(seed: Seed, values: readonly string[]): Request[] {
  const [path = '', query = ''] = seed.url.split('?');
  const segs = path.split('/');
  const params = query ? query.split('&') : [];
  const out: Request[] = [];
  const make = (url: string): Request => ({ method: seed.method, url, body: seed.body, type: seed.type, headers: { ...seed.headers } });
  for (const v of values) {
    for (let i = 2; i < segs.length; i++) {
      const s2 = [...segs];
      s2[i] = encodeAny(v);
      out.push(make(s2.join('/') + (query ? `?${query}` : '')));
    }
    params.forEach((p, i) => {
      const [name = ''] = p.split('=');
      const asValue = [...params];
      asValue[i] = `${name}=${encodeAny(v)}`;
      const asName = [...params];
      asName[i] = `${encodeAny(v)}=${p.split('=').slice(1).join('=')}`;
      out.push(make(`${path}?${asValue.join('&')}`), make(`${path}?${asName.join('&')}`));
    });
  }
  return out;
}

export type Mutation =
  | { kind: 'segment'; index: number; value: string }
  | { kind: 'param'; index: number; value: string }
  | { kind: 'newParam'; name: string; value: string }
  | { kind: 'dupParam'; index: number }
  | { kind: 'dropParam'; index: number }
  | { kind: 'body'; value: string; type: string }
  | { kind: 'method'; method: string };

const odd = fc.oneof(fc.constantFrom(...ODD_VALUES), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x'];

const oddBody = fc.oneof(
  odd,
  fc.json({ maxDepth: 4 }),
  fc.constantFrom('{', '[1,2', '{"a":', 'null', '[]', '{}', '{"query":1}', '{"args":"x"}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'),
  fc.integer({ min: 10, max: 120 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 129, max: 5000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('segment' as const), index: fc.nat(), value: odd }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('param' as const), index: fc.nat(), value: odd }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('newParam' as const), name: odd, value: odd }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dupParam' as const), index: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropParam' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('body' as const), value: oddBody, type: fc.constantFrom(...BODY_TYPES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('method' as const), method: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST', 'GET') }) },
);

/**
 * Percent-encodes like encodeURIComponent, but a lone surrogate (which encodeURIComponent refuses)
 * becomes the bytes a careless client would send for it (its three-byte WTF-8 form): invalid UTF-8.
 */
export function encodeAny(v: string): string {
  return v.replace(/[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    if (part.length === 1 && /[\ud800-\udfff]/.test(part)) {
      const c = part.charCodeAt(0);
      return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(part);
  });
}

/** Percent-encodes a value for a path or query, but lets a few raw escapes through as sent. */
function enc(v: string): string {
  return /^%[0-9A-Fa-f]{0,2}/.test(v) && v.length <= 12 ? v : encodeAny(v);
}

export interface Request {
  method: string;
  url: string;
  body?: string | undefined;
  type?: string | undefined;
  headers: Record<string, string>;
}

export function apply(seed: Seed, m: Mutation): Request {
  const [path = '', query = ''] = seed.url.split('?');
  const segs = path.split('/');
  const params = query ? query.split('&') : [];
  const req: Request = { method: seed.method, url: seed.url, body: seed.body, type: seed.type, headers: { ...seed.headers } };
  const withQuery = (p: string, ps: string[]) => (ps.length ? `${p}?${ps.join('&')}` : p);
  switch (m.kind) {
    case 'segment': {
      // Never the service's mount (the first segment): that only tests the shared not-found.
      const i = 2 + (m.index % Math.max(1, segs.length - 2));
      const s2 = [...segs];
      s2[Math.min(i, segs.length - 1)] = enc(m.value);
      req.url = withQuery(s2.join('/'), params);
      break;
    }
    case 'param': {
      if (!params.length) break;
      const i = m.index % params.length;
      const name = (params[i] ?? '').split('=')[0] ?? '';
      const p2 = [...params];
      p2[i] = `${name}=${enc(m.value)}`;
      req.url = withQuery(path, p2);
      break;
    }
    case 'newParam':
      req.url = withQuery(path, [...params, `${encodeAny(m.name)}=${enc(m.value)}`]);
      break;
    case 'dupParam':
      if (params.length) req.url = withQuery(path, [...params, params[m.index % params.length] as string]);
      break;
    case 'dropParam':
      if (params.length)
        req.url = withQuery(
          path,
          params.filter((_, i) => i !== m.index % params.length),
        );
      break;
    case 'body':
      req.method = 'POST';
      req.body = m.value;
      req.type = m.type;
      break;
    case 'method':
      req.method = m.method;
      break;
  }
  return req;
}
