/**
 * The protocol service, with the caller's own access token and nobody else's. The token comes from
 * the `access_token` argument, or over `/mcp` from the `X-Protocols-Authorization` header. The
 * `Authorization` header of a `/mcp` request is never forwarded: it authenticates the caller to
 * `/mcp`, and may be the server's own execution token. Without a token of the caller's, nothing is
 * asked of the service with any other identity: the service's own refusal is the answer.
 */
import { z } from 'zod';
import { ToolError, call, refusal, type McpContext } from '../context.js';
import { decodeCursor, encodeCursor, offsetPage, pageWindow } from '../result.js';
import { enc, paging, str, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

const BASE = '/protocols/api/v3';
const WHAT = { record: 'the protocol service', dataset: 'protocols/protocols' };

const accessToken = z
  .string()
  .regex(/^[A-Za-z0-9._~+/=-]{1,512}$/, 'access_token must be an access token of the protocol service (without "Bearer")')
  .optional()
  .describe('your own access token of the protocol service (a client token, or one from its OAuth flow); over /mcp it may come in the X-Protocols-Authorization header instead');

/** The caller's credentials for the protocol service, as an Authorization header. */
function credentials(ctx: McpContext, a: Obj): Record<string, string> {
  const arg = str(a.access_token);
  if (arg) return { authorization: `Bearer ${arg}` };
  const header = ctx.caller?.protocolsAuthorization?.trim();
  if (header) return { authorization: /^Bearer\s/i.test(header) ? header : `Bearer ${header}` };
  return {};
}

async function protocolJson(ctx: McpContext, url: string, a: Obj): Promise<Obj> {
  const u = await call(ctx, 'GET', url, { headers: credentials(ctx, a) });
  if (u.status === 401) {
    const e = refusal(u, WHAT);
    throw new ToolError(`access_token: ${e.message} (give your own token as access_token, or over /mcp in the X-Protocols-Authorization header)`);
  }
  if (u.status >= 400) throw refusal(u, { ...WHAT, record: 'the protocol' });
  return (u.json ?? {}) as Obj;
}

const people = (xs: unknown) => (Array.isArray(xs) ? (xs as Obj[]).map((p) => p.name).slice(0, 10) : undefined);
const clip = (v: unknown, n: number) => (typeof v === 'string' && v.length > n ? `${v.slice(0, n)}…` : v);

function summary(p: Obj): Obj {
  return {
    id: p.id,
    title: p.title,
    uri: p.uri,
    doi: p.doi,
    public: p.public === 1 || p.public === true,
    creator: (p.creator as Obj | undefined)?.username ?? (p.creator as Obj | undefined)?.name,
    authors: people(p.authors),
    published_on: p.published_on || null,
    steps: p.number_of_steps,
    description: clip(p.description, 600),
  };
}

/** A step's text (markdown) and its quantities, from its components. */
function stepText(step: Obj, i: number): Obj {
  const parts: string[] = [];
  const extras: Obj[] = [];
  for (const c of (step.components ?? []) as Obj[]) {
    const src = (c.source ?? {}) as Obj;
    if (typeof src.description === 'string') parts.push(src.description);
    else extras.push({ kind: c.title, ...src });
  }
  return { step: i + 1, text: clip(parts.join('\n\n'), 1500), ...(extras.length ? { details: extras.slice(0, 8) } : {}) };
}

export const protocolTools: ToolSpec[] = [
  {
    name: 'protocols_search',
    title: 'Search protocols',
    description:
      'Lists protocols of the protocol service, searchable by words: public ones, or with your own access token your own (user_public, user_private) and those shared with you. Needs your access token (argument access_token, or the X-Protocols-Authorization header over /mcp).',
    service: 'protocols',
    input: {
      filter: z.enum(['public', 'user_public', 'user_private', 'shared_with_user']).default('public').describe('which protocols'),
      words: z.string().max(500).optional().describe('words to search for in titles and text'),
      access_token: accessToken,
      ...paging(50, 10),
    },
    async run(ctx, a) {
      const { offset } = decodeCursor(str(a.cursor));
      const limit = a.limit as number;
      let total: number | null = null;
      // The service pages by page number, from 1.
      const { rows, more } = await pageWindow(offset, limit, async (page, size) => {
        const q = new URLSearchParams({ filter: a.filter as string, page_size: String(size), page_id: String(page + 1), content_format: 'markdown' });
        if (str(a.words)) q.set('key', a.words as string);
        const j = await protocolJson(ctx, `${BASE}/protocols?${q}`, a);
        total = typeof j.total === 'number' ? j.total : null;
        return { rows: ((j.items ?? []) as Obj[]).map(summary), more: total !== null && (page + 1) * size < total };
      });
      return offsetPage(
        rows,
        rows.map((i) => String(i.id)),
        offset,
        more,
        total,
      );
    },
  },
  {
    name: 'protocols_get',
    title: 'Get a protocol',
    description: 'One protocol by id, URI or DOI, with its steps as text and its materials; a private one only with the access token of a user who may see it. Use after protocols_search.',
    service: 'protocols',
    input: {
      protocol: z
        .string()
        .regex(/^[A-Za-z0-9._:/-]{1,300}$/, 'protocol must be a protocol id, URI or DOI')
        .describe('id (e.g. 90001), URI or DOI'),
      access_token: accessToken,
      cursor: z.string().max(2000).optional().describe('next_cursor of a previous answer: the next steps'),
    },
    async run(ctx, a) {
      const ref = (a.protocol as string).replace(/^https?:\/\/(dx\.)?doi\.org\//, '');
      const { offset } = decodeCursor(str(a.cursor));
      const j = await protocolJson(ctx, `${BASE}/protocols/${ref.split('/').map(enc).join('/')}?content_format=markdown`, a);
      const p = (j.protocol ?? {}) as Obj;
      const steps = ((p.steps ?? []) as Obj[]).map(stepText);
      // Steps fill what the budget leaves; the cursor leads to the rest.
      const page: Obj[] = [];
      let bytes = 0;
      for (const s of steps.slice(offset)) {
        bytes += Buffer.byteLength(JSON.stringify(s));
        if (page.length > 0 && bytes > 5000) break;
        page.push(s);
      }
      const materials = ((p.materials ?? []) as Obj[]).map((m) => m.name).slice(0, 40);
      const item = { ...summary(p), steps_from: offset + 1, step_texts: page, materials };
      const next = offset + page.length < steps.length ? encodeCursor({ offset: offset + page.length }) : null;
      return { ids: [String(p.id)], items: [item], total: 1, next_cursor: next };
    },
  },
];
