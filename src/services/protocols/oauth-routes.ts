/**
 * HTTP of the authorization server: the authorize endpoint (sign-in and consent pages), the token
 * endpoint, the account page, and the test redirect target. Pages are HTML forms with CSRF tokens.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../core/http/errors.js';
import type { Query } from '../../core/http/params.js';
import type { ServiceContext } from '../types.js';
import { checkLogin, findClient, userById } from './accounts.js';
import { checkAuthorize, deny, grant, tokenRequest, type AuthorizeRequest, type Params } from './oauth.js';
import { accountPage, callbackPage, consentPage, errorPage, loginPage } from './pages.js';
import { SESSION_COOKIE, csrfToken, csrfValid, endSession, loadSession, newSession, sessionMaxAge, type Session } from './sessions.js';
import { MemoryAttempts, RedisAttempts, SigninThrottle } from './signin-throttle.js';
import { authorizationsOf, revokeAuthorization } from './tokens.js';

const HTML = 'text/html; charset=utf-8';
// No scripts, no framing (the consent page must not be clickjacked), no referrer (URLs carry codes).
const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  // Forms post only to this server (a page whose markup was tampered with cannot send the password elsewhere).
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function page(reply: FastifyReply, status: number, html: string): FastifyReply {
  // A CSP set for this page (the consent page's) is kept.
  const { 'Content-Security-Policy': csp, ...rest } = PAGE_HEADERS;
  reply.code(status).type(HTML).headers(rest);
  if (!reply.hasHeader('content-security-policy') && csp) reply.header('Content-Security-Policy', csp);
  return reply.send(html);
}

function pageError(status: number, title: string, message: string): ServiceError {
  return new ServiceError(status, errorPage(title, message), HTML, PAGE_HEADERS);
}

const csrfFailed = () => pageError(403, 'This form has expired', 'The form was not sent from this site or its session ended. Go back, reload the page and try again.');

function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function body(req: FastifyRequest): Params {
  const b = req.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Params) : {};
}

function text(p: Params, name: string): string {
  const v = p[name];
  return typeof v === 'string' ? v : '';
}

// Sign-in attempts counted in memory are shared by the apps of one process over one database.
const memoryAttempts = new WeakMap<object, MemoryAttempts>();

function throttleFor(ctx: ServiceContext): SigninThrottle {
  if (ctx.redisUrl) return new SigninThrottle(new RedisAttempts(ctx.redisUrl));
  let m = memoryAttempts.get(ctx.db);
  if (!m) memoryAttempts.set(ctx.db, (m = new MemoryAttempts()));
  return new SigninThrottle(m);
}

/** What every page route of the sign-in and consent flow needs: the session, its cookie, the pages. */
class SigninPages {
  readonly at: (path: string) => string;
  private readonly cookiePath: string;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly prefix: string,
  ) {
    this.at = (path: string) => `${prefix}${path}`;
    this.cookiePath = prefix || '/';
  }

  setSession(req: FastifyRequest, reply: FastifyReply, s: Session | undefined): void {
    const secure = req.protocol === 'https' ? '; Secure' : '';
    const value = s ? `${s.raw}; Max-Age=${sessionMaxAge(s)}` : '; Max-Age=0';
    reply.header('Set-Cookie', `${SESSION_COOKIE}=${value}; Path=${this.cookiePath}; HttpOnly; SameSite=Lax${secure}`);
  }

  session(req: FastifyRequest): Promise<Session | undefined> {
    return loadSession(this.ctx.db, cookie(req, SESSION_COOKIE));
  }

  /** The visitor's session, started (signed out) if there is none, so that forms have a CSRF token. */
  async ensureSession(req: FastifyRequest, reply: FastifyReply): Promise<Session> {
    const s = await this.session(req);
    if (s) return s;
    const fresh = await newSession(this.ctx.db, null);
    this.setSession(req, reply, fresh);
    return fresh;
  }

  /** Only paths of this service: `next` must never send the browser elsewhere. */
  safeNext(next: string): string {
    return next.startsWith(`${this.prefix}/`) && !next.startsWith('//') && !/[\\\r\n\t]/.test(next) ? next : this.at('/account');
  }

  async showLogin(req: FastifyRequest, reply: FastifyReply, next: string, extra: { error?: string; username?: string; clientName?: string } = {}, status = 200) {
    const s = await this.ensureSession(req, reply);
    return page(reply, status, loginPage({ action: this.at('/login'), next, csrf: csrfToken(s), ...extra }));
  }

  async account(req: FastifyRequest, reply: FastifyReply, notice?: string, status = 200) {
    const s = await this.session(req);
    const user = s?.userId != null ? await userById(this.ctx.db, s.userId) : undefined;
    if (!s || !user) return this.showLogin(req, reply, this.at('/account'));
    return page(
      reply,
      status,
      accountPage({
        username: user.username,
        name: user.name,
        csrf: csrfToken(s),
        revokeAction: this.at('/account/revoke'),
        logoutAction: this.at('/logout'),
        authorizations: await authorizationsOf(this.ctx.db, user.id),
        ...(notice ? { notice } : {}),
      }),
    );
  }
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const pages = new SigninPages(ctx, app.prefix);
  registerAuthorizeRoutes(app, ctx, pages);
  registerSigninRoutes(app, ctx, pages);
  registerAccountRoutes(app, ctx, pages);
}

/** The authorization endpoint with its consent page, the token endpoint and the demo callback. */
function registerAuthorizeRoutes(app: FastifyInstance, ctx: ServiceContext, pages: SigninPages): void {
  const { at } = pages;
  /** The checked request, or undefined once the error went back to the client. */
  const authorize = async (reply: FastifyReply, params: Params): Promise<AuthorizeRequest | undefined> => {
    const check = await checkAuthorize(ctx.db, params);
    if (check.kind === 'page') throw pageError(check.status, check.title, check.message);
    if (check.kind === 'ok') return check.request;
    reply.headers(PAGE_HEADERS).redirect(check.location, 302);
    return undefined;
  };
  app.get('/api/v3/oauth/authorize', async (req, reply) => {
    const request = await authorize(reply, req.query as Params);
    if (!request) return reply;
    const s = await pages.session(req);
    const user = s?.userId != null ? await userById(ctx.db, s.userId) : undefined;
    if (!s || !user) return pages.showLogin(req, reply, req.url, { clientName: request.client.name });
    // The consent form posts here and is then sent on to the application: its origin is allowed too
    // (browsers apply form-action to the redirect that follows a submission).
    reply.header('Content-Security-Policy', PAGE_HEADERS['Content-Security-Policy']?.replace("form-action 'self'", `form-action 'self' ${new URL(request.redirectUri).origin}`) ?? '');
    return page(
      reply,
      200,
      consentPage({
        action: at('/api/v3/oauth/authorize'),
        logoutAction: at('/logout'),
        csrf: csrfToken(s),
        clientName: request.client.name,
        clientId: request.client.clientId,
        username: user.username,
        scope: request.scope,
        redirectUri: request.redirectUri,
        fields: { ...request.fields, next: req.url },
      }),
    );
  });

  // The consent form: the request's parameters come back as hidden fields and are checked again.
  app.post('/api/v3/oauth/authorize', async (req, reply) => {
    const p = body(req);
    const s = await pages.session(req);
    if (!csrfValid(s, p.csrf_token)) throw csrfFailed();
    const request = await authorize(reply, p);
    if (!request) return reply;
    if (s?.userId == null) return pages.showLogin(req, reply, pages.safeNext(text(p, 'next')), { clientName: request.client.name });
    const location = p.decision === 'allow' ? await grant(ctx.db, request, s.userId) : deny(request);
    return reply.headers(PAGE_HEADERS).redirect(location, 303);
  });

  app.post('/api/v3/oauth/token', async (req, reply) => {
    const out = await tokenRequest(ctx.db, body(req), req.headers.authorization);
    return reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(JSON.stringify(out));
  });

  // The redirect target of the demo application (the upstream's example client redirects to /api/v3/oauth/test).
  app.get('/api/v3/oauth/test', async (req, reply) => {
    const q = req.query as Query;
    const query = Object.fromEntries(Object.entries(q).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')]));
    return page(reply, 200, callbackPage({ query, tokenUrl: `${req.protocol}://${req.host}${at('/api/v3/oauth/token')}` }));
  });
}

/** Signing in and out; sign-in attempts are throttled per account and per address. */
function registerSigninRoutes(app: FastifyInstance, ctx: ServiceContext, pages: SigninPages): void {
  const throttle = throttleFor(ctx);
  app.addHook('onClose', async () => throttle.close());
  app.get('/login', async (req, reply) => pages.showLogin(req, reply, pages.safeNext(text(req.query as Params, 'next'))));

  app.post('/login', async (req, reply) => {
    const p = body(req);
    const s = await pages.session(req);
    if (!csrfValid(s, p.csrf_token)) throw csrfFailed();
    const next = pages.safeNext(text(p, 'next'));
    const username = text(p, 'username').trim();
    // The attempt is counted before the password is checked; while a delay is owed, the password is
    // not even checked: guessing cannot go on meanwhile, nor race the count.
    const attempt = await throttle.attempt(username, req.ip);
    if (!attempt.allowed) {
      const seconds = Math.ceil(attempt.waitMs / 1000);
      reply.header('Retry-After', String(seconds));
      return pages.showLogin(req, reply, next, { error: `Too many failed sign-ins for this account or from this address. Try again in ${seconds} s.`, username }, 429);
    }
    // A wrong password (or an error) leaves the attempt counted as a failure.
    const user = await checkLogin(ctx.db, username, text(p, 'password'));
    if (!user) return pages.showLogin(req, reply, next, { error: 'Wrong username or password.', username }, 401);
    await attempt.succeeded();
    if (s) await endSession(ctx.db, s);
    pages.setSession(req, reply, await newSession(ctx.db, user.id));
    return reply.headers(PAGE_HEADERS).redirect(next, 303);
  });

  app.post('/logout', async (req, reply) => {
    const s = await pages.session(req);
    if (!csrfValid(s, body(req).csrf_token)) throw csrfFailed();
    if (s) await endSession(ctx.db, s);
    pages.setSession(req, reply, undefined);
    return reply.headers(PAGE_HEADERS).redirect(pages.at('/account'), 303);
  });
}

/** The signed-in user's account page and the withdrawal of an application's access. */
function registerAccountRoutes(app: FastifyInstance, ctx: ServiceContext, pages: SigninPages): void {
  app.get('/account', async (req, reply) => pages.account(req, reply));

  app.post('/account/revoke', async (req, reply) => {
    const p = body(req);
    const s = await pages.session(req);
    if (!csrfValid(s, p.csrf_token)) throw csrfFailed();
    if (s?.userId == null) return pages.showLogin(req, reply, pages.at('/account'));
    const client = await findClient(ctx.db, text(p, 'client_id'));
    const done = client ? await revokeAuthorization(ctx.db, s.userId, client.id) : false;
    return pages.account(req, reply, done && client ? `Access of ${client.name} withdrawn; its tokens no longer work.` : 'Nothing to withdraw.');
  });
}
