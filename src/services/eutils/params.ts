/**
 * E-utilities parameters from the query string and, for POST, the form body (the body wins). Names
 * are matched without regard to case: clients send both `WebEnv` and `webenv`.
 */
import type { Query } from '../../core/http/params.js';

export class ParamError extends Error {
  override readonly name = 'ParamError';
}

export class Params {
  private readonly q = new Map<string, string[]>();

  constructor(...sources: (Query | undefined)[]) {
    for (const src of sources) {
      if (!src || typeof src !== 'object') continue;
      for (const [k, v] of Object.entries(src)) {
        if (v === undefined) continue;
        this.q.set(k.toLowerCase(), Array.isArray(v) ? v.map(String) : [String(v)]);
      }
    }
  }

  has(name: string): boolean {
    return this.q.has(name);
  }

  str(name: string): string | undefined {
    const v = this.q.get(name)?.[0];
    return v === undefined ? undefined : v.trim();
  }

  /** Every value given for the name (a repeated parameter), each as sent. */
  all(name: string): string[] {
    return this.q.get(name) ?? [];
  }

  /** A whole number within bounds, or the default when absent or empty. */
  int(name: string, def: number, min: number, max: number): number {
    const v = this.str(name);
    if (v === undefined || v === '') return def;
    if (!/^\d+$/.test(v)) throw new ParamError(`Invalid ${name} value "${v}": expected a whole number from ${min} to ${max}`);
    const n = Number(v);
    if (n < min || n > max) throw new ParamError(`Invalid ${name} value "${v}": expected a whole number from ${min} to ${max}`);
    return n;
  }

  lower(name: string): string | undefined {
    return this.str(name)?.toLowerCase();
  }
}

/** UIDs of `id` parameters: comma- or space-separated, possibly repeated; each group kept apart. */
export function idGroups(p: Params): string[][] {
  return p
    .all('id')
    .map((v) =>
      v
        .split(/[,\s]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .filter((g) => g.length > 0);
}
