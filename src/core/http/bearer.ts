/**
 * The bearer-token rule of biomirror's own endpoints (script execution, MCP): a token is needed
 * unless every address the server listens on is loopback (or a Unix socket). A server that is not
 * listening (a request dispatched in-process) cannot tell where a request came from, so it needs
 * one too.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

// Whether a listening server is on loopback alone, asked once: the address is a system call
// (getsockname) that a profile of `/mcp` found on every request, and it does not change while the
// server listens.
const listening = new WeakMap<object, boolean>();

/** `auto` follows the listening address; `always` and `never` are what they say. */
export function bearerNeeded(app: FastifyInstance, auth: 'auto' | 'always' | 'never'): boolean {
  if (auth !== 'auto') return auth === 'always';
  const known = listening.get(app.server);
  if (known !== undefined) return known;
  const a = app.server.address();
  // Not listening (yet): nothing to remember.
  if (a === null) return true;
  const needed = typeof a === 'string' ? false : !isLoopback(a.address);
  listening.set(app.server, needed);
  return needed;
}

/** Compared in constant time, so that the token cannot be guessed a byte at a time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const given = Buffer.from(m[1]);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
