import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClient } from '../src/services/protocols/accounts.js';
import { createProtocolsService } from '../src/services/protocols/index.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { makeApp, type TestApp } from './helpers/app.js';
import {
  B,
  Jar,
  PASSWORD,
  REDIRECT,
  addClient,
  addUser,
  api,
  authorizeUrl,
  clientToken,
  consent,
  formValue,
  hiddenFields,
  loadProtocols,
  oauthTokens,
  post,
  protoApp,
  tokenPost,
} from './helpers/protocols.js';

const PRIVATE = 90005; // owned by biomirror-demo in the demo data

for (const target of STORES) {
  describe(`protocol service OAuth 2.0 on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let app: TestApp['app'];
    let c: { clientId: string; secret: string };
    let other: { clientId: string; secret: string };

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      app = t.app;
      await loadProtocols(s.db, t.generations);
      await addUser(s.db, 'biomirror-demo', 'Demo User');
      await addUser(s.db, 'carol');
      const a = await addClient(s.db, 'carol', [REDIRECT, 'https://app.example/other', 'http://127.0.0.1/cb']);
      c = { clientId: a.client.clientId, secret: a.secret };
      const b = await addClient(s.db, 'carol', ['https://other.example/cb'], 'second app');
      other = { clientId: b.client.clientId, secret: b.secret };
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    const exchange = (code: string, extra: Record<string, string | undefined> = {}) =>
      tokenPost(app, { grant_type: 'authorization_code', code, client_id: c.clientId, client_secret: c.secret, redirect_uri: REDIRECT, ...extra });
    const codeFor = async (p: { state?: string; challenge?: string; redirectUri?: string } = {}) => {
      const back = await consent(app, { clientId: c.clientId, username: 'biomirror-demo', ...p });
      return back.searchParams.get('code') as string;
    };

    describe('authorize: sign-in and consent pages', () => {
      it('shows a sign-in form with a CSRF token, then consent, then redirects with code and the same state', async () => {
        const jar = new Jar();
        const state = 'a b&c=d/é';
        const url = authorizeUrl({ client_id: c.clientId, redirect_uri: REDIRECT, response_type: 'code', state, scope: 'readwrite' });
        const first = await app.inject({ method: 'GET', url });
        jar.take(first.headers['set-cookie']);
        expect(first.statusCode).toBe(200);
        expect(first.headers['content-type']).toMatch(/^text\/html/);
        expect(first.headers.location).toBeUndefined();
        expect(first.headers['x-frame-options']).toBe('DENY');
        expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(first.body).toContain('<form method="post" action="/protocols/login">');
        expect(first.body).not.toContain('<script');
        expect(formValue(first.body, 'csrf_token')).toMatch(/^[0-9a-f]{64}$/);
        const sessionBefore = jar.header();

        const login = await post(app, jar, '/protocols/login', {
          csrf_token: formValue(first.body, 'csrf_token') as string,
          next: formValue(first.body, 'next') as string,
          username: 'biomirror-demo',
          password: PASSWORD,
        });
        expect(login.statusCode).toBe(303);
        expect(login.headers.location).toBe(url);
        // Signing in replaces the session: a session id known before sign-in is worth nothing after.
        expect(jar.header()).not.toBe(sessionBefore);
        expect(String(login.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);

        const page = await app.inject({ method: 'GET', url, headers: { cookie: jar.header() } });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('Authorize carol&#39;s app?');
        expect(page.body).toContain('create, change and publish');
        const fields = hiddenFields(page.body);
        expect(fields).toMatchObject({ client_id: c.clientId, redirect_uri: REDIRECT, response_type: 'code', state, scope: 'readwrite' });

        const done = await post(app, jar, `${B}/oauth/authorize`, { ...fields, decision: 'allow' });
        expect(done.statusCode).toBe(303);
        const back = new URL(done.headers.location as string);
        expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
        expect(back.searchParams.get('state')).toBe(state);
        expect(back.searchParams.get('code')).toMatch(/^[0-9a-f]{64}$/);
        expect(done.headers['referrer-policy']).toBe('no-referrer');
      });

      it('keeps the query of a registered redirect URI and accepts the upstream name redirect_url', async () => {
        const jar = new Jar();
        await consent(app, { clientId: c.clientId, username: 'biomirror-demo', jar });
        const url = `${B}/oauth/authorize?client_id=${c.clientId}&redirect_url=${encodeURIComponent('https://app.example/other')}&response_type=code&state=x`;
        const page = await app.inject({ method: 'GET', url, headers: { cookie: jar.header() } });
        expect(page.statusCode).toBe(200);
        const done = await post(app, jar, `${B}/oauth/authorize`, { ...hiddenFields(page.body), decision: 'allow' });
        expect(done.headers.location).toMatch(/^https:\/\/app\.example\/other\?code=[0-9a-f]{64}&state=x$/);
      });

      it('never redirects for an unknown client, an unregistered redirect URI or a missing one', async () => {
        const cases: [Record<string, string>, RegExp][] = [
          [{ client_id: 'nope', redirect_uri: REDIRECT }, /No application is registered with client_id &#34;nope&#34;/],
          [{ client_id: 'a\u0000b', redirect_uri: REDIRECT }, /No application is registered/],
          [{ client_id: c.clientId, redirect_uri: 'http://127.0.0.1:9/cb?x=\u0000' }, /is not registered/],
          [{ client_id: c.clientId, redirect_uri: 'https://evil.example/cb' }, /is not registered/],
          [{ client_id: c.clientId, redirect_uri: `${REDIRECT}/more` }, /is not registered/],
          [{ client_id: c.clientId, redirect_uri: `${REDIRECT}#frag` }, /is not registered/],
          [{ client_id: c.clientId }, /no redirect_uri/],
          [{ redirect_uri: REDIRECT }, /no client_id/],
        ];
        for (const [q, message] of cases) {
          const r = await app.inject({ method: 'GET', url: authorizeUrl({ ...q, response_type: 'code', state: 's' }) });
          expect(r.statusCode, JSON.stringify(q)).toBe(400);
          expect(r.headers.location).toBeUndefined();
          expect(r.headers['content-type']).toMatch(/^text\/html/);
          expect(r.body).toMatch(message);
        }
      });

      it('matches redirect URIs exactly, loopback ports included: these clients are confidential (RFC 8252 §7.3 is for public ones)', async () => {
        const ok = await app.inject({ method: 'GET', url: authorizeUrl({ client_id: c.clientId, redirect_uri: 'http://127.0.0.1/cb', response_type: 'code' }) });
        expect(ok.statusCode).toBe(200);
        for (const uri of ['http://127.0.0.1:5555/cb', 'http://127.0.0.1:5555/cb2', 'https://127.0.0.1:5555/cb', 'http://127.0.0.2:5555/cb']) {
          const r = await app.inject({ method: 'GET', url: authorizeUrl({ client_id: c.clientId, redirect_uri: uri, response_type: 'code' }) });
          expect(r.statusCode, uri).toBe(400);
        }
      });

      it('sends other errors back to the client with error and state (RFC 6749 4.1.2.1)', async () => {
        const cases: [Record<string, string | undefined>, string][] = [
          [{ response_type: 'token' }, 'unsupported_response_type'],
          [{ response_type: undefined }, 'invalid_request'],
          [{ scope: 'admin' }, 'invalid_scope'],
          [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
          [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
          [{ code_challenge_method: 'S256' }, 'invalid_request'],
        ];
        for (const [q, error] of cases) {
          const r = await app.inject({
            method: 'GET',
            url: authorizeUrl({ client_id: c.clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'keep-me', ...q }),
          });
          expect(r.statusCode, JSON.stringify(q)).toBe(302);
          const to = new URL(r.headers.location as string);
          expect(to.searchParams.get('error')).toBe(error);
          expect(to.searchParams.get('state')).toBe('keep-me');
          expect(to.searchParams.get('error_description')).toBeTruthy();
          expect(to.searchParams.get('code')).toBeNull();
        }
      });

      it('answers access_denied when the user denies', async () => {
        const back = await consent(app, { clientId: c.clientId, username: 'biomirror-demo', decision: 'deny', state: 'st9' });
        expect(back.searchParams.get('error')).toBe('access_denied');
        expect(back.searchParams.get('state')).toBe('st9');
        expect(back.searchParams.get('code')).toBeNull();
      });

      it('refuses a wrong password with the form again and no session', async () => {
        const jar = new Jar();
        const first = await app.inject({ method: 'GET', url: `/protocols/login` });
        jar.take(first.headers['set-cookie']);
        const r = await post(app, jar, '/protocols/login', {
          csrf_token: formValue(first.body, 'csrf_token') as string,
          next: '/protocols/account',
          username: 'biomirror-demo',
          password: 'wrong password',
        });
        expect(r.statusCode).toBe(401);
        expect(r.body).toContain('Wrong username or password');
        const unknown = await post(app, jar, '/protocols/login', { csrf_token: formValue(first.body, 'csrf_token') as string, next: '/protocols/account', username: 'nobody', password: PASSWORD });
        expect(unknown.statusCode).toBe(401);
        const account = await app.inject({ method: 'GET', url: '/protocols/account', headers: { cookie: jar.header() } });
        expect(account.body).toContain('name="password"');
      });

      it('sends the browser only to paths of this service after sign-in', async () => {
        const jar = new Jar();
        const first = await app.inject({ method: 'GET', url: '/protocols/login' });
        jar.take(first.headers['set-cookie']);
        for (const next of ['https://evil.example/', '//evil.example/x', '/elsewhere', '/protocols\\@evil']) {
          const j = new Jar();
          const f = await app.inject({ method: 'GET', url: '/protocols/login' });
          j.take(f.headers['set-cookie']);
          const r = await post(app, j, '/protocols/login', { csrf_token: formValue(f.body, 'csrf_token') as string, next, username: 'carol', password: PASSWORD });
          expect(r.statusCode).toBe(303);
          expect(r.headers.location, next).toBe('/protocols/account');
        }
      });
    });

    describe('CSRF on the forms', () => {
      it('refuses sign-in without the token, or with the token of another session', async () => {
        const a = new Jar();
        const pa = await app.inject({ method: 'GET', url: '/protocols/login' });
        a.take(pa.headers['set-cookie']);
        const b = new Jar();
        const pb = await app.inject({ method: 'GET', url: '/protocols/login' });
        b.take(pb.headers['set-cookie']);
        const none = await post(app, a, '/protocols/login', { next: '/protocols/account', username: 'carol', password: PASSWORD });
        expect(none.statusCode).toBe(403);
        expect(none.body).toContain('This form has expired');
        const crossed = await post(app, a, '/protocols/login', { csrf_token: formValue(pb.body, 'csrf_token') as string, next: '/protocols/account', username: 'carol', password: PASSWORD });
        expect(crossed.statusCode).toBe(403);
        const noSession = await post(app, new Jar(), '/protocols/login', { csrf_token: formValue(pa.body, 'csrf_token') as string, next: '/protocols/account', username: 'carol', password: PASSWORD });
        expect(noSession.statusCode).toBe(403);
      });

      it('refuses a consent without the token: no code is issued', async () => {
        const jar = new Jar();
        await consent(app, { clientId: c.clientId, username: 'biomirror-demo', jar });
        const url = authorizeUrl({ client_id: c.clientId, redirect_uri: REDIRECT, response_type: 'code', state: 's' });
        const page = await app.inject({ method: 'GET', url, headers: { cookie: jar.header() } });
        const { csrf_token: _drop, ...fields } = hiddenFields(page.body);
        const r = await post(app, jar, `${B}/oauth/authorize`, { ...fields, decision: 'allow' });
        expect(r.statusCode).toBe(403);
        expect(r.headers.location).toBeUndefined();
        const forged = await post(app, jar, `${B}/oauth/authorize`, { ...fields, csrf_token: 'f'.repeat(64), decision: 'allow' });
        expect(forged.statusCode).toBe(403);
        // A cross-site post carries the cookie but cannot know the token: the same refusal.
        const cross = await post(app, new Jar(), `${B}/oauth/authorize`, { ...fields, csrf_token: _drop as string, decision: 'allow' });
        expect(cross.statusCode).toBe(403);
      });

      it('refuses revoking and signing out without the token', async () => {
        const { access } = await oauthTokens(app, c, 'biomirror-demo');
        const jar = new Jar();
        await consent(app, { clientId: c.clientId, username: 'biomirror-demo', jar });
        const r = await post(app, jar, '/protocols/account/revoke', { client_id: c.clientId });
        expect(r.statusCode).toBe(403);
        expect((await api(app, `protocols/${PRIVATE}`, access)).status).toBe(200);
        const out = await post(app, jar, '/protocols/logout', {});
        expect(out.statusCode).toBe(403);
      });
    });

    describe('token endpoint', () => {
      it('exchanges a code for the spec and reference token response', async () => {
        const code = await codeFor();
        const r = await exchange(code);
        expect(r.status).toBe(200);
        expect(r.headers['cache-control']).toBe('no-store');
        expect(r.headers.pragma).toBe('no-cache');
        expect(Object.keys(r.body)).toEqual(['access_token', 'token_type', 'expires_in', 'scope', 'refresh_token', 'refresh_expires_in', 'user', 'status_code']);
        expect(r.body.access_token).toMatch(/^[0-9a-f]{64}$/);
        expect(r.body.refresh_token).toMatch(/^[0-9a-f]{64}$/);
        expect(r.body.token_type).toBe('Bearer');
        // About a year, in seconds.
        expect(r.body.expires_in).toBeGreaterThan(364 * 86400);
        expect(r.body.expires_in).toBeLessThanOrEqual(365 * 86400);
        expect(r.body.refresh_expires_in as number).toBeGreaterThan(r.body.expires_in as number);
        expect(r.body.scope).toBe('read');
        expect(r.body.status_code).toBe(0);
        expect(r.body.user).toEqual({ name: 'Demo User', affiliation: null, username: 'biomirror-demo', link: null, image: { source: null, placeholder: null } });
        const seen = await api(app, `protocols/${PRIVATE}`, r.body.access_token as string);
        expect(seen.status).toBe(200);
      });

      it('takes client credentials by HTTP Basic as well, and JSON bodies', async () => {
        const code = await codeFor();
        const basic = Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.secret)}`).toString('base64');
        const r = await tokenPost(app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { authorization: `Basic ${basic}` });
        expect(r.status).toBe(200);
        const both = await tokenPost(app, { grant_type: 'authorization_code', code: await codeFor(), redirect_uri: REDIRECT, client_secret: c.secret }, { authorization: `Basic ${basic}` });
        expect(both.status).toBe(400);
        expect(both.body.error).toBe('invalid_request');
        const json = await app.inject({
          method: 'POST',
          url: `${B}/oauth/token`,
          payload: { grant_type: 'authorization_code', code: await codeFor(), client_id: c.clientId, client_secret: c.secret, redirect_uri: REDIRECT },
        });
        expect(json.statusCode).toBe(200);
      });

      it('refuses a wrong client secret and an unknown client with 401 invalid_client', async () => {
        const code = await codeFor();
        for (const [id, secret] of [
          [c.clientId, 'wrong'],
          [c.clientId, ''],
          ['pr_live_id_unknown', c.secret],
          [c.clientId, other.secret],
        ]) {
          const r = await exchange(code, { client_id: id, client_secret: secret });
          expect(r.status, `${id} ${secret}`).toBe(401);
          expect(r.body).toMatchObject({ error: 'invalid_client', status_code: 1211 });
          expect(r.body.error_message).toBe(r.body.error_description);
          expect(r.headers['www-authenticate']).toMatch(/^Basic/);
        }
        // The refused attempts did not spend the code.
        expect((await exchange(code)).status).toBe(200);
      });

      it('requires the redirect_uri of the authorize step, exactly', async () => {
        const code = await codeFor();
        const missing = await exchange(code, { redirect_uri: undefined });
        expect(missing.status).toBe(400);
        expect(missing.body.error).toBe('invalid_request');
        for (const uri of ['https://app.example/other', `${REDIRECT}/`, 'https://APP.example/callback']) {
          const r = await exchange(code, { redirect_uri: uri });
          expect(r.status, uri).toBe(400);
          expect(r.body).toMatchObject({ error: 'invalid_grant', error_description: 'redirect_uri differs from the one used at authorize' });
        }
        expect((await exchange(code)).status).toBe(200);
      });

      it('takes a code once; a reused code revokes what it issued', async () => {
        const code = await codeFor();
        const first = await exchange(code);
        expect(first.status).toBe(200);
        const access = first.body.access_token as string;
        expect((await api(app, `protocols/${PRIVATE}`, access)).status).toBe(200);
        const again = await exchange(code);
        expect(again.status).toBe(400);
        expect(again.body.error).toBe('invalid_grant');
        expect(again.body.error_description).toMatch(/already used/);
        const after = await api(app, `protocols/${PRIVATE}`, access);
        expect(after.status).toBe(401);
        expect(after.body.status_code).toBe(1202);
        const refreshed = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: c.clientId, client_secret: c.secret });
        expect(refreshed.status).toBe(400);
      });

      it('refuses an expired code, an unknown one, and one issued to another client', async () => {
        const code = await codeFor();
        const digest = createHash('sha256').update(code).digest('hex');
        await s.db.run('UPDATE proto_codes SET expires_at = ? WHERE code_hash = ?', [Date.now() - 1000, digest]);
        const r = await exchange(code);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ error: 'invalid_grant', error_description: 'the code has expired (codes live ten minutes)' });
        expect((await exchange('0'.repeat(64))).body.error).toBe('invalid_grant');
        const fresh = await codeFor();
        const stolen = await tokenPost(app, { grant_type: 'authorization_code', code: fresh, client_id: other.clientId, client_secret: other.secret, redirect_uri: REDIRECT });
        expect(stolen.status).toBe(400);
        expect(stolen.body.error).toBe('invalid_grant');
      });

      it('gives codes that live ten minutes at most', async () => {
        const before = Date.now();
        const code = await codeFor();
        const row = await s.db.one<{ expires_at: number }>('SELECT expires_at FROM proto_codes WHERE code_hash = ?', [createHash('sha256').update(code).digest('hex')]);
        expect(Number(row?.expires_at) - before).toBeLessThanOrEqual(10 * 60 * 1000 + 5000);
        expect(Number(row?.expires_at) - before).toBeGreaterThan(9 * 60 * 1000);
      });

      it('rotates refresh tokens: the old pair stops working, and replaying the old refresh token ends the line', async () => {
        const { access, refresh } = await oauthTokens(app, c, 'biomirror-demo');
        const r = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: c.clientId, client_secret: c.secret });
        expect(r.status).toBe(200);
        expect(r.body.token_type).toBe('Bearer');
        const access2 = r.body.access_token as string;
        const refresh2 = r.body.refresh_token as string;
        expect(access2).not.toBe(access);
        expect(refresh2).not.toBe(refresh);
        expect((await api(app, `protocols/${PRIVATE}`, access)).status).toBe(401);
        expect((await api(app, `protocols/${PRIVATE}`, access2)).status).toBe(200);

        const replay = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: c.clientId, client_secret: c.secret });
        expect(replay.status).toBe(400);
        expect(replay.body.error).toBe('invalid_grant');
        // Whoever replayed it may hold the new tokens too: they are revoked.
        expect((await api(app, `protocols/${PRIVATE}`, access2)).status).toBe(401);
        const next = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh2, client_id: c.clientId, client_secret: c.secret });
        expect(next.status).toBe(400);
      });

      it('refuses refreshing with another client, a wider scope, or a missing token', async () => {
        const { refresh } = await oauthTokens(app, c, 'biomirror-demo');
        const wrong = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: other.clientId, client_secret: other.secret });
        expect(wrong.body.error).toBe('invalid_grant');
        const wider = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: c.clientId, client_secret: c.secret, scope: 'readwrite' });
        expect(wider.body.error).toBe('invalid_scope');
        const missing = await tokenPost(app, { grant_type: 'refresh_token', client_id: c.clientId, client_secret: c.secret });
        expect(missing.body.error).toBe('invalid_request');
        const ok = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: c.clientId, client_secret: c.secret });
        expect(ok.status).toBe(200);
      });

      it('accepts PKCE S256 and refuses a missing or wrong verifier', async () => {
        const verifier = 'v'.repeat(20) + '-._~' + 'A1'.repeat(12);
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        const code = await codeFor({ challenge });
        expect((await exchange(code)).body).toMatchObject({ error: 'invalid_grant' });
        expect((await exchange(code, { code_verifier: `${verifier}x` })).body).toMatchObject({ error: 'invalid_grant' });
        expect((await exchange(code, { code_verifier: verifier })).status).toBe(200);
        const plain = await codeFor();
        expect((await exchange(plain, { code_verifier: verifier })).body.error).toBe('invalid_grant');
      });

      it('names what is wrong with a malformed request', async () => {
        const none = await tokenPost(app, {});
        expect(none.status).toBe(400);
        expect(none.body).toMatchObject({ error: 'invalid_request', status_code: 1 });
        const grant = await tokenPost(app, { grant_type: 'password', client_id: c.clientId, client_secret: c.secret });
        expect(grant.body).toMatchObject({ error: 'unsupported_grant_type', status_code: 1214 });
        const twice = await app.inject({
          method: 'POST',
          url: `${B}/oauth/token`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `grant_type=authorization_code&code=a&code=b&client_id=${c.clientId}&client_secret=${c.secret}`,
        });
        expect(twice.statusCode).toBe(400);
        expect(twice.json()).toMatchObject({ error: 'invalid_request' });
        const noCode = await tokenPost(app, { grant_type: 'authorization_code', client_id: c.clientId, client_secret: c.secret });
        expect(noCode.body.error_description).toBe('code is required');
        const bad = await app.inject({ method: 'POST', url: `${B}/oauth/token`, headers: { 'content-type': 'application/json' }, payload: '{"grant_type":' });
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toHaveProperty('status_code', 1);
      });
    });

    describe('bearer tokens on the API', () => {
      it('answers 401 with the service body for a missing, malformed, unknown, revoked or expired token', async () => {
        const missing = await api(app, 'protocols?filter=public');
        expect(missing.status).toBe(401);
        expect(missing.body).toEqual({ status_code: 1201, error_message: expect.stringContaining('access token is missing') });
        expect(missing.headers['www-authenticate']).toMatch(/^Bearer realm="protocols"/);
        for (const header of ['Basic abc', 'Bearer', 'Bearer a b', `Bearer ${'0'.repeat(64)}`]) {
          const r = await app.inject({ method: 'GET', url: `${B}/protocols?filter=public`, headers: { authorization: header } });
          expect(r.statusCode, header).toBe(401);
          expect([1201, 1202]).toContain(r.json().status_code);
        }
        const client = await findClient(s.db, c.clientId);
        const token = await clientToken(s.db, client as NonNullable<typeof client>);
        const digest = createHash('sha256').update(token).digest('hex');
        await s.db.run('UPDATE proto_tokens SET expires_at = ? WHERE access_hash = ?', [Date.now() - 1, digest]);
        const expired = await api(app, 'protocols?filter=public', token);
        expect(expired.status).toBe(401);
        expect(expired.body).toEqual({ status_code: 1219, error_message: 'token is expired' });
        expect(expired.headers['www-authenticate']).toContain('error="invalid_token"');
      });

      it('accepts the header name the upstream examples use (Authentication) and any case of Bearer', async () => {
        const client = await findClient(s.db, c.clientId);
        const token = await clientToken(s.db, client as NonNullable<typeof client>);
        for (const headers of [{ authentication: `Bearer ${token}` }, { authorization: `bearer ${token}` }]) {
          const r = await app.inject({ method: 'GET', url: `${B}/protocols?filter=public`, headers });
          expect(r.statusCode).toBe(200);
        }
      });

      it('warns a month before a token expires, as the upstream does', async () => {
        const client = await findClient(s.db, c.clientId);
        const token = await clientToken(s.db, client as NonNullable<typeof client>);
        const fresh = await api(app, 'protocols?filter=public', token);
        expect(fresh.body.warning_code).toBeUndefined();
        const digest = createHash('sha256').update(token).digest('hex');
        await s.db.run('UPDATE proto_tokens SET expires_at = ? WHERE access_hash = ?', [Date.now() + 24 * 86400_000 - 60_000, digest]);
        const soon = await api(app, 'protocols?filter=public', token);
        expect(soon.status).toBe(200);
        expect(soon.body.status_code).toBe(0);
        expect(soon.body.warning_code).toBe(1);
        expect(soon.body.warning_message).toBe('Your access token expires in 24 days');
      });

      it('forgets tokens a month after they can no longer be used, and no sooner', async () => {
        const client = await findClient(s.db, c.clientId);
        const token = await clientToken(s.db, client as NonNullable<typeof client>);
        const digest = createHash('sha256').update(token).digest('hex');
        const count = async () => (await s.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM proto_tokens WHERE access_hash = ?', [digest]))?.n;
        await s.db.run('UPDATE proto_tokens SET expires_at = ? WHERE access_hash = ?', [Date.now() - 29 * 86400_000, digest]);
        expect((await api(app, 'protocols?filter=public', token)).body.status_code).toBe(1219);
        await clientToken(s.db, client as NonNullable<typeof client>);
        expect(Number(await count())).toBe(1);
        await s.db.run('UPDATE proto_tokens SET expires_at = ? WHERE access_hash = ?', [Date.now() - 31 * 86400_000, digest]);
        await clientToken(s.db, client as NonNullable<typeof client>);
        expect(Number(await count())).toBe(0);
      });

      it('keeps one CLIENT_ACCESS_TOKEN per client: a new one revokes the old', async () => {
        const client = await findClient(s.db, c.clientId);
        const one = await clientToken(s.db, client as NonNullable<typeof client>);
        const two = await clientToken(s.db, client as NonNullable<typeof client>);
        expect((await api(app, 'protocols?filter=public', one)).status).toBe(401);
        expect((await api(app, 'protocols?filter=public', two)).status).toBe(200);
      });
    });

    describe('account page', () => {
      it('lists what the user authorized and revokes it: tokens stop working at once', async () => {
        const back = await consent(app, { clientId: other.clientId, username: 'biomirror-demo', redirectUri: 'https://other.example/cb' });
        const t2 = await tokenPost(app, {
          grant_type: 'authorization_code',
          code: back.searchParams.get('code') as string,
          client_id: other.clientId,
          client_secret: other.secret,
          redirect_uri: 'https://other.example/cb',
        });
        const access = t2.body.access_token as string;
        const refresh = t2.body.refresh_token as string;
        expect((await api(app, `protocols/${PRIVATE}`, access)).status).toBe(200);
        const jar = new Jar();
        await consent(app, { clientId: c.clientId, username: 'biomirror-demo', jar });
        const page = await app.inject({ method: 'GET', url: '/protocols/account', headers: { cookie: jar.header() } });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('second app');
        expect(page.body).toContain(other.clientId);
        const form = hiddenFields(page.body.slice(page.body.indexOf(other.clientId)));
        expect(form.client_id).toBe(other.clientId);
        const r = await post(app, jar, '/protocols/account/revoke', form);
        expect(r.statusCode).toBe(200);
        expect(r.body).toContain('Access of second app withdrawn');
        expect(r.body).not.toContain(other.clientId);
        const after = await api(app, `protocols/${PRIVATE}`, access);
        expect(after.status).toBe(401);
        const refreshed = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: other.clientId, client_secret: other.secret });
        expect(refreshed.status).toBe(400);
      });

      it('signs out', async () => {
        const jar = new Jar();
        await consent(app, { clientId: c.clientId, username: 'biomirror-demo', jar });
        const page = await app.inject({ method: 'GET', url: '/protocols/account', headers: { cookie: jar.header() } });
        const out = await post(app, jar, '/protocols/logout', { csrf_token: formValue(page.body, 'csrf_token') as string });
        expect(out.statusCode).toBe(303);
        const again = await app.inject({ method: 'GET', url: '/protocols/account', headers: { cookie: jar.header() } });
        expect(again.body).toContain('name="password"');
      });
    });

    it('works on the service’s own port, where its paths have no mount prefix', async () => {
      const own = await makeApp(s, { services: [createProtocolsService()], prefixed: false });
      try {
        const jar = new Jar();
        const url = `/api/v3/oauth/authorize?${new URLSearchParams({ client_id: c.clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'p' })}`;
        const first = await own.app.inject({ method: 'GET', url });
        jar.take(first.headers['set-cookie']);
        expect(first.body).toContain('action="/login"');
        expect(String(first.headers['set-cookie'])).toContain('Path=/;');
        const login = await post(own.app, jar, '/login', {
          csrf_token: formValue(first.body, 'csrf_token') as string,
          next: formValue(first.body, 'next') as string,
          username: 'carol',
          password: PASSWORD,
        });
        expect(login.headers.location).toBe(url);
        const page = await own.app.inject({ method: 'GET', url, headers: { cookie: jar.header() } });
        const done = await post(own.app, jar, '/api/v3/oauth/authorize', { ...hiddenFields(page.body), decision: 'allow' });
        const code = new URL(done.headers.location as string).searchParams.get('code') as string;
        const r = await own.app.inject({
          method: 'POST',
          url: '/api/v3/oauth/token',
          payload: { grant_type: 'authorization_code', code, client_id: c.clientId, client_secret: c.secret, redirect_uri: REDIRECT },
        });
        expect(r.statusCode).toBe(200);
        const pdf = await own.app.inject({ method: 'GET', url: '/view/lb-broth-miller-1-l-bmd0002.pdf' });
        expect(pdf.headers['content-type']).toBe('application/pdf');
      } finally {
        await own.close();
      }
    });

    it('serves the test redirect target, escaping what it shows', async () => {
      const r = await app.inject({ method: 'GET', url: `${B}/oauth/test?code=abc&state=%3Cscript%3E` });
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('<code id="code">abc</code>');
      expect(r.body).toContain('&#60;script&#62;');
      expect(r.body).not.toContain('<script>');
    });
  });
}
