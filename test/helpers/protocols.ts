/** The protocol service under test: apps with a fresh module each, accounts, and the OAuth flow driven through inject. */
import type { FastifyInstance } from 'fastify';
import type { LimitStore } from '../../src/core/limits/policy.js';
import { runLoad, type LoadResult } from '../../src/core/ingest/load.js';
import type { Db } from '../../src/core/store/db.js';
import type { Generations } from '../../src/core/store/generations.js';
import { createClient, createUser, type Client } from '../../src/services/protocols/accounts.js';
import { createProtocolsService } from '../../src/services/protocols/index.js';
import { issueClientToken } from '../../src/services/protocols/tokens.js';
import { makeApp, type TestApp } from './app.js';
import type { OpenedStore } from './stores.js';

export const B = '/protocols/api/v3';
const service = createProtocolsService();
const dataset = service.datasets[0];
if (!dataset) throw new Error('protocols has no dataset');
export const PROTOCOLS = dataset;
export const DEMO_DIR = dataset.demo as string;

export function protoApp(s: OpenedStore, opts: { limits?: boolean; limitStore?: LimitStore } = {}): Promise<TestApp> {
  return makeApp(s, {
    services: [createProtocolsService()],
    prefixed: true,
    config: { limits: opts.limits ?? false },
    ...(opts.limitStore ? { limitStore: opts.limitStore } : {}),
  });
}

export function loadProtocols(db: Db, generations: Generations, input: string = DEMO_DIR): Promise<LoadResult> {
  return runLoad(db, generations, PROTOCOLS, input, { source: input === DEMO_DIR ? 'demo:protocols/protocols' : input });
}

export const PASSWORD = 'correct horse battery';

export async function addUser(db: Db, username: string, name?: string) {
  return createUser(db, { username, password: PASSWORD, ...(name ? { name } : {}) });
}

export const REDIRECT = 'https://app.example/callback';

export async function addClient(db: Db, owner: string, redirectUris: string[] = [REDIRECT], name = `${owner}'s app`) {
  return createClient(db, { name, owner, redirectUris });
}

export async function clientToken(db: Db, client: Client): Promise<string> {
  return (await issueClientToken(db, client)).accessToken;
}

/** Cookies of one browser, kept across injected requests. */
export class Jar {
  private readonly cookies = new Map<string, string>();
  take(setCookie: string | string[] | undefined): void {
    for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/Max-Age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export function formValue(html: string, name: string): string | undefined {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return m?.[1]?.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

export function hiddenFields(html: string, formIndex = 0): Record<string, string> {
  const form = html.split('<form').slice(1)[formIndex] ?? '';
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1] as string] = (m[2] as string).replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  }
  return out;
}

async function get(app: FastifyInstance, jar: Jar, url: string) {
  const r = await app.inject({ method: 'GET', url, headers: { cookie: jar.header() } });
  jar.take(r.headers['set-cookie']);
  return r;
}

export async function post(app: FastifyInstance, jar: Jar, url: string, form: Record<string, string>) {
  const r = await app.inject({
    method: 'POST',
    url,
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  jar.take(r.headers['set-cookie']);
  return r;
}

export function authorizeUrl(p: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined) q.set(k, v);
  return `${B}/oauth/authorize?${q.toString()}`;
}

// One signed-in browser per app and user, so that each flow does not pay for a password hash.
const browsers = new WeakMap<FastifyInstance, Map<string, Jar>>();
function browserOf(app: FastifyInstance, username: string): Jar {
  let m = browsers.get(app);
  if (!m) browsers.set(app, (m = new Map()));
  let jar = m.get(username);
  if (!jar) m.set(username, (jar = new Jar()));
  return jar;
}

/**
 * Signs in (unless that user's browser already is) and consents as a browser would, through the
 * HTML forms; returns where the consent sent the browser (the redirect URI with code and state, or an error).
 */
export async function consent(
  app: FastifyInstance,
  p: { clientId: string; username: string; redirectUri?: string; state?: string; scope?: string; challenge?: string; decision?: 'allow' | 'deny'; jar?: Jar },
): Promise<URL> {
  const jar = p.jar ?? browserOf(app, p.username);
  const url = authorizeUrl({
    client_id: p.clientId,
    redirect_uri: p.redirectUri ?? REDIRECT,
    response_type: 'code',
    state: p.state ?? 'st-123',
    scope: p.scope,
    code_challenge: p.challenge,
    code_challenge_method: p.challenge ? 'S256' : undefined,
  });
  let page = await get(app, jar, url);
  if (page.body.includes('name="password"')) {
    const login = await post(app, jar, '/protocols/login', {
      csrf_token: formValue(page.body, 'csrf_token') as string,
      next: formValue(page.body, 'next') as string,
      username: p.username,
      password: PASSWORD,
    });
    if (login.statusCode !== 303) throw new Error(`sign-in failed: ${login.statusCode} ${login.body}`);
    page = await get(app, jar, login.headers.location as string);
  }
  if (page.statusCode !== 200 || !page.body.includes('value="allow"')) throw new Error(`no consent page: ${page.statusCode} ${page.body}`);
  const r = await post(app, jar, '/protocols/api/v3/oauth/authorize', { ...hiddenFields(page.body), decision: p.decision ?? 'allow' });
  if (r.statusCode !== 303) throw new Error(`consent answered ${r.statusCode}: ${r.body}`);
  return new URL(r.headers.location as string);
}

export async function tokenPost(app: FastifyInstance, form: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const r = await app.inject({
    method: 'POST',
    url: `${B}/oauth/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: body.toString(),
  });
  return { status: r.statusCode, body: r.json() as Record<string, unknown>, headers: r.headers };
}

/** The whole flow: consent as `username` to the client, then the code exchanged for tokens. */
export async function oauthTokens(app: FastifyInstance, c: { clientId: string; secret: string }, username: string, scope?: string): Promise<{ access: string; refresh: string }> {
  const back = await consent(app, { clientId: c.clientId, username, ...(scope ? { scope } : {}) });
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.toString()}`);
  const t = await tokenPost(app, { grant_type: 'authorization_code', code, client_id: c.clientId, client_secret: c.secret, redirect_uri: REDIRECT });
  if (t.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(t.body)}`);
  return { access: t.body.access_token as string, refresh: t.body.refresh_token as string };
}

export async function api(app: FastifyInstance, url: string, token?: string, init: { method?: 'GET' | 'POST' | 'PUT' | 'PATCH'; payload?: unknown } = {}) {
  const r = await app.inject({
    method: init.method ?? 'GET',
    url: url.startsWith('/') ? url : `${B}/${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(init.payload !== undefined ? { payload: init.payload as Record<string, unknown> } : {}),
  });
  let body: Record<string, unknown>;
  try {
    body = r.json() as Record<string, unknown>;
  } catch {
    body = { raw: r.body };
  }
  return { status: r.statusCode, body, headers: r.headers, raw: r.rawPayload };
}
