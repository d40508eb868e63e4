/**
 * Accounts and registered applications. Passwords are kept as salted scrypt hashes, client secrets
 * as SHA-256 digests (they are long random values); neither can be read back.
 */
import type { Db, SqlValue } from '../../core/store/db.js';
import { hashPassword, randomToken, sameDigest, sha256, verifyPassword } from './secrets.js';

export class AccountError extends Error {
  override readonly name = 'AccountError';
}

export interface User {
  id: number;
  username: string;
  name: string;
  affiliation: string | null;
}

export interface Client {
  id: number;
  clientId: string;
  name: string;
  ownerId: number;
  redirectUris: string[];
  secretHash: string;
}

export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

interface UserRow {
  id: number;
  username: string;
  name: string;
  affiliation: string | null;
  password_hash: string;
}

interface ClientRow {
  id: number;
  client_id: string;
  name: string;
  owner_id: number;
  redirect_uris: string;
  secret_hash: string;
}

const toUser = (r: UserRow): User => ({ id: Number(r.id), username: r.username, name: r.name, affiliation: r.affiliation });
const toClient = (r: ClientRow): Client => ({
  id: Number(r.id),
  clientId: r.client_id,
  name: r.name,
  ownerId: Number(r.owner_id),
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  secretHash: r.secret_hash,
});

export function writeOne<T>(db: Db, sql: string, params: readonly SqlValue[]): Promise<T | undefined> {
  return db.transaction((tx) => tx.one<T>(sql, params));
}

export async function createUser(db: Db, u: { username: string; password: string; name?: string; affiliation?: string | null }): Promise<User> {
  if (!USERNAME.test(u.username)) throw new AccountError(`invalid username "${u.username}": letters, digits, . _ - (up to 63), starting with a letter or digit`);
  if (u.password.length < 8) throw new AccountError('the password must have at least 8 characters');
  for (const v of [u.name, u.affiliation]) if (v && /\p{Cc}/u.test(v)) throw new AccountError('names may not hold control characters');
  const hash = await hashPassword(u.password);
  // A write with RETURNING runs in a transaction: outside one, SQLite reads on a read-only connection.
  const row = await writeOne<{ id: number }>(
    db,
    `INSERT INTO proto_users (username, name, affiliation, password_hash, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (username) DO NOTHING RETURNING id`,
    [u.username, u.name ?? u.username, u.affiliation ?? null, hash, Date.now()],
  );
  if (!row) throw new AccountError(`user "${u.username}" already exists`);
  return { id: Number(row.id), username: u.username, name: u.name ?? u.username, affiliation: u.affiliation ?? null };
}

export async function findUser(db: Db, username: string): Promise<User | undefined> {
  if (!USERNAME.test(username)) return undefined;
  const r = await db.one<UserRow>('SELECT id, username, name, affiliation, password_hash FROM proto_users WHERE username = ?', [username]);
  return r && toUser(r);
}

export async function userById(db: Db, id: number): Promise<User | undefined> {
  const r = await db.one<UserRow>('SELECT id, username, name, affiliation, password_hash FROM proto_users WHERE id = ?', [id], { hot: true });
  return r && toUser(r);
}

/** The user whose password this is, or undefined; as slow for an unknown name as for a wrong password. */
export async function checkLogin(db: Db, username: string, password: string): Promise<User | undefined> {
  const r = USERNAME.test(username) ? await db.one<UserRow>('SELECT id, username, name, affiliation, password_hash FROM proto_users WHERE username = ?', [username]) : undefined;
  const ok = await verifyPassword(password, r?.password_hash);
  return ok && r ? toUser(r) : undefined;
}

/** The upstream's user object. */
export function userObject(u: Pick<User, 'name' | 'username' | 'affiliation'>): Record<string, unknown> {
  return { name: u.name, affiliation: u.affiliation, username: u.username, link: null, image: { source: null, placeholder: null } };
}

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:']);

/** Why a redirect URI cannot be registered (RFC 6749 3.1.2: absolute, no fragment), or null. */
export function redirectUriProblem(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (/[\s\p{Cc}]/u.test(uri)) return `"${uri}" contains white space or control characters`;
  if (u.hash || uri.includes('#')) return `"${uri}" has a fragment (#...), which RFC 6749 forbids`;
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `"${uri}": the scheme ${u.protocol} cannot receive a redirect`;
  return null;
}

/**
 * Whether `given` is one of the client's redirect URIs: the same string, exactly. RFC 8252 §7.3 lets
 * a native app's loopback redirect differ in its port, but that is for public clients, which cannot
 * keep a secret; every client of this service is confidential (it authenticates with its secret at
 * the token endpoint), so a loopback URI must match with its port too.
 */
export function redirectAllowed(client: Client, given: string): boolean {
  return client.redirectUris.includes(given);
}

export async function createClient(db: Db, c: { name: string; owner: string; redirectUris: string[]; clientId?: string; secret?: string }): Promise<{ client: Client; secret: string }> {
  const owner = await findUser(db, c.owner);
  if (!owner) throw new AccountError(`no user "${c.owner}": create it first with add-user`);
  if (!c.name.trim() || /\p{Cc}/u.test(c.name)) throw new AccountError('the application needs a name, without control characters');
  if (c.redirectUris.length === 0) throw new AccountError('give at least one redirect URI');
  for (const uri of c.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new AccountError(problem);
  }
  const clientId = c.clientId ?? `pr_live_id_${randomToken(10)}`;
  const secret = c.secret ?? `pr_live_sc_${randomToken(24)}`;
  const row = await writeOne<{ id: number }>(
    db,
    `INSERT INTO proto_clients (client_id, secret_hash, name, owner_id, redirect_uris, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (client_id) DO NOTHING RETURNING id`,
    [clientId, sha256(secret), c.name.trim(), owner.id, JSON.stringify(c.redirectUris), Date.now()],
  );
  if (!row) throw new AccountError(`client "${clientId}" already exists`);
  return {
    client: { id: Number(row.id), clientId, name: c.name.trim(), ownerId: owner.id, redirectUris: c.redirectUris, secretHash: sha256(secret) },
    secret,
  };
}

/** Text a database can hold: PostgreSQL refuses NUL characters in text, so such input finds nothing. */
export function storable(s: string): boolean {
  return !s.includes('\u0000');
}

export async function findClient(db: Db, clientId: string): Promise<Client | undefined> {
  if (!storable(clientId)) return undefined;
  const r = await db.one<ClientRow>('SELECT id, client_id, name, owner_id, redirect_uris, secret_hash FROM proto_clients WHERE client_id = ?', [clientId], { hot: true });
  return r && toClient(r);
}

export async function clientById(db: Db, id: number): Promise<Client | undefined> {
  const r = await db.one<ClientRow>('SELECT id, client_id, name, owner_id, redirect_uris, secret_hash FROM proto_clients WHERE id = ?', [id]);
  return r && toClient(r);
}

export function secretMatches(client: Client, secret: string): boolean {
  return sameDigest(client.secretHash, sha256(secret));
}
