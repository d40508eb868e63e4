/**
 * The key of a request: method, service, the real URL it stands for, its query parameters sorted
 * by name (values of one name keep their order: `id=2&id=1` is not `id=1&id=2` for an ESummary),
 * without the caller's identity, and for a POST a hash of its body. The real URL (not this
 * server's path) makes keys the same on the shared port, on a service's own port and behind a
 * chain of biomirrors, so kept answers move between them (`cache export` / `cache import`).
 */
import { createHash } from 'node:crypto';

/** The caller's identity: never part of a key, never forwarded (the configured one is sent instead). */
export const IDENTITY_PARAMS = new Set(['api_key', 'email', 'tool']);

export type Params = [string, string][];

/** Query or form parameters in order, without the caller's identity. */
export function withoutIdentity(params: Iterable<[string, string]>): Params {
  return [...params].filter(([k]) => !IDENTITY_PARAMS.has(k.toLowerCase()));
}

/** Parameters of a parsed form body (an object whose repeated names hold arrays). */
export function formParams(body: Record<string, unknown>): Params {
  const out: Params = [];
  for (const [k, v] of Object.entries(body)) for (const one of Array.isArray(v) ? v : [v]) out.push([k, String(one)]);
  return out;
}

function sortedByName(params: Params): Params {
  // Array.prototype.sort is stable: values of one name keep their order.
  return [...params].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are one query. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type ForwardBody = { type: 'json'; value: unknown } | { type: 'form'; params: Params };

export interface RequestKey {
  /** sha256 of `text`: the primary key of a kept answer. */
  key: string;
  /** The normalised request, readable: `GET eutils https://.../esummary.fcgi?db=gene&id=672`. */
  text: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function requestKey(method: string, service: string, publicUrl: URL, query: Params, body?: ForwardBody): RequestKey {
  const q = new URLSearchParams(sortedByName(withoutIdentity(query))).toString();
  let text = `${method} ${service} ${publicUrl.origin}${publicUrl.pathname}${q ? `?${q}` : ''}`;
  if (body) {
    const canonical = body.type === 'json' ? canonicalJson(body.value) : new URLSearchParams(sortedByName(withoutIdentity(body.params))).toString();
    text += ` body:${body.type}:${sha256(canonical)}`;
  }
  return { key: sha256(text), text };
}
