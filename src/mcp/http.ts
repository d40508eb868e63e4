/**
 * The Streamable HTTP transport at `/mcp`, stateless: each POST gets a fresh server and transport
 * (no session to keep, so any process of `serve --workers N` can answer any request), with JSON
 * answers rather than an event stream. Off loopback it needs the execution service's bearer token,
 * by the same rule (core/http/bearer.ts) and the same token (BIOMIRROR_EXEC_TOKEN or the stored one).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { bearerMatches, bearerNeeded } from '../core/http/bearer.js';
import type { Db } from '../core/store/db.js';
import type { Generations } from '../core/store/generations.js';
import { newToken, secret } from '../services/exec/secrets.js';
import { settingsFromEnv } from '../services/exec/settings.js';
import { createMcpServer } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpHttpDeps {
  db: Db;
  generations: Generations;
}

function jsonRpcError(reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}) {
  return reply.code(status).headers(headers).type('application/json').send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** The token, or undefined when none can be had (no execution service tables): then off loopback is refused. */
async function tokenOf(deps: McpHttpDeps): Promise<string | undefined> {
  const s = settingsFromEnv();
  if (s.token) return s.token;
  try {
    return await secret(deps.db, 'token', newToken);
  } catch {
    return undefined;
  }
}

export function mountMcp(app: FastifyInstance, deps: McpHttpDeps): void {
  app.post(MCP_PATH, async (req, reply) => {
    const settings = settingsFromEnv();
    if (bearerNeeded(app, settings.auth)) {
      const token = await tokenOf(deps);
      if (!token || !bearerMatches(req.headers.authorization, token)) {
        return jsonRpcError(reply, 401, 'a bearer token is needed on this server (Authorization: Bearer <token>; `biomirror serve` prints it as the execution token)', {
          'WWW-Authenticate': 'Bearer realm="biomirror-mcp"',
        });
      }
    }
    const server = await createMcpServer({ app, generations: deps.generations });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  // Stateless: no event stream to open and no session to end.
  const notAllowed = (_req: unknown, reply: FastifyReply) => jsonRpcError(reply, 405, 'this server is stateless: POST JSON-RPC requests to /mcp', { Allow: 'POST' });
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
