/**
 * What every tool needs: the server's own Fastify app, reached in-process (no socket), so that a
 * tool call runs the same routes, handlers, limits and errors as an HTTP request and cannot drift
 * from them: a route's reader directly where it has one (core/http/direct.ts), `app.inject`
 * otherwise; the load records, so that every answer names its release; and who is calling, so
 * that the services limit and authorize that caller and nobody else.
 */
import type { FastifyInstance } from 'fastify';
import { directRoutesOf } from '../core/http/direct.js';
import type { ServiceError } from '../core/http/errors.js';
import type { Generations } from '../core/store/generations.js';

/**
 * The one client behind a tool call. Rate limits key on `ip`: over stdio the local user (a loopback
 * client, as their own HTTP requests are), over `/mcp` the address the request came from.
 */
export interface Caller {
  ip: string;
  /**
   * The caller's own protocol-service credentials from the `X-Protocols-Authorization` header of a
   * `/mcp` request. Never the `Authorization` header: that one authenticates the caller to `/mcp`.
   */
  protocolsAuthorization?: string | undefined;
}

export const LOCAL_CALLER: Caller = { ip: '127.0.0.1' };

export interface McpContext {
  app: FastifyInstance;
  generations: Generations;
  /** The script-execution service's token, for the one tool that runs scripts (undefined: none sent). */
  execToken?: (() => Promise<string | undefined>) | undefined;
  /** Who calls; the local user when not given. */
  caller?: Caller | undefined;
  /**
   * Where the answers of this tool call came from when not from the loaded data: each pulled-through
   * or kept upstream answer's `X-Biomirror-Source` ("upstream <host> <fetched at>").
   */
  pulled?: Set<string> | undefined;
}

/** A tool error the agent can act on: a bad argument, or a record not in the loaded data. */
export class ToolError extends Error {}

export interface Upstream {
  status: number;
  json: unknown;
  text: string;
  /** The bytes as sent, for files (blobs). */
  raw: Buffer;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface CallOptions {
  body?: unknown;
  /** Headers of this one request (a caller's own credentials); nothing else is forwarded. */
  headers?: Record<string, string>;
}

/** One request to the app: the path as the HTTP API serves it (shared port, with the mount). */
export async function call(ctx: McpContext, method: 'GET' | 'POST', url: string, opts: CallOptions = {}): Promise<Upstream> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await ctx.app.inject({
    method,
    url,
    headers,
    // The caller's address, so that a service's per-client budget is this caller's.
    remoteAddress: (ctx.caller ?? LOCAL_CALLER).ip,
    ...(opts.body === undefined ? {} : { payload: JSON.stringify(opts.body) }),
  });
  const from = res.headers['x-biomirror-source'];
  if (typeof from === 'string') ctx.pulled?.add(from);
  let json: unknown;
  try {
    json = res.body === '' ? undefined : (JSON.parse(res.body) as unknown);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, text: res.body, raw: res.rawPayload, headers: res.headers };
}

/** A service's error as its route would have answered it. */
function upstreamOf(e: ServiceError): Upstream {
  const raw = Buffer.isBuffer(e.body) ? e.body : Buffer.from(typeof e.body === 'string' ? e.body : JSON.stringify(e.body));
  const text = raw.toString();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: e.status, json, text, raw, headers: { ...e.headers, 'content-type': e.contentType } };
}

/** The upstream's own message, shortened: what its error body says, whatever its shape. */
export function messageOf(u: Upstream): string {
  const j = u.json as Record<string, unknown> | undefined;
  const m = j && (j.message ?? j.error_message ?? j.error ?? j.Fault ?? j.errors ?? j.detail ?? j.stderr);
  const text = m === undefined ? u.text : typeof m === 'string' ? m : JSON.stringify(m);
  return text.slice(0, 500);
}

export interface What {
  record: string;
  dataset: string;
}

/** The error an agent gets for a refused request, in the service's own words. */
export function refusal(u: Upstream, what: What): ToolError {
  const message = messageOf(u);
  // The shared port's own 404: no service is mounted there (disabled in the configuration).
  if (u.status === 404 && /^No service answers/.test(message)) return new ToolError(`the service behind ${what.record} is not enabled on this server`);
  if (/^No data is loaded/.test(message)) return new ToolError(`the service has no data loaded, so ${what.record} cannot be answered: ${message}`);
  if (u.status === 404) return new ToolError(`${what.record} is not in the loaded data (the dataset ${what.dataset} would hold it): ${message}`);
  if (u.status === 429) return new ToolError(`rate limited: the service allows this client no more requests now (retry after ${String(u.headers['retry-after'] ?? 1)} s): ${message}`);
  if (u.status === 503) return new ToolError(`the service is not ready (still loading its data, or busy): ${message}`);
  return new ToolError(`${what.record}: the service answered ${u.status}: ${message}`);
}

/**
 * The JSON of a successful answer; otherwise a ToolError. A 404 says the record is not in the
 * loaded data and which dataset would hold it, so the agent knows to load it rather than retry.
 * A 204 (the PDB Search API's "no hits") is `undefined`.
 */
export async function getJson(ctx: McpContext, url: string, what: What, body?: unknown, headers?: Record<string, string>): Promise<unknown> {
  let u: Upstream;
  // A plain GET of a route with a reader: the reader's value, without a request (core/http/direct.ts).
  const direct = body === undefined && headers === undefined ? directRoutesOf(ctx.app) : undefined;
  const out = direct && (await direct.start(url, (ctx.caller ?? LOCAL_CALLER).ip));
  if (out?.kind === 'answer') return out.value;
  if (out?.kind === 'refused') throw refusal(upstreamOf(out.error), what);
  if (out?.kind === 'route') {
    try {
      u = await call(ctx, 'GET', url, { headers: out.headers });
    } finally {
      out.done();
    }
  } else {
    u = await call(ctx, body === undefined ? 'GET' : 'POST', url, { body, ...(headers ? { headers } : {}) });
  }
  if (u.status >= 400) throw refusal(u, what);
  if (u.status === 204) return undefined;
  if (u.json === undefined) throw new ToolError(`${what.record}: the service answered something other than JSON`);
  return u.json;
}
