/** The security review's findings on the protocol service, each checked as an attacker would try it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { REDIRECT, addClient, addUser, api, loadProtocols, oauthTokens, protoApp, tokenPost } from './helpers/protocols.js';

for (const target of STORES) {
  describe(`protocol service security on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let app: TestApp['app'];
    let c: { clientId: string; secret: string };

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      app = t.app;
      await loadProtocols(s.db, t.generations);
      await addUser(s.db, 'biomirror-demo', 'Demo User');
      await addUser(s.db, 'second-demo-user');
      await addUser(s.db, 'carol');
      const a = await addClient(s.db, 'carol', [REDIRECT]);
      c = { clientId: a.client.clientId, secret: a.secret };
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('gives a refresh that asks for a narrower scope a token of that scope, which cannot write', async () => {
      const { refresh } = await oauthTokens(app, c, 'biomirror-demo', 'readwrite');
      const r = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: c.clientId, client_secret: c.secret, scope: 'read' });
      expect(r.status).toBe(200);
      expect(r.body.scope).toBe('read');
      const write = await api(app, 'protocols', r.body.access_token as string, { method: 'POST', payload: { title: 'should not be made' } });
      expect(write.status).toBe(403);
      // And it cannot be widened back by the next refresh.
      const wider = await tokenPost(app, { grant_type: 'refresh_token', refresh_token: r.body.refresh_token as string, client_id: c.clientId, client_secret: c.secret, scope: 'readwrite' });
      expect(wider.status).toBe(400);
      expect(wider.body.error).toBe('invalid_scope');
    });

    it('keeps authenticated answers out of caches and unsniffed, and lets the pages post only to this server', async () => {
      const { access } = await oauthTokens(app, c, 'biomirror-demo', 'read');
      const r = await app.inject({ url: '/protocols/api/v3/protocols/90005', headers: { authorization: `Bearer ${access}` } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toMatch(/no-store/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      const login = await app.inject({ url: '/protocols/login' });
      expect(login.headers['content-security-policy']).toMatch(/form-action 'self'(;|$)/);
    });

    it('lets an OAuth token see the private content of its own user only, not of another user of the same application', async () => {
      const a = await oauthTokens(app, c, 'biomirror-demo', 'read');
      const b = await oauthTokens(app, c, 'second-demo-user', 'read');
      // 90005 and 90006 are biomirror-demo's drafts, 90007 second-demo-user's.
      expect((await api(app, 'protocols/90007', a.access)).status).toBe(404);
      expect((await api(app, 'protocols/90005', b.access)).status).toBe(404);
      expect((await api(app, 'protocols/90005', a.access)).status).toBe(200);
      expect((await api(app, 'protocols/90007', b.access)).status).toBe(200);
      const listed = await api(app, 'protocols?filter=user_private&page_size=100', a.access);
      expect((listed.body.items as { id: number }[]).map((p) => p.id)).not.toContain(90007);
    });
  });
}
