/**
 * Reads and checks the query string of the studies endpoints. Every refusal names the parameter
 * and what it allows, in the registry's error body.
 */
import { first, list, type Query } from '../../core/http/params.js';
import { QUERY_PARAMS, resolveArea } from './areas.js';
import { PHASES, STATUSES, enumValue } from './enums.js';
import { ctErrors } from './errors.js';
import { EssieError, parseEssie, type Node } from './essie.js';
import { UnknownFieldError, resolveFields } from './fields.js';
import { SORT_FIELDS, normalizeNctId, type SortField, type SortKey } from './search.js';
import { CSV_COLUMNS } from './csv.js';

export type Format = 'json' | 'csv';

export interface SearchInput {
  /** query.* expressions, ANDed; they rank the results. */
  query: Node;
  /** filter.* and postFilter.* (they do not rank). */
  statuses: string[] | undefined;
  phases: string[] | undefined;
  ids: string[] | undefined;
  advanced: Node | undefined;
  sort: SortKey[];
  pageSize: number;
  pageToken: string | undefined;
  countTotal: boolean;
  format: Format;
  /** JSON: dotted paths to keep; CSV: column names. */
  fields: string[] | undefined;
  /** What a page token is bound to: the parameters that decide the result set and its order. */
  identity: Record<string, unknown>;
}

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 1000;

const UNSUPPORTED: Record<string, string> = {
  'filter.geo': 'geographic distance filtering needs location geocoding, which this mirror does not do',
  'postFilter.geo': 'geographic distance filtering needs location geocoding, which this mirror does not do',
  'filter.synonyms': 'synonym filters refer to the registry’s internal synonym ids, which bulk data does not carry',
  'postFilter.synonyms': 'synonym filters refer to the registry’s internal synonym ids, which bulk data does not carry',
  aggFilters: 'aggregation filters are not implemented; use filter.advanced, e.g. AREA[Phase]PHASE2',
};

function expression(q: Query, name: string, ctxArea: Parameters<typeof parseEssie>[1]): Node | undefined {
  const raw = first(q, name);
  if (raw === undefined) return undefined;
  try {
    return parseEssie(raw, ctxArea, resolveArea);
  } catch (err) {
    if (err instanceof EssieError) throw ctErrors.invalidQuery(name, err.message);
    throw err;
  }
}

function enumList(q: Query, names: string[], allowed: readonly string[]): string[] | undefined {
  let out: string[] | undefined;
  for (const name of names) {
    const items = list(q, name);
    if (items === undefined) continue;
    const values = items.map((raw) => {
      const v = enumValue(raw);
      if (!allowed.includes(v)) throw ctErrors.invalidParameter(name, raw, `allowed values are ${allowed.join(', ')}`);
      return v;
    });
    if (!values.length) throw ctErrors.invalidParameter(name, '', `allowed values are ${allowed.join(', ')}`);
    // filter.* and postFilter.* of the same kind both apply.
    out = out ? out.filter((v) => values.includes(v)) : values;
  }
  return out;
}

export function parseSort(q: Query): SortKey[] {
  const items = list(q, 'sort');
  if (items === undefined) return [];
  const allowed = [...Object.keys(SORT_FIELDS), '@relevance'];
  const what = `allowed fields are ${allowed.join(', ')}, each optionally followed by :asc or :desc; at most 2`;
  if (items.length === 0 || items.length > 2) throw ctErrors.invalidParameter('sort', first(q, 'sort') ?? '', what);
  return items.map((item) => {
    const [rawField, rawDir, extra] = item.split(':');
    const field = allowed.find((f) => f.toLowerCase() === (rawField ?? '').trim().toLowerCase()) as SortField | undefined;
    if (!field || extra !== undefined) throw ctErrors.invalidParameter('sort', item, what);
    const dir = rawDir === undefined ? (field === '@relevance' ? 'desc' : SORT_FIELDS[field].defaultDir) : rawDir.trim().toLowerCase();
    if (dir !== 'asc' && dir !== 'desc') throw ctErrors.invalidParameter('sort', item, `the direction must be asc or desc; ${what}`);
    return { field, dir };
  });
}

function parsePageSize(q: Query): number {
  const raw = first(q, 'pageSize');
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > MAX_PAGE_SIZE) {
    throw ctErrors.invalidParameter('pageSize', raw, `expected a whole number from 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`);
  }
  return Number(raw);
}

function parseBool(q: Query, name: string): boolean {
  const raw = first(q, name);
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (v !== 'true' && v !== 'false') throw ctErrors.invalidParameter(name, raw, 'expected true or false');
  return v === 'true';
}

export function parseFormat(q: Query, allowed: readonly Format[] = ['json', 'csv']): Format {
  const raw = first(q, 'format');
  if (raw === undefined) return 'json';
  const v = raw.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw ctErrors.invalidParameter('format', raw, `allowed values are ${allowed.join(', ')} (json.zip, fhir.json and ris are not served by this mirror)`);
  }
  return v as Format;
}

export function parseMarkup(q: Query): void {
  const raw = first(q, 'markupFormat');
  if (raw === undefined || raw.trim().toLowerCase() === 'markdown') return;
  if (raw.trim().toLowerCase() === 'legacy') {
    throw ctErrors.unsupportedParameter('markupFormat', 'only markdown is served: bulk data carries markup in markdown, not in the legacy PRS form');
  }
  throw ctErrors.invalidParameter('markupFormat', raw, 'allowed values are markdown, legacy');
}

export function parseFields(q: Query, format: Format): string[] | undefined {
  const items = list(q, 'fields');
  if (items === undefined) return undefined;
  if (items.length === 0) throw ctErrors.invalidParameter('fields', first(q, 'fields') ?? '', 'expected a non-empty comma- or pipe-separated list');
  if (format === 'csv') {
    return items.map((name) => {
      const col = CSV_COLUMNS.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (!col) throw ctErrors.invalidParameter('fields', name, `CSV columns are ${CSV_COLUMNS.map((c) => c.name).join(', ')}`);
      return col.name;
    });
  }
  try {
    return resolveFields(items);
  } catch (err) {
    if (err instanceof UnknownFieldError) {
      throw ctErrors.invalidParameter('fields', err.field, 'not a field, piece or module name of the study data structure (e.g. NCTId, BriefTitle, ConditionsModule, protocolSection.statusModule)');
    }
    throw err;
  }
}

function parseIds(q: Query): string[] | undefined {
  let out: string[] | undefined;
  for (const name of ['filter.ids', 'postFilter.ids']) {
    const items = list(q, name, /[,|\s]+/);
    if (items === undefined) continue;
    const ids = items.map((raw) => {
      const id = normalizeNctId(raw);
      if (!id) throw ctErrors.invalidParameter(name, raw, 'expected NCT numbers such as NCT04852770, comma- or pipe-separated');
      return id;
    });
    if (!ids.length) throw ctErrors.invalidParameter(name, '', 'expected NCT numbers such as NCT04852770, comma- or pipe-separated');
    out = out ? out.filter((i) => ids.includes(i)) : ids;
  }
  return out;
}

export function parseSearch(q: Query): SearchInput {
  for (const [name, why] of Object.entries(UNSUPPORTED)) if (q[name] !== undefined) throw ctErrors.unsupportedParameter(name, why);
  const format = parseFormat(q);
  parseMarkup(q);
  const queries: Node[] = [];
  for (const [name, area] of Object.entries(QUERY_PARAMS)) {
    const n = expression(q, name, { kind: 'text', area });
    if (n && n.t !== 'true') queries.push(n);
  }
  const query: Node = queries.length === 0 ? { t: 'true' } : queries.length === 1 ? (queries[0] as Node) : { t: 'and', c: queries };
  const advParts = ['filter.advanced', 'postFilter.advanced'].map((name) => expression(q, name, { kind: 'text', area: 'all' })).filter((n): n is Node => n !== undefined && n.t !== 'true');
  const advanced = advParts.length === 0 ? undefined : advParts.length === 1 ? advParts[0] : { t: 'and' as const, c: advParts };

  const statuses = enumList(q, ['filter.overallStatus', 'postFilter.overallStatus'], STATUSES);
  const phases = enumList(q, ['filter.phase', 'postFilter.phase'], PHASES);
  const ids = parseIds(q);
  const sort = parseSort(q);
  const identity = { query, advanced, statuses, phases, ids, sort };
  return {
    query,
    statuses,
    phases,
    ids,
    advanced,
    sort,
    pageSize: parsePageSize(q),
    pageToken: first(q, 'pageToken'),
    countTotal: parseBool(q, 'countTotal'),
    format,
    fields: parseFields(q, format),
    identity,
  };
}

/** The NCT number of the single-study path, normalised, or the registry's 400. */
export function parseNctId(raw: string): string {
  const id = normalizeNctId(raw);
  if (!id) throw ctErrors.invalidNctId(raw);
  return id;
}
