/**
 * Bearer tokens on API requests: which user a token acts for, and whose private protocols it sees.
 * A CLIENT_ACCESS_TOKEN sees its client user's; an OAUTH_ACCESS_TOKEN acts for the one user who
 * authorized the application when it was issued, and sees that user's private content only (the
 * real service's reading of "each user who authorized the application": see docs/compatibility.md).
 */
import type { Db } from '../../core/store/db.js';
import { protoErrors } from './errors.js';
import { sha256 } from './secrets.js';
import { authorizationActive, findAccessToken, type TokenRecord } from './tokens.js';

export type Headers = Record<string, string | string[] | undefined>;

export interface Access {
  token: TokenRecord;
  /** Usernames whose private protocols this token may see (looked up once per request). */
  owners(): Promise<ReadonlySet<string>>;
  /** The upstream's warning fields, a month before the token expires. */
  warning: { warning_code: number; warning_message: string } | undefined;
}

const BEARER = /^\s*Bearer\s+([A-Za-z0-9._~+/=-]{1,512})\s*$/i;
const WARN_BEFORE_MS = 30 * 24 * 3600 * 1000;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The bearer token of a request: `Authorization: Bearer <token>`, or the `Authentication` header
 * the upstream's own examples write. Undefined when there is none.
 */
export function bearerToken(headers: Headers): string | undefined {
  const v = header(headers, 'authorization') ?? header(headers, 'authentication');
  if (v === undefined || v.trim() === '') return undefined;
  return BEARER.exec(v)?.[1] ?? '';
}

function warningFor(expiresAt: number, now: number): Access['warning'] {
  const left = expiresAt - now;
  if (left > WARN_BEFORE_MS) return undefined;
  const days = Math.max(1, Math.ceil(left / (24 * 3600 * 1000)));
  return { warning_code: 1, warning_message: `Your access token expires in ${days} day${days === 1 ? '' : 's'}` };
}

/** A valid token's record, or the error to answer with. */
export async function checkToken(db: Db, token: string | undefined, now = Date.now()): Promise<TokenRecord> {
  if (token === undefined) throw protoErrors.noToken();
  const t = token ? await findAccessToken(db, token) : undefined;
  if (!t || t.revokedAt !== null) throw protoErrors.badToken();
  if (t.expiresAt <= now) throw protoErrors.expiredToken();
  return t;
}

export function accessOf(db: Db, t: TokenRecord, now = Date.now()): Access {
  let owners: Promise<ReadonlySet<string>> | undefined;
  return {
    token: t,
    warning: warningFor(t.expiresAt, now),
    owners() {
      // An OAuth token sees its own user's private content while that user's authorization stands.
      owners ??= t.kind === 'client' ? Promise.resolve(new Set([t.username])) : authorizationActive(db, t.userId, t.clientPk).then((ok) => new Set(ok ? [t.username] : []));
      return owners;
    },
  };
}

/** Every API request: a token is required. */
export async function authenticate(db: Db, headers: Headers): Promise<Access> {
  return accessOf(db, await checkToken(db, bearerToken(headers)));
}

/** The PDF: no token reads public protocols; a token given must be valid. */
export async function authenticateOptional(db: Db, headers: Headers): Promise<Access | undefined> {
  const token = bearerToken(headers);
  return token === undefined ? undefined : accessOf(db, await checkToken(db, token));
}

/**
 * Rate-limit keys: the user behind a token. Looked up on every request, so valid answers are kept
 * a few seconds (a key only picks a budget; every request is still authenticated by its handler).
 */
export class UserKeys {
  private readonly cache = new Map<string, { user: number | null; at: number }>();
  constructor(private readonly ttlMs = 5000) {}

  async userOf(db: Db | undefined, headers: Headers): Promise<number | null> {
    const token = bearerToken(headers);
    if (!token || !db) return null;
    const digest = sha256(token);
    const now = Date.now();
    const hit = this.cache.get(digest);
    if (hit && now - hit.at < this.ttlMs) return hit.user;
    const t = await findAccessToken(db, token);
    const user = t && t.revokedAt === null && t.expiresAt > now ? t.userId : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(digest, { user, at: now });
    return user;
  }
}
