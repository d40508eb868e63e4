import type { Entry } from '../../../core/mmcif/block-reader.js';
import { categoryPlans, type SchemaObject } from './schema.js';

/**
 * Copies the mmCIF categories an object's schema lists, typed as the schema says. `rowsOf` picks
 * the rows that belong to the object (an entity's, an assembly's); undefined takes every row.
 */
export function copyCategories(entry: Entry, object: SchemaObject, doc: Record<string, unknown>, rowsOf: (category: string) => number[] | undefined = () => undefined): void {
  for (const [lower, plan] of categoryPlans(object)) {
    if (!entry.has(lower)) continue;
    const rows = rowsOf(lower);
    if (rows && rows.length === 0) continue;
    const values = entry.table(lower).json(plan, rows);
    if (values.length === 0) continue;
    doc[plan.name] = plan.array ? values : values[0];
  }
}

/**
 * Leaves out the copied rows that lack a value their schema requires, rather than invent one: for
 * documents whose required items all come from the file (an entry's own builders add computed
 * ones, such as an assembly generator's `ordinal`, after copying).
 */
export function dropIncompleteRows(object: SchemaObject, doc: Record<string, unknown>): void {
  for (const plan of categoryPlans(object).values()) {
    const v = doc[plan.name];
    if (v === undefined || plan.required.length === 0) continue;
    const complete = (row: unknown) => plan.required.every((k) => (row as Record<string, unknown>)[k] !== undefined);
    if (!Array.isArray(v)) {
      if (!complete(v)) delete doc[plan.name];
      continue;
    }
    const kept = v.filter(complete);
    if (kept.length) doc[plan.name] = kept;
    else delete doc[plan.name];
  }
}

/** Drops undefined members, so absent values are omitted (never null), as the Data API writes. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

export interface Revision {
  major: number;
  minor: number;
  date: string | undefined;
}

/** Release history: the first release and the latest revision. */
export function revisions(entry: Entry): { initial: string | undefined; latest: Revision | undefined } {
  const t = entry.table('pdbx_audit_revision_history');
  let initial: string | undefined;
  let latest: Revision | undefined;
  for (let r = 0; r < t.rows; r++) {
    const date = t.str('revision_date', r);
    const major = t.int('major_revision', r) ?? 0;
    const minor = t.int('minor_revision', r) ?? 0;
    if (date && (initial === undefined || date < initial)) initial = date;
    if (!latest || major > latest.major || (major === latest.major && minor >= latest.minor)) latest = { major, minor, date };
  }
  return { initial, latest };
}

export const sortIds = (ids: Iterable<string>): string[] =>
  [...new Set(ids)].sort((a, b) => {
    const na = Number(a);
    const nb = Number(b);
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a < b ? -1 : a > b ? 1 : 0;
  });

export const round = (v: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};
