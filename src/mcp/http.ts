/**
 * The Streamable HTTP transport at `/mcp`, stateless with JSON answers: one MCP server per app,
 * built at the first request and shared by all (see shared-transport.ts), so a tool call costs the
 * tool's own request plus JSON-RPC framing. No session id is issued, and one sent (by a client that
 * met another server) is ignored, so any process of `serve --workers N` can answer any request.
 *
 * Off loopback it needs the execution service's bearer token, by the same rule
 * (core/http/bearer.ts) and the same token (BIOMIRROR_EXEC_TOKEN or the stored one). That
 * `Authorization` header is for `/mcp` only and reaches no service; a caller's own protocol-service
 * token travels in `X-Protocols-Authorization` (or a tool argument). Each tool call is made as the
 * caller: from the request's address, so that the services' rate limits count this client alone.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerMatches, bearerNeeded } from '../core/http/bearer.js';
import type { Db } from '../core/store/db.js';
import type { Generations } from '../core/store/generations.js';
import { newToken, secret } from '../services/exec/secrets.js';
import { settingsFromEnv } from '../services/exec/settings.js';
import { createMcpServer, setCaller } from './server.js';
import { SharedJsonTransport } from './shared-transport.js';

export const MCP_PATH = '/mcp';
/** The largest POST body: tool arguments are bounded far below it; the SDK's transport allows 4 MiB. */
export const MCP_BODY_LIMIT = 4 * 1024 * 1024;
const MAX_BATCH = 100;
export const PROTOCOLS_HEADER = 'x-protocols-authorization';

export interface McpHttpDeps {
  db: Db;
  generations: Generations;
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return reply.code(status).headers(headers).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

// Read once per database: the token does not change while the server runs.
const tokens = new WeakMap<Db, Promise<string | undefined>>();

/**
 * The execution service's token (BIOMIRROR_EXEC_TOKEN, else the stored one), or undefined when none
 * can be had (no execution service tables): then off loopback is refused.
 */
export function serverToken(db: Db): Promise<string | undefined> {
  let t = tokens.get(db);
  if (!t) {
    const s = settingsFromEnv();
    t = s.token ? Promise.resolve(s.token) : secret(db, 'token', newToken).catch(() => undefined);
    tokens.set(db, t);
  }
  return t;
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Checks a POST's headers as the SDK's transport does; a reason to refuse, or undefined. */
function refusalOf(req: FastifyRequest): { status: number; code: number; message: string } | undefined {
  const accept = single(req.headers.accept);
  // Lenient where the SDK is strict: a client that accepts JSON at all is answered in JSON.
  if (accept && !/application\/json|application\/\*|\*\/\*/i.test(accept)) return { status: 406, code: -32000, message: 'Not Acceptable: the client must accept application/json' };
  const version = single(req.headers['mcp-protocol-version']);
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return { status: 400, code: -32000, message: `Bad Request: unsupported protocol version ${version.slice(0, 40)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})` };
  }
  return undefined;
}

function parseMessages(body: unknown): JSONRPCMessage[] | { code: number; message: string } {
  const raw = Array.isArray(body) ? body : [body];
  if (raw.length === 0 || raw.length > MAX_BATCH) return { code: -32600, message: `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages` };
  const out: JSONRPCMessage[] = [];
  for (const m of raw) {
    const r = JSONRPCMessageSchema.safeParse(m);
    if (!r.success) return { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' };
    out.push(r.data);
  }
  return out;
}

export function mountMcp(app: FastifyInstance, deps: McpHttpDeps): void {
  // Read once: reading the environment (and the CPU count) per request showed in the timings.
  const auth = settingsFromEnv().auth;
  let shared: Promise<{ server: McpServer; transport: SharedJsonTransport }> | undefined;
  const connected = () => {
    shared ??= (async () => {
      const server = await createMcpServer({ app, generations: deps.generations, execToken: () => serverToken(deps.db) });
      const transport = new SharedJsonTransport();
      transport.onerror = (err) => app.log.error({ err }, 'MCP transport error');
      await server.connect(transport);
      return { server, transport };
    })();
    shared.catch(() => (shared = undefined));
    return shared;
  };
  app.addHook('onClose', async () => {
    if (shared) await (await shared).server.close().catch(() => undefined);
  });

  app.post(MCP_PATH, {
    bodyLimit: MCP_BODY_LIMIT,
    // Fastify's own refusals (a body too large, not JSON, of another type) as JSON-RPC errors.
    errorHandler: (err: FastifyError, _req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      const code = status === 400 ? -32700 : -32000;
      const message = status === 500 ? 'internal error' : status === 400 ? `Parse error: ${err.message}` : err.message;
      if (status === 500) app.log.error({ err }, 'MCP request failed');
      return jsonRpcError(reply, status, code, message);
    },
    // Before the body is read: an unauthenticated client gets nothing parsed.
    onRequest: async (req, reply) => {
      if (!bearerNeeded(app, auth)) return undefined;
      const token = await serverToken(deps.db);
      if (token && bearerMatches(req.headers.authorization, token)) return undefined;
      return jsonRpcError(reply, 401, -32000, 'a bearer token is needed on this server (Authorization: Bearer <token>; `biomirror serve` prints it as the execution token)', {
        'WWW-Authenticate': 'Bearer realm="biomirror-mcp"',
      });
    },
    handler: async (req, reply) => {
      // Fastify reads text/plain too; MCP messages are JSON only.
      if (!/^application\/json\s*(;|$)/i.test(single(req.headers['content-type']) ?? '')) return jsonRpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      const refused = refusalOf(req);
      if (refused) return jsonRpcError(reply, refused.status, refused.code, refused.message);
      const messages = parseMessages(req.body);
      if (!Array.isArray(messages)) return jsonRpcError(reply, 400, messages.code, messages.message);

      const { transport } = await connected();
      const requestInfo = { headers: { ...req.headers } };
      setCaller(requestInfo, { ip: req.ip, protocolsAuthorization: single(req.headers[PROTOCOLS_HEADER]) });
      const abandoned = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
      const answers = await transport.dispatch(messages, { requestInfo }, abandoned);
      // Only notifications or responses: accepted, nothing to answer.
      if (answers.length === 0) return reply.code(202).send();
      return reply.type('application/json').send(JSON.stringify(Array.isArray(req.body) ? answers : answers[0]));
    },
  });
  // Stateless: no event stream to open and no session to end.
  const notAllowed = (_req: unknown, reply: FastifyReply) => jsonRpcError(reply, 405, -32000, 'this server is stateless: POST JSON-RPC requests to /mcp', { Allow: 'POST' });
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
