/**
 * Browser sessions of the sign-in and consent pages. The cookie holds a random id; the database its
 * digest. Every form carries a CSRF token derived from the session id, which a page of another
 * site cannot know; a session exists (signed out) before sign-in, so the sign-in form is protected
 * too, and signing in replaces it with a new one (no session fixation).
 */
import type { Db } from '../../core/store/db.js';
import { randomToken, sameSecret, sha256 } from './secrets.js';

export const SESSION_COOKIE = 'biomirror_protocols_session';
const SIGNED_IN_MS = 12 * 3600 * 1000;
const SIGNED_OUT_MS = 3600 * 1000;

export interface Session {
  raw: string;
  userId: number | null;
}

export async function loadSession(db: Db, raw: string | undefined, now = Date.now()): Promise<Session | undefined> {
  if (!raw || !/^[0-9a-f]{64}$/.test(raw)) return undefined;
  const r = await db.one<{ user_id: number | null; expires_at: number }>('SELECT user_id, expires_at FROM proto_sessions WHERE id_hash = ?', [sha256(raw)]);
  if (!r || Number(r.expires_at) <= now) return undefined;
  return { raw, userId: r.user_id == null ? null : Number(r.user_id) };
}

export async function newSession(db: Db, userId: number | null, now = Date.now()): Promise<Session> {
  const raw = randomToken();
  await db.run('DELETE FROM proto_sessions WHERE expires_at <= ?', [now]);
  await db.run('INSERT INTO proto_sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [sha256(raw), userId, now, now + (userId === null ? SIGNED_OUT_MS : SIGNED_IN_MS)]);
  return { raw, userId };
}

export async function endSession(db: Db, s: Session): Promise<void> {
  await db.run('DELETE FROM proto_sessions WHERE id_hash = ?', [sha256(s.raw)]);
}

export function csrfToken(s: Session): string {
  return sha256(`csrf:${s.raw}`);
}

export function csrfValid(s: Session | undefined, given: unknown): boolean {
  return s !== undefined && typeof given === 'string' && sameSecret(given, csrfToken(s));
}

export function sessionMaxAge(s: Session): number {
  return Math.floor((s.userId === null ? SIGNED_OUT_MS : SIGNED_IN_MS) / 1000);
}
