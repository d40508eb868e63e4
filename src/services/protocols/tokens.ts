/**
 * Authorizations, authorization codes and tokens. Codes and tokens are random values handed out
 * once; the database keeps only their SHA-256 digests. Tokens issued from one authorization code,
 * and every token refreshed from them, share a `family`: a replayed code or refresh token revokes
 * the whole family (RFC 6749 4.1.2, RFC 6819 5.2.2.3).
 */
import type { Db } from '../../core/store/db.js';
import { randomToken, sameDigest, sha256 } from './secrets.js';

const DAY = 24 * 3600 * 1000;
/** "Access tokens typically live one year"; refresh tokens twice as long, as the upstream's example shows. */
export const ACCESS_LIFETIME_MS = 365 * DAY;
export const REFRESH_LIFETIME_MS = 730 * DAY;
const PURGE_AFTER_MS = 30 * DAY;
/** RFC 6749 4.1.2: short-lived, ten minutes at most. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;

export type TokenKind = 'client' | 'oauth';
export type Scope = 'read' | 'readwrite';

export interface TokenRecord {
  id: number;
  /** The user the token acts for: the client's owner, or the user who authorized the application. */
  username: string;
  kind: TokenKind;
  clientPk: number;
  userId: number;
  scope: Scope;
  family: string | null;
  expiresAt: number;
  refreshExpiresAt: number | null;
  revokedAt: number | null;
}

interface TokenRow {
  id: number;
  username: string;
  access_hash: string;
  refresh_hash: string | null;
  kind: TokenKind;
  client_id: number;
  user_id: number;
  scope: Scope;
  family: string | null;
  expires_at: number;
  refresh_expires_at: number | null;
  revoked_at: number | null;
}

const TOKEN_SELECT = `SELECT t.id, u.username, t.access_hash, t.refresh_hash, t.kind, t.client_id, t.user_id, t.scope, t.family,
  t.expires_at, t.refresh_expires_at, t.revoked_at FROM proto_tokens t JOIN proto_users u ON u.id = t.user_id`;

function toRecord(r: TokenRow): TokenRecord {
  return {
    id: Number(r.id),
    username: r.username,
    kind: r.kind,
    clientPk: Number(r.client_id),
    userId: Number(r.user_id),
    scope: r.scope,
    family: r.family,
    expiresAt: Number(r.expires_at),
    refreshExpiresAt: r.refresh_expires_at == null ? null : Number(r.refresh_expires_at),
    revokedAt: r.revoked_at == null ? null : Number(r.revoked_at),
  };
}

export interface Issued {
  accessToken: string;
  refreshToken: string | undefined;
  expiresAt: number;
  refreshExpiresAt: number | undefined;
}

/** Writes a new token (and refresh token for OAuth tokens); call inside a transaction. */
export async function insertToken(tx: Db, t: { kind: TokenKind; clientPk: number; userId: number; scope: Scope; family: string | null; now: number; access?: string }): Promise<Issued> {
  const accessToken = t.access ?? randomToken();
  const refreshToken = t.kind === 'oauth' ? randomToken() : undefined;
  const expiresAt = t.now + ACCESS_LIFETIME_MS;
  const refreshExpiresAt = refreshToken ? t.now + REFRESH_LIFETIME_MS : undefined;
  // Tokens that can no longer be used at all go a month after that: until then an expired token is
  // still answered as expired rather than unknown. Revoked ones stay until they expire, so that a
  // replayed refresh token of a rotated line is still recognised.
  const cut = t.now - PURGE_AFTER_MS;
  await tx.run('DELETE FROM proto_tokens WHERE expires_at < ? AND COALESCE(refresh_expires_at, expires_at) < ?', [cut, cut]);
  await tx.run(
    `INSERT INTO proto_tokens (access_hash, refresh_hash, kind, client_id, user_id, scope, family, expires_at, refresh_expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [sha256(accessToken), refreshToken ? sha256(refreshToken) : null, t.kind, t.clientPk, t.userId, t.scope, t.family, expiresAt, refreshExpiresAt ?? null, t.now],
  );
  return { accessToken, refreshToken, expiresAt, refreshExpiresAt };
}

/**
 * The record of an access token. The lookup is by digest, which tells nothing about the token by
 * its timing; the digest found is then compared in constant time all the same.
 */
export async function findAccessToken(db: Db, token: string): Promise<TokenRecord | undefined> {
  const digest = sha256(token);
  const r = await db.one<TokenRow>(`${TOKEN_SELECT} WHERE t.access_hash = ?`, [digest], { hot: true });
  return r && sameDigest(r.access_hash, digest) ? toRecord(r) : undefined;
}

export async function findRefreshToken(db: Db, token: string): Promise<TokenRecord | undefined> {
  const digest = sha256(token);
  const r = await db.one<TokenRow>(`${TOKEN_SELECT} WHERE t.refresh_hash = ?`, [digest]);
  return r && r.refresh_hash && sameDigest(r.refresh_hash, digest) ? toRecord(r) : undefined;
}

export async function revokeFamily(db: Db, family: string, now = Date.now()): Promise<number> {
  return db.run('UPDATE proto_tokens SET revoked_at = ? WHERE family = ? AND revoked_at IS NULL', [now, family]);
}

/**
 * Marks a refresh token used and issues its successor, in one transaction; undefined if it was used
 * meanwhile. The successor has `scope` (RFC 6749 §6: the scope asked for, never more than granted).
 */
export async function rotate(db: Db, old: TokenRecord, now = Date.now(), scope: Scope = old.scope): Promise<Issued | undefined> {
  return db.transaction(async (tx) => {
    const n = await tx.run('UPDATE proto_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, old.id]);
    if (n !== 1) return undefined;
    return insertToken(tx, { kind: 'oauth', clientPk: old.clientPk, userId: old.userId, scope, family: old.family, now });
  });
}

/**
 * A new CLIENT_ACCESS_TOKEN of a client (read-only, for its owner). The client's earlier one is
 * revoked: there is one per client, and the token cannot be shown again once printed.
 */
export async function issueClientToken(db: Db, client: { id: number; ownerId: number }, access?: string): Promise<Issued> {
  const now = Date.now();
  return db.transaction(async (tx) => {
    await tx.run("UPDATE proto_tokens SET revoked_at = ? WHERE client_id = ? AND kind = 'client' AND revoked_at IS NULL", [now, client.id]);
    if (access) await tx.run('DELETE FROM proto_tokens WHERE access_hash = ?', [sha256(access)]);
    return insertToken(tx, { kind: 'client', clientPk: client.id, userId: client.ownerId, scope: 'read', family: null, now, ...(access ? { access } : {}) });
  });
}

// ---- authorizations -------------------------------------------------------------------------

export async function recordAuthorization(db: Db, userId: number, clientPk: number, scope: Scope, now = Date.now()): Promise<void> {
  await db.run(
    `INSERT INTO proto_authorizations (user_id, client_id, scope, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, updated_at = excluded.updated_at, revoked_at = NULL`,
    [userId, clientPk, scope, now, now],
  );
}

export async function authorizationActive(db: Db, userId: number, clientPk: number): Promise<boolean> {
  const r = await db.one<{ id: number }>('SELECT id FROM proto_authorizations WHERE user_id = ? AND client_id = ? AND revoked_at IS NULL', [userId, clientPk]);
  return r !== undefined;
}

export interface AuthorizationView {
  clientId: string;
  clientName: string;
  scope: Scope;
  since: number;
}

export async function authorizationsOf(db: Db, userId: number): Promise<AuthorizationView[]> {
  const rows = await db.query<{ client_id: string; name: string; scope: Scope; updated_at: number }>(
    `SELECT c.client_id, c.name, a.scope, a.updated_at FROM proto_authorizations a JOIN proto_clients c ON c.id = a.client_id
     WHERE a.user_id = ? AND a.revoked_at IS NULL ORDER BY c.name, c.client_id`,
    [userId],
  );
  return rows.map((r) => ({ clientId: r.client_id, clientName: r.name, scope: r.scope, since: Number(r.updated_at) }));
}

/** The user withdraws an application: its authorization, its tokens for them and pending codes go. */
export async function revokeAuthorization(db: Db, userId: number, clientPk: number, now = Date.now()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const n = await tx.run('UPDATE proto_authorizations SET revoked_at = ? WHERE user_id = ? AND client_id = ? AND revoked_at IS NULL', [now, userId, clientPk]);
    await tx.run("UPDATE proto_tokens SET revoked_at = ? WHERE user_id = ? AND client_id = ? AND kind = 'oauth' AND revoked_at IS NULL", [now, userId, clientPk]);
    await tx.run('UPDATE proto_codes SET used_at = ? WHERE user_id = ? AND client_id = ? AND used_at IS NULL', [now, userId, clientPk]);
    return n > 0;
  });
}

// ---- authorization codes ------------------------------------------------------------------------

export interface CodeRecord {
  clientPk: number;
  userId: number;
  redirectUri: string;
  scope: Scope;
  challenge: string | null;
  family: string;
  expiresAt: number;
  usedAt: number | null;
  digest: string;
}

export async function issueCode(db: Db, c: { clientPk: number; userId: number; redirectUri: string; scope: Scope; challenge: string | null }, now = Date.now()): Promise<string> {
  const code = randomToken();
  // Codes are kept a day after expiry so that a late replay is still recognised as one.
  await db.run('DELETE FROM proto_codes WHERE expires_at < ?', [now - 24 * 3600 * 1000]);
  await db.run(
    `INSERT INTO proto_codes (code_hash, client_id, user_id, redirect_uri, scope, challenge, family, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [sha256(code), c.clientPk, c.userId, c.redirectUri, c.scope, c.challenge, randomToken(16), now + CODE_LIFETIME_MS],
  );
  return code;
}

export async function findCode(db: Db, code: string): Promise<CodeRecord | undefined> {
  const digest = sha256(code);
  const r = await db.one<{
    code_hash: string;
    client_id: number;
    user_id: number;
    redirect_uri: string;
    scope: Scope;
    challenge: string | null;
    family: string;
    expires_at: number;
    used_at: number | null;
  }>('SELECT code_hash, client_id, user_id, redirect_uri, scope, challenge, family, expires_at, used_at FROM proto_codes WHERE code_hash = ?', [digest]);
  if (!r || !sameDigest(r.code_hash, digest)) return undefined;
  return {
    clientPk: Number(r.client_id),
    userId: Number(r.user_id),
    redirectUri: r.redirect_uri,
    scope: r.scope,
    challenge: r.challenge,
    family: r.family,
    expiresAt: Number(r.expires_at),
    usedAt: r.used_at == null ? null : Number(r.used_at),
    digest: r.code_hash,
  };
}

/** Spends a code and issues its tokens in one transaction; undefined if another request spent it first. */
export async function redeemCode(db: Db, code: CodeRecord, now = Date.now()): Promise<Issued | undefined> {
  return db.transaction(async (tx) => {
    const n = await tx.run('UPDATE proto_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [now, code.digest]);
    if (n !== 1) return undefined;
    return insertToken(tx, { kind: 'oauth', clientPk: code.clientPk, userId: code.userId, scope: code.scope, family: code.family, now });
  });
}
