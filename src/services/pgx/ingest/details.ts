/**
 * Members of the served resources that PharmGKB's downloads do not carry but its API serves (a
 * gene's cytogenetic location and function, a drug's classes, a variant's consequence, a label's
 * sections, a pathway's description, a guideline's recommendations). `biomirror fetch pgx --parts
 * api` writes them as one JSON document beside the downloads:
 *
 *   {"details": [{"type": "gene", "key": "PA128", "field": "chromosomeLocation", "value": "22q13.2"}, ...]}
 *
 * Each item is checked here for its member's type; at the end of the load each is laid over the
 * record with that key (see store/derive/details.ts), whichever file the record came from.
 */
import { record, type DetailRow, type DetailType, type GuidelineRecommendation, type PgxRecord } from '../records.js';
import { recommendation } from './guidelines.js';

type Check = (v: unknown) => unknown;

const text: Check = (v) => (typeof v === 'string' ? v : undefined);
const texts: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const numbers: Check = (v) => (isObject(v) && Object.values(v).every((x) => typeof x === 'number' && Number.isFinite(x)) ? v : undefined);
const sections: Check = (v) => (isObject(v) && ['testing', 'dosing', 'warnings'].every((k) => typeof v[k] === 'string') ? { testing: v.testing, dosing: v.dosing, warnings: v.warnings } : undefined);
const recommendations: Check = (v) => {
  if (!Array.isArray(v)) return undefined;
  const out = v.map(recommendation);
  return out.every((r): r is GuidelineRecommendation => r !== undefined) ? out : undefined;
};

/** The members each resource may be given, with the check of their type. */
export const DETAIL_FIELDS: Readonly<Record<DetailType, Readonly<Record<string, Check>>>> = {
  gene: { chromosomeLocation: text, function: text, description: text },
  chemical: { drugClasses: texts, indication: text },
  variant: { consequence: text, clinicalSignificance: text, frequencies: numbers },
  label: { sections },
  pathway: { description: text },
  guideline: { recommendations },
};

const own = <T extends object>(o: T, k: string): k is Extract<keyof T, string> => Object.prototype.hasOwnProperty.call(o, k);

/** The record of one item of a details document, or why it cannot be loaded. */
export function detailRecord(item: unknown): PgxRecord | string {
  if (!isObject(item)) return 'not an object';
  const { type, key, field } = item;
  if (typeof type !== 'string' || !own(DETAIL_FIELDS, type)) return `unknown type ${JSON.stringify(type)}`;
  if (typeof key !== 'string' || !key.trim()) return 'no key';
  const fields = DETAIL_FIELDS[type];
  if (typeof field !== 'string' || !own(fields, field)) return `${type} has no member ${JSON.stringify(field)} to be given`;
  const value = (fields[field] as Check)(item.value);
  if (value === undefined) return `${type} ${key}: ${field} is not of its type`;
  const row: DetailRow = { type, key: key.trim(), field, value };
  return record('detail', `${type}\t${row.key.toLowerCase()}\t${field}`, row);
}

/** Whether a parsed JSON document is a details document. */
export function isDetailsDocument(doc: unknown): doc is { details: unknown[] } {
  return isObject(doc) && Array.isArray(doc.details);
}
