/**
 * Query-string helpers shared by the services' routes. Fastify gives a repeated parameter as an
 * array; upstream services take the first (or join lists), so routes read parameters through these.
 */
export type Query = Record<string, string | string[] | undefined>;

export function first(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A comma- or pipe-separated list (repeated parameters are joined), trimmed, empty items dropped. */
export function list(q: Query, name: string, separators = /[,|]/): string[] | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  const joined = Array.isArray(v) ? v.join(',') : v;
  return joined
    .split(separators)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
