/** Query-string checks of the protocols API; each refusal names the parameter and what it allows. */
import { first, list, type Query } from '../../core/http/params.js';
import { CONTENT_FORMATS, type ContentFormat } from './content.js';
import { protoErrors } from './errors.js';
import { searchTokens } from './extract.js';
import type { ListInput } from './handlers.js';
import { FILTERS, ORDER_FIELDS, type Filter, type OrderField } from './list.js';

export const MAX_PAGE_SIZE = 100;

/** A value, without the quotes the upstream's own examples put around it (`filter="public"`). */
function value(q: Query, name: string): string | undefined {
  const v = first(q, name);
  if (v === undefined) return undefined;
  const t = v.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

function oneOf<T extends string>(q: Query, name: string, allowed: readonly T[], fallback: T): T {
  const v = value(q, name);
  if (v === undefined || v === '') return fallback;
  if (!(allowed as readonly string[]).includes(v)) throw protoErrors.invalidParameter(name, v, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

function integer(q: Query, name: string, min: number, max: number, fallback: number): number {
  const v = value(q, name);
  if (v === undefined || v === '') return fallback;
  const n = /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw protoErrors.invalidParameter(name, v, `must be a whole number from ${min} to ${max}`);
  return n;
}

export function parseFormat(q: Query): ContentFormat {
  return oneOf(q, 'content_format', CONTENT_FORMATS, 'html');
}

export function parseList(q: Query): ListInput {
  const filter = value(q, 'filter');
  if (!filter) throw protoErrors.missingParameter('filter', `one of ${FILTERS.join(', ')}`);
  if (!(FILTERS as readonly string[]).includes(filter)) throw protoErrors.invalidParameter('filter', filter, `must be one of ${FILTERS.join(', ')}`);
  const order = value(q, 'order_field');
  if (order && !(ORDER_FIELDS as readonly string[]).includes(order)) throw protoErrors.wrongOrderField(order);
  const key = first(q, 'key');
  if (key !== undefined && key.length > 500) throw protoErrors.invalidParameter('key', key, 'at most 500 characters');
  const fields = list(q, 'fields', /,/);
  for (const f of fields ?? []) if (!/^[a-z_]{1,64}$/.test(f)) throw protoErrors.invalidParameter('fields', f, 'comma-separated field names of the protocol object');
  return {
    filter: filter as Filter,
    words: key !== undefined && key.trim() !== '' ? searchTokens(key) : undefined,
    order: (order || 'activity') as OrderField,
    dir: oneOf(q, 'order_dir', ['asc', 'desc'] as const, 'desc'),
    pageSize: integer(q, 'page_size', 1, MAX_PAGE_SIZE, 10),
    pageId: integer(q, 'page_id', 1, 1_000_000, 1),
    fields: fields && fields.length ? fields : undefined,
    format: parseFormat(q),
  };
}
