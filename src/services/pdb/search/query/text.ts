/**
 * Attribute terminals (`text`, `text_chem`) compiled to SQL over the index tables: each yields the
 * rows `(kind, obj, rec, entry_id)` of the objects (and nested records) it matches, for the engine to map
 * onto the return type. Operators are checked against the attribute's search contexts first.
 */
import type { SqlValue } from '../../../../core/store/db.js';
import { PHRASE_WORDS, attributes, dateMs, operatorsOf, tokens, wordRun, type Attribute, type Catalogue, type Operator } from '../attributes.js';
import { badQuery } from '../../errors.js';
import { LOW_KEY_UNITS, attrKey, lowKey, type SearchTables } from '../build/indexer.js';
import { checkServed } from './unserved.js';
import type { Sql } from '../../../../core/store/sql.js';

export interface AttributeCondition {
  attribute: Attribute;
  operator: Operator;
  value: unknown;
  negation: boolean;
  caseSensitive: boolean;
}

/** Reads and checks one terminal's parameters against the attribute catalogue. */
export function attributeCondition(cat: Catalogue, p: Record<string, unknown>, service: string): AttributeCondition {
  const path = String(p.attribute);
  const attribute = attributes(cat).get(path);
  if (!attribute) {
    throw badQuery(
      `Attribute ${path} is not a searchable attribute of the ${service} service (see ${cat === 'chemical' ? '/rcsbsearch/v2/metadata/chemical/schema' : '/rcsbsearch/v2/metadata/schema'})`,
    );
  }
  checkServed(path);
  const operator = p.operator as Operator;
  const allowed = operatorsOf(attribute);
  if (!allowed.has(operator)) {
    throw badQuery(`Operator ${operator} is not supported for attribute ${path} (allowed: ${[...allowed].join(', ')})`);
  }
  if (operator !== 'exists' && p.value === undefined) throw badQuery(`Operator ${operator} on ${path} needs a value`);
  return { attribute, operator, value: p.value, negation: p.negation === true, caseSensitive: p.case_sensitive === true };
}

const DAY = 86_400_000;
const DATE_MATH = /^(now|(\d{4}-\d{2}-\d{2})\|\|)(?:([-+])(\d+)([wMy]))?$/;

/** A date value (ISO date, date-time or date math) as milliseconds, and the span a bare date covers. */
export function dateValue(v: unknown, path: string): { ms: number; span: number } {
  if (typeof v !== 'string') throw badQuery(`The value of ${path} must be a date`);
  const m = DATE_MATH.exec(v);
  if (m) {
    const base = m[2] ? new Date(`${m[2]}T00:00:00Z`) : new Date();
    if (Number.isNaN(base.getTime())) throw badQuery(`${v} is not a valid date for ${path}`);
    if (m[3]) {
      const n = Number(m[4]) * (m[3] === '-' ? -1 : 1);
      if (m[5] === 'w') base.setUTCDate(base.getUTCDate() + 7 * n);
      else if (m[5] === 'M') base.setUTCMonth(base.getUTCMonth() + n);
      else base.setUTCFullYear(base.getUTCFullYear() + n);
    }
    return { ms: base.getTime(), span: m[2] ? DAY : 1 };
  }
  const ms = dateMs(v);
  if (ms === undefined) throw badQuery(`${v} is not a valid date for ${path}`);
  return { ms, span: /^\d{4}-\d{2}-\d{2}$/.test(v) ? DAY : 1 };
}

function numberValue(v: unknown, a: Attribute): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw badQuery(`The value of ${a.path} must be a number, found ${JSON.stringify(v)}`);
}

const isNumeric = (a: Attribute) => a.kind === 'integer' || a.kind === 'number' || a.kind === 'date';

/** The SQL condition on an `a` alias of the attribute table (or of the token table). */
export function condition(c: AttributeCondition, n: SearchTables): { from: string; where: string; params: SqlValue[] } {
  const a = c.attribute;
  const key = attrKey(n, a.path);
  const params: SqlValue[] = [key];
  const base = { from: `${n.sattr} a`, where: 'a.attr = ?' };
  // Numeric rows only (the index of numbers holds no others).
  const numeric = { ...base, where: `${base.where} AND a.num IS NOT NULL` };
  // Strings by their lower-cased form (indexed); a case-sensitive match also checks the original
  // on the rows that form finds. A long value is looked up by its key and, for tables of an
  // earlier version (which hold it whole), by itself.
  const strings = (list: unknown[]): { where: string; params: SqlValue[] } => {
    const low = list.flatMap((v) => {
      const l = String(v).toLowerCase();
      return l.length > LOW_KEY_UNITS ? [lowKey(l), l] : [l];
    });
    const marks = (n: number) => (n === 1 ? '= ?' : `IN (${Array.from({ length: n }, () => '?').join(',')})`);
    if (!c.caseSensitive) return { where: `${base.where} AND a.low ${marks(low.length)}`, params: [...params, ...low] };
    return { where: `${base.where} AND a.low ${marks(low.length)} AND a.str ${marks(list.length)}`, params: [...params, ...low, ...list.map(String)] };
  };
  const point = (v: unknown) => (a.kind === 'date' ? dateValue(v, a.path).ms : numberValue(v, a));
  switch (c.operator) {
    case 'exists':
      return { ...base, params };
    case 'exact_match': {
      if (Array.isArray(c.value) || (c.value !== null && typeof c.value === 'object')) throw badQuery(`exact_match on ${a.path} takes a single value`);
      if (isNumeric(a)) return { ...numeric, where: `${numeric.where} AND a.num = ?`, params: [...params, point(c.value)] };
      return { ...base, ...strings([c.value]) };
    }
    case 'in': {
      const list = Array.isArray(c.value) ? c.value : [c.value];
      if (list.length === 0 || list.length > 10_000) throw badQuery(`in on ${a.path} takes 1 to 10000 values`);
      if (isNumeric(a)) {
        if (a.kind === 'date') {
          const spans = list.map((v) => dateValue(v, a.path));
          return { ...numeric, where: `${numeric.where} AND (${spans.map(() => '(a.num >= ? AND a.num < ?)').join(' OR ')})`, params: [...params, ...spans.flatMap((s) => [s.ms, s.ms + s.span])] };
        }
        return { ...numeric, where: `${numeric.where} AND a.num IN (${list.map(() => '?').join(',')})`, params: [...params, ...list.map(point)] };
      }
      return { ...base, ...strings(list) };
    }
    case 'equals': {
      if (a.kind === 'boolean') return { ...base, where: `${base.where} AND a.low = ?`, params: [...params, String(c.value === true || c.value === 'true')] };
      if (a.kind === 'date') {
        const d = dateValue(c.value, a.path);
        return { ...numeric, where: `${numeric.where} AND a.num >= ? AND a.num < ?`, params: [...params, d.ms, d.ms + d.span] };
      }
      return { ...numeric, where: `${numeric.where} AND a.num = ?`, params: [...params, point(c.value)] };
    }
    case 'greater':
    case 'greater_or_equal':
    case 'less':
    case 'less_or_equal': {
      const v = c.value;
      let x: number;
      if (a.kind === 'date') {
        const d = dateValue(v, a.path);
        // A bare date covers its whole day: "after 2020-01-01" starts the next day.
        x = c.operator === 'greater' || c.operator === 'less_or_equal' ? d.ms + d.span - 1 : d.ms;
        const op = c.operator === 'greater' ? '>' : c.operator === 'greater_or_equal' ? '>=' : c.operator === 'less' ? '<' : '<=';
        return { ...numeric, where: `${numeric.where} AND a.num ${op} ?`, params: [...params, x] };
      }
      x = point(v);
      const op = { greater: '>', greater_or_equal: '>=', less: '<', less_or_equal: '<=' }[c.operator];
      return { ...numeric, where: `${numeric.where} AND a.num ${op} ?`, params: [...params, x] };
    }
    case 'range': {
      const r = c.value as { from?: unknown; to?: unknown; include_lower?: boolean; include_upper?: boolean } | null;
      if (r === null || typeof r !== 'object' || Array.isArray(r) || (r.from === undefined && r.to === undefined)) {
        throw badQuery(`range on ${a.path} takes {from, to, include_lower, include_upper}`);
      }
      let where = numeric.where;
      const ps = [...params];
      if (r.from !== undefined) {
        const lo = a.kind === 'date' ? dateValue(r.from, a.path) : { ms: point(r.from), span: 0 };
        where += r.include_lower ? ' AND a.num >= ?' : ' AND a.num > ?';
        ps.push(a.kind === 'date' && !r.include_lower ? lo.ms + lo.span - 1 : lo.ms);
      }
      if (r.to !== undefined) {
        const hi = a.kind === 'date' ? dateValue(r.to, a.path) : { ms: point(r.to), span: 0 };
        where += r.include_upper ? ' AND a.num <= ?' : ' AND a.num < ?';
        ps.push(a.kind === 'date' && r.include_upper ? hi.ms + hi.span - 1 : hi.ms);
      }
      return { ...base, where, params: ps };
    }
    case 'contains_words': {
      const words = [...new Set(tokens(String(Array.isArray(c.value) ? c.value.join(' ') : c.value)))];
      if (words.length === 0) throw badQuery(`contains_words on ${a.path} needs at least one word`);
      return { from: `${n.stok} a`, where: `a.attr = ? AND a.tok IN (${words.map(() => '?').join(',')})`, params: [...params, ...words] };
    }
    case 'contains_phrase': {
      const words = tokens(String(c.value));
      if (words.length === 0) throw badQuery(`contains_phrase on ${a.path} needs at least one word`);
      if (words.length > 32) throw badQuery(`contains_phrase on ${a.path} takes at most 32 words`);
      if (words.length === 1) return { from: `${n.stok} a`, where: 'a.attr = ? AND a.tok = ?', params: [...params, words[0] as string] };
      if (n.wordsOnly) {
        // Tables of an earlier version: each further word one index lookup at its offset.
        const joins = words
          .slice(1)
          .map(
            (_, j) =>
              `JOIN ${n.stok} p${j + 1} ON p${j + 1}.attr = a.attr AND p${j + 1}.tok = ? AND p${j + 1}.entry_id = a.entry_id AND p${j + 1}.kind = a.kind AND p${j + 1}.obj = a.obj AND p${j + 1}.rec = a.rec AND p${j + 1}.pos = a.pos + ${j + 1}`,
          )
          .join(' ');
        return { from: `${n.stok} a ${joins}`, where: 'a.attr = ? AND a.tok = ?', params: [...words.slice(1), key, words[0] as string] };
      }
      if (words.length <= PHRASE_WORDS) {
        // The runs the phrase's key prefixes: it ends in a space, which sorts below every word's
        // characters, so they lie between it and the same key ending in the next character.
        const key = wordRun(words);
        return { from: `${n.stok} a`, where: 'a.attr = ? AND a.rest >= ? AND a.rest < ?', params: [...params, key, `${key.slice(0, -1)}!`] };
      }
      // Longer: whole runs at every PHRASE_WORDS-th word (the last one ending with the phrase),
      // each one index lookup on the first run's row at its offset.
      const starts: number[] = [];
      for (let i = 0; i + PHRASE_WORDS <= words.length; i += PHRASE_WORDS) starts.push(i);
      if ((starts[starts.length - 1] as number) + PHRASE_WORDS < words.length) starts.push(words.length - PHRASE_WORDS);
      const run = (i: number) => wordRun(words.slice(i, i + PHRASE_WORDS));
      const joins = starts
        .slice(1)
        .map(
          (at, j) =>
            `JOIN ${n.stok} p${j + 1} ON p${j + 1}.attr = a.attr AND p${j + 1}.rest = ? AND p${j + 1}.entry_id = a.entry_id AND p${j + 1}.kind = a.kind AND p${j + 1}.obj = a.obj AND p${j + 1}.rec = a.rec AND p${j + 1}.pos = a.pos + ${at}`,
        )
        .join(' ');
      return { from: `${n.stok} a ${joins}`, where: 'a.attr = ? AND a.rest = ?', params: [...starts.slice(1).map(run), key, run(0)] };
    }
  }
}

/** The rows `(kind, obj, rec, entry_id)` one attribute condition matches (before negation). */
export function conditionSql(c: AttributeCondition, n: SearchTables): Sql {
  const q = condition(c, n);
  return { sql: `SELECT a.kind AS kind, a.obj AS obj, a.rec AS rec, a.entry_id AS entry_id FROM ${q.from} WHERE ${q.where}`, params: q.params };
}

/** The index a condition reads: word conditions may match one value several times. */
export const readsWords = (c: AttributeCondition): boolean => c.operator === 'contains_words' || c.operator === 'contains_phrase';

/**
 * Conditions that must hold on the same nested record (one group of attributes of one nested
 * container): a join on object and record number.
 */
export function sameRecordSql(list: AttributeCondition[], n: SearchTables): Sql {
  const parts = list.map((c) => condition(c, n));
  const subs = parts.map((p, i) => `(SELECT a.kind AS kind, a.obj AS obj, a.rec AS rec, a.entry_id AS entry_id FROM ${p.from} WHERE ${p.where}) s${i}`);
  const on = subs.slice(1).map((s, i) => `JOIN ${s} ON s${i + 1}.kind = s0.kind AND s${i + 1}.obj = s0.obj AND s${i + 1}.rec = s0.rec`);
  return { sql: `SELECT s0.kind AS kind, s0.obj AS obj, s0.rec AS rec, s0.entry_id AS entry_id FROM ${subs[0]} ${on.join(' ')}`, params: parts.flatMap((p) => p.params) };
}
