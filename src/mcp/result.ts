/** The one answer shape every tool returns, its schema, and the size budget. */
import { z } from 'zod';
import { ToolError, type McpContext } from './context.js';

/** Tokens are an agent's budget: list answers stay under this unless it asks for more items. */
export const ANSWER_BUDGET = 8 * 1024;

export const SourceSchema = z.object({
  service: z.string(),
  datasets: z.array(z.object({ dataset: z.string(), release: z.string().nullable(), loaded_at: z.string().nullable(), source: z.string() })),
  upstream: z.array(z.string()).optional().describe('present when (part of) the answer was pulled through from the real service, not loaded: "upstream <host> <fetched at>" each'),
});

export const OUTPUT = {
  ids: z.array(z.string()).describe('identifiers of the records in this answer, to cite or to fetch'),
  total: z.number().nullable().describe('how many records match, when the service says'),
  items: z.array(z.record(z.string(), z.unknown())).describe('compact records'),
  next_cursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last'),
  truncated: z.boolean().describe('true when items were dropped to keep the answer under 8 KB'),
  source: SourceSchema,
};

export type Answer = {
  ids: string[];
  total: number | null;
  items: Record<string, unknown>[];
  next_cursor: string | null;
  truncated: boolean;
  source: z.infer<typeof SourceSchema>;
};

export type Page = Omit<Answer, 'source' | 'truncated' | 'total' | 'next_cursor'> & {
  total?: number | null;
  next_cursor?: string | null;
  /**
   * The cursor of the record after the first `kept` items of this page, for when the budget drops
   * the rest: the next page then starts at the first record dropped. Without it, dropped records
   * are skipped (an upstream page token cannot start mid-page).
   */
  resume?: (kept: number) => string | null;
};

// Read at most once a second per service: a tool call then costs no extra query, and a load
// (by this process or a server beside it) still shows within a second.
const SOURCE_TTL_MS = 1000;
const sources = new WeakMap<McpContext['generations'], Map<string, { at: number; value: Promise<Answer['source']> }>>();

/** What is loaded for a service: its datasets' releases, so that an answer can be cited. */
export function sourceOf(ctx: McpContext, service: string): Promise<Answer['source']> {
  let byService = sources.get(ctx.generations);
  if (!byService) sources.set(ctx.generations, (byService = new Map()));
  const hit = byService.get(service);
  if (hit && Date.now() - hit.at < SOURCE_TTL_MS) return hit.value;
  const value = ctx.generations.served(service).then((served) => ({
    service,
    datasets: served.map((l) => ({ dataset: l.dataset, release: l.release, loaded_at: l.finishedAt, source: l.source })),
  }));
  value.catch(() => byService.delete(service));
  byService.set(service, { at: Date.now(), value });
  return value;
}

/**
 * Drops items from the end until the answer fits the budget; the cursor then leads to the first
 * item dropped where the page can say where that is (`resume`), and past them otherwise. Returns
 * the answer with its JSON text, made once (the text is measured, then sent as the tool's text).
 */
export function fit(answer: Answer, resume?: (kept: number) => string | null, budget = ANSWER_BUDGET): { answer: Answer; text: string } {
  let a = answer;
  let text = JSON.stringify(a);
  while (a.items.length > 1 && Buffer.byteLength(text) > budget) {
    const items = a.items.slice(0, -1);
    a = { ...a, items, ids: a.ids.slice(0, items.length), truncated: true, ...(resume ? { next_cursor: resume(items.length) } : {}) };
    text = JSON.stringify(a);
  }
  return { answer: a, text };
}

/** A page of an offset-paged list: its cursor, and where to resume when items are dropped. */
export function offsetPage(items: Record<string, unknown>[], ids: string[], offset: number, more: boolean, total?: number | null): Page {
  return {
    ids,
    items,
    ...(total === undefined ? {} : { total }),
    next_cursor: more ? encodeCursor({ offset: offset + items.length }) : null,
    resume: (kept) => encodeCursor({ offset: offset + kept }),
  };
}

/**
 * Rows `offset` to `offset + limit` of a list the upstream pages by page number: one upstream page
 * of `limit` rows, or two when a resumed cursor starts mid-page.
 */
export async function pageWindow<T>(offset: number, limit: number, fetchPage: (page: number, size: number) => Promise<{ rows: T[]; more: boolean }>): Promise<{ rows: T[]; more: boolean }> {
  const page = Math.floor(offset / limit);
  const skip = offset - page * limit;
  const first = await fetchPage(page, limit);
  let rows = first.rows.slice(skip);
  let more = first.more;
  if (skip > 0 && more) {
    const second = await fetchPage(page + 1, limit);
    rows = rows.concat(second.rows.slice(0, skip));
    more = second.more || second.rows.length > skip;
  }
  return { rows, more };
}

/** Cursors are opaque to the agent: an offset or an upstream page token, base64url JSON. */
export function encodeCursor(c: { offset?: number; token?: string }): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { offset: number; token?: string } {
  if (!cursor) return { offset: 0 };
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown; token?: unknown };
    const offset = typeof c.offset === 'number' && Number.isInteger(c.offset) && c.offset >= 0 ? c.offset : 0;
    return typeof c.token === 'string' ? { offset, token: c.token } : { offset };
  } catch {
    throw new ToolError('cursor: not a cursor this server gave (pass next_cursor from the previous answer, or nothing for the first page)');
  }
}

/** Keeps the named fields that are present (compact records). */
export function pick(o: unknown, keys: readonly string[]): Record<string, unknown> {
  const src = (o ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (src[k] !== undefined && src[k] !== null) out[k] = src[k];
  return out;
}
