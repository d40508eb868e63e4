/**
 * What every tool needs: the server's own Fastify app, reached with `app.inject` (in-process, no
 * socket), so that a tool call runs the same routes, handlers, limits and errors as an HTTP request
 * and cannot drift from them; and the load records, so that every answer names its release.
 */
import type { FastifyInstance } from 'fastify';
import type { Generations } from '../core/store/generations.js';

export interface McpContext {
  app: FastifyInstance;
  generations: Generations;
  /** The caller's own credentials, for a service that needs them (protocols; no tool uses it yet). */
  authorization?: string | undefined;
}

/** A tool error the agent can act on: a bad argument, or a record not in the loaded data. */
export class ToolError extends Error {}

export interface Upstream {
  status: number;
  json: unknown;
  text: string;
  /** The bytes as sent, for files (blobs). */
  raw: Buffer;
}

/** One request to the app: the path as the HTTP API serves it (shared port, with the mount). */
export async function call(ctx: McpContext, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Upstream> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (ctx.authorization) headers.authorization = ctx.authorization;
  const res = await ctx.app.inject({
    method,
    url,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  let json: unknown;
  try {
    json = JSON.parse(res.body) as unknown;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, text: res.body, raw: res.rawPayload };
}

/** The upstream's own message, shortened: what its error body says, whatever its shape. */
function messageOf(u: Upstream): string {
  const j = u.json as Record<string, unknown> | undefined;
  const m = j && (j.message ?? j.error ?? j.Fault ?? j.errors ?? j.detail);
  const text = m === undefined ? u.text : typeof m === 'string' ? m : JSON.stringify(m);
  return text.slice(0, 500);
}

/**
 * The JSON of a successful answer; otherwise a ToolError. A 404 says the record is not in the
 * loaded data and which dataset would hold it, so the agent knows to load it rather than retry.
 */
export async function getJson(ctx: McpContext, url: string, what: { record: string; dataset: string }, body?: unknown): Promise<unknown> {
  const u = await call(ctx, body === undefined ? 'GET' : 'POST', url, body);
  // The shared port's own 404: no service is mounted there (disabled in the configuration).
  if (u.status === 404 && /^No service answers/.test(messageOf(u))) throw new ToolError(`the service behind ${what.record} is not enabled on this server`);
  if (u.status === 404) throw new ToolError(`${what.record} is not in the loaded data (the dataset ${what.dataset} would hold it): ${messageOf(u)}`);
  if (u.status === 503) throw new ToolError(`the service is not ready (still loading its data): ${messageOf(u)}`);
  if (u.status >= 400) throw new ToolError(`${what.record}: the service answered ${u.status}: ${messageOf(u)}`);
  if (u.json === undefined) throw new ToolError(`${what.record}: the service answered something other than JSON`);
  return u.json;
}
