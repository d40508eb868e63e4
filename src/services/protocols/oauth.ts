/**
 * The authorization-code flow (RFC 6749 section 4.1, with PKCE S256 from RFC 7636): checking an
 * authorize request, granting or denying a code, and the token endpoint's two grants. No HTTP here.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../core/store/db.js';
import { findClient, redirectAllowed, secretMatches, userById, userObject, type Client } from './accounts.js';
import { oauthError } from './errors.js';
import { sameSecret } from './secrets.js';
import { authorizationActive, findCode, findRefreshToken, issueCode, recordAuthorization, redeemCode, revokeFamily, rotate, type Issued, type Scope } from './tokens.js';

export type Params = Record<string, unknown>;

/** The authorize request's own names, plus `redirect_url`, the name of the upstream's examples. */
const AUTHORIZE_FIELDS = ['client_id', 'redirect_uri', 'response_type', 'state', 'scope', 'code_challenge', 'code_challenge_method'] as const;

export interface AuthorizeRequest {
  client: Client;
  redirectUri: string;
  state: string | undefined;
  scope: Scope;
  challenge: string | null;
  /** The request's parameters, carried by the consent form. */
  fields: Record<string, string>;
}

export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  /** Shown to the user, never redirected: the client or its redirect URI cannot be trusted. */
  | { kind: 'page'; status: number; title: string; message: string }
  /** RFC 6749 4.1.2.1: other errors go back to the client. */
  | { kind: 'redirect'; location: string };

function single(p: Params, name: string): string | undefined | null {
  const v = p[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v) || typeof v !== 'string') return null;
  return v;
}

export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

const PKCE = /^[A-Za-z0-9._~-]{43,128}$/;

function parseScope(raw: string | undefined): Scope | undefined {
  if (raw === undefined || raw.trim() === '') return 'read';
  const parts = raw.trim().split(/[\s,]+/);
  if (parts.some((s) => s !== 'read' && s !== 'readwrite')) return undefined;
  return parts.includes('readwrite') ? 'readwrite' : 'read';
}

export async function checkAuthorize(db: Db, p: Params): Promise<AuthorizeCheck> {
  const page = (message: string): AuthorizeCheck => ({ kind: 'page', status: 400, title: 'This authorization request cannot be used', message });
  for (const name of [...AUTHORIZE_FIELDS, 'redirect_url']) {
    if (single(p, name) === null) return page(`The parameter "${name}" is given more than once.`);
  }
  const clientId = single(p, 'client_id');
  if (!clientId) return page('The request has no client_id: the application that sent you here is not identified.');
  const client = await findClient(db, clientId);
  if (!client) return page(`No application is registered with client_id "${clientId.slice(0, 200)}".`);
  const uri = single(p, 'redirect_uri');
  const url = single(p, 'redirect_url');
  if (uri && url && uri !== url) return page('The request gives redirect_uri and redirect_url with different values.');
  const redirectUri = uri || url;
  if (!redirectUri) return page('The request has no redirect_uri.');
  if (!redirectAllowed(client, redirectUri)) {
    return page(`The redirect URI "${redirectUri.slice(0, 500)}" is not registered for the application "${client.name}", so you are not sent there.`);
  }
  const state = single(p, 'state') ?? undefined;
  if (state !== undefined && state.length > 2048) return page('The state parameter is longer than 2048 characters.');
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: redirectWith(redirectUri, { error, error_description: description, state }),
  });

  const responseType = single(p, 'response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required and must be code');
  if (responseType !== 'code') return fail('unsupported_response_type', `response_type "${responseType}" is not supported; use code`);
  const rawScope = single(p, 'scope') ?? undefined;
  const scope = parseScope(rawScope);
  if (!scope) return fail('invalid_scope', 'scope must be read or readwrite');
  const challenge = single(p, 'code_challenge') ?? undefined;
  const method = single(p, 'code_challenge_method') ?? undefined;
  if (method !== undefined && challenge === undefined) return fail('invalid_request', 'code_challenge_method is given without code_challenge');
  if (challenge !== undefined) {
    if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!PKCE.test(challenge)) return fail('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  }
  const fields: Record<string, string> = {};
  for (const name of AUTHORIZE_FIELDS) {
    const v = name === 'redirect_uri' ? redirectUri : single(p, name);
    if (v !== undefined && v !== null) fields[name] = v;
  }
  return { kind: 'ok', request: { client, redirectUri, state, scope, challenge: challenge ?? null, fields } };
}

/** The user allowed: record the authorization and send a code back. */
export async function grant(db: Db, r: AuthorizeRequest, userId: number): Promise<string> {
  await recordAuthorization(db, userId, r.client.id, r.scope);
  const code = await issueCode(db, { clientPk: r.client.id, userId, redirectUri: r.redirectUri, scope: r.scope, challenge: r.challenge });
  return redirectWith(r.redirectUri, { code, state: r.state });
}

export function deny(r: AuthorizeRequest): string {
  return redirectWith(r.redirectUri, { error: 'access_denied', error_description: 'the user denied the request', state: r.state });
}

// ---- token endpoint -------------------------------------------------------------------------

/** RFC 6749 2.3.1: HTTP Basic with form-encoded id and secret. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: dec(decoded.slice(0, colon)), secret: dec(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

function param(p: Params, name: string): string | undefined {
  const v = p[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw oauthError('invalid_request', `parameter "${name}" must be given once, as a string`);
  return v;
}

async function authenticateClient(db: Db, p: Params, authorization: string | undefined): Promise<Client> {
  const basic = basicCredentials(authorization);
  if (basic === null) throw oauthError('invalid_client', 'the Basic authorization header cannot be read');
  const bodyId = param(p, 'client_id');
  const bodySecret = param(p, 'client_secret');
  if (basic && bodySecret !== undefined) throw oauthError('invalid_request', 'client credentials are given both in the Authorization header and in the body; use one');
  if (basic && bodyId !== undefined && bodyId !== basic.id) throw oauthError('invalid_request', 'client_id in the body differs from the one in the Authorization header');
  const id = basic?.id ?? bodyId;
  const secret = basic?.secret ?? bodySecret;
  if (!id || secret === undefined) throw oauthError('invalid_client', 'client authentication failed: client_id and client_secret are required');
  const client = await findClient(db, id);
  if (!client || !secretMatches(client, secret)) throw oauthError('invalid_client', 'client authentication failed: unknown client or wrong client_secret');
  return client;
}

async function tokenResponse(db: Db, issued: Issued, userId: number, scope: Scope, now: number): Promise<Record<string, unknown>> {
  const user = await userById(db, userId);
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: Math.round((issued.expiresAt - now) / 1000),
    scope,
    refresh_token: issued.refreshToken,
    refresh_expires_in: issued.refreshExpiresAt ? Math.round((issued.refreshExpiresAt - now) / 1000) : undefined,
    user: user ? userObject(user) : null,
    status_code: 0,
  };
}

async function codeGrant(db: Db, client: Client, p: Params, now: number): Promise<Record<string, unknown>> {
  const raw = param(p, 'code');
  if (!raw) throw oauthError('invalid_request', 'code is required');
  const code = await findCode(db, raw);
  if (!code || code.clientPk !== client.id) throw oauthError('invalid_grant', 'the code is unknown or was issued to another client');
  if (code.usedAt !== null) {
    await revokeFamily(db, code.family, now);
    throw oauthError('invalid_grant', 'the code was already used; the tokens issued with it are revoked');
  }
  if (code.expiresAt <= now) throw oauthError('invalid_grant', 'the code has expired (codes live ten minutes)');
  const uri = param(p, 'redirect_uri') ?? param(p, 'redirect_url');
  if (!uri) throw oauthError('invalid_request', 'redirect_uri is required: the one used at authorize');
  if (uri !== code.redirectUri) throw oauthError('invalid_grant', 'redirect_uri differs from the one used at authorize');
  const verifier = param(p, 'code_verifier');
  if (code.challenge !== null) {
    const digest = verifier && PKCE.test(verifier) ? createHash('sha256').update(verifier).digest('base64url') : '';
    if (!sameSecret(digest, code.challenge)) throw oauthError('invalid_grant', 'code_verifier is missing or does not match the code_challenge');
  } else if (verifier !== undefined) {
    throw oauthError('invalid_grant', 'code_verifier is given but the authorization request had no code_challenge');
  }
  if (!(await authorizationActive(db, code.userId, client.id))) throw oauthError('invalid_grant', 'the user has withdrawn the authorization');
  const issued = await redeemCode(db, code, now);
  if (!issued) {
    await revokeFamily(db, code.family, now);
    throw oauthError('invalid_grant', 'the code was already used; the tokens issued with it are revoked');
  }
  return tokenResponse(db, issued, code.userId, code.scope, now);
}

async function refreshGrant(db: Db, client: Client, p: Params, now: number): Promise<Record<string, unknown>> {
  const raw = param(p, 'refresh_token');
  if (!raw) throw oauthError('invalid_request', 'refresh_token is required');
  const old = await findRefreshToken(db, raw);
  if (!old || old.clientPk !== client.id) throw oauthError('invalid_grant', 'the refresh token is unknown or was issued to another client');
  if (old.revokedAt !== null) {
    // A rotated-away refresh token used again: someone holds a copy. End the whole line of tokens.
    if (old.family) await revokeFamily(db, old.family, now);
    throw oauthError('invalid_grant', 'the refresh token was already used or revoked; the tokens issued from it are revoked');
  }
  if (old.refreshExpiresAt !== null && old.refreshExpiresAt <= now) throw oauthError('invalid_grant', 'the refresh token has expired');
  const scope = param(p, 'scope');
  if (scope !== undefined && scope !== old.scope && !(scope === 'read' && old.scope === 'readwrite')) {
    throw oauthError('invalid_scope', `scope "${scope}" exceeds the scope granted (${old.scope})`);
  }
  if (!(await authorizationActive(db, old.userId, client.id))) throw oauthError('invalid_grant', 'the user has withdrawn the authorization');
  // A narrower scope asked for is the new token's scope (RFC 6749 §6).
  const granted: Scope = scope === 'read' ? 'read' : old.scope;
  const issued = await rotate(db, old, now, granted);
  if (!issued) {
    if (old.family) await revokeFamily(db, old.family, now);
    throw oauthError('invalid_grant', 'the refresh token was already used or revoked; the tokens issued from it are revoked');
  }
  return tokenResponse(db, issued, old.userId, granted, now);
}

const GRANTS: Record<string, (db: Db, client: Client, p: Params, now: number) => Promise<Record<string, unknown>>> = {
  authorization_code: codeGrant,
  refresh_token: refreshGrant,
};

export async function tokenRequest(db: Db, p: Params, authorization: string | undefined, now = Date.now()): Promise<Record<string, unknown>> {
  const grantType = param(p, 'grant_type');
  if (!grantType) throw oauthError('invalid_request', 'grant_type is required: authorization_code or refresh_token');
  const client = await authenticateClient(db, p, authorization);
  const run = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
  if (!run) throw oauthError('unsupported_grant_type', `grant_type "${grantType.slice(0, 100)}" is not supported: use authorization_code or refresh_token`);
  return run(db, client, p, now);
}
