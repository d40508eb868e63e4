/**
 * The authorization-code flow in a real browser: headless Chromium, with JavaScript switched off
 * (the pages are plain forms), from the authorize URL through sign-in and consent to the redirect;
 * then the code exchanged over HTTP and an API call that sees the user's private protocol.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureDemoAccounts } from '../src/services/protocols/demo.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { loadProtocols, protoApp } from './helpers/protocols.js';
import { missing } from './helpers/tools.js';

const NO_CHROMIUM = missing('/usr/bin/chromium', 'Chromium at /usr/bin/chromium');

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser: Browser;
beforeAll(async () => {
  if (NO_CHROMIUM) return;
  // Playwright gives every launch a fresh, empty profile directory of its own.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

for (const target of STORES) {
  describe.skipIf(!!NO_CHROMIUM)(`OAuth 2.0 in Chromium on ${target.name}${NO_CHROMIUM}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let base: string;

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      await loadProtocols(s.db, t.generations);
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      await ensureDemoAccounts(s.db, [`http://127.0.0.1:${new URL(base).port}/protocols/api/v3/oauth/test`]);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('signs in, consents, comes back with the code, and the token sees the private protocol', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      try {
        const page = await context.newPage();
        const port = new URL(base).port;
        const redirectUri = `http://127.0.0.1:${port}/protocols/api/v3/oauth/test`;
        const state = 'browser-state-42';
        const authorize = `${base}/protocols/api/v3/oauth/authorize?${new URLSearchParams({
          client_id: DEMO.clientId,
          redirect_uri: redirectUri,
          response_type: 'code',
          scope: 'readwrite',
          state,
        })}`;

        await page.goto(authorize);
        expect(await page.title()).toBe('Sign in · protocols');
        await page.fill('#username', DEMO.username);
        await page.fill('#password', 'not the password');
        await page.click('button[type=submit]');
        expect(await page.textContent('[role=alert]')).toBe('Wrong username or password.');
        await page.fill('#password', DEMO.password);
        await page.click('button[type=submit]');

        expect(await page.textContent('h1')).toBe(`Authorize ${DEMO.clientName}?`);
        await page.click('button[value=allow]');
        await page.waitForURL((u) => u.toString().startsWith(redirectUri));

        const landed = new URL(page.url());
        expect(landed.searchParams.get('state')).toBe(state);
        const code = landed.searchParams.get('code') as string;
        expect(code).toMatch(/^[0-9a-f]{64}$/);
        expect(await page.textContent('#code')).toBe(code);

        const tokenRes = await fetch(`${base}/protocols/api/v3/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            client_id: DEMO.clientId,
            client_secret: DEMO.clientSecret,
            redirect_uri: redirectUri,
          }),
        });
        expect(tokenRes.status).toBe(200);
        const token = (await tokenRes.json()) as { access_token: string; token_type: string; scope: string };
        expect(token).toMatchObject({ token_type: 'Bearer', scope: 'readwrite' });

        const list = await fetch(`${base}/protocols/api/v3/protocols?filter=user_private`, { headers: { authorization: `Bearer ${token.access_token}` } });
        const body = (await list.json()) as { items: { id: number; title: string }[]; status_code: number };
        expect(body.status_code).toBe(0);
        expect(body.items.map((p) => p.title)).toContain('Plasmid miniprep by alkaline lysis (lab draft)');
        const one = await fetch(`${base}/protocols/api/v3/protocols/90005`, { headers: { authorization: `Bearer ${token.access_token}` } });
        expect(one.status).toBe(200);

        // The account page lists the application; revoking it there ends the token.
        await page.goto(`${base}/protocols/account`);
        expect(await page.textContent('table')).toContain(DEMO.clientName);
        await page.click('button:has-text("Revoke")');
        expect(await page.textContent('[role=status]')).toContain('withdrawn');
        const after = await fetch(`${base}/protocols/api/v3/protocols/90005`, { headers: { authorization: `Bearer ${token.access_token}` } });
        expect(after.status).toBe(401);
      } finally {
        await context.close();
      }
    }, 60_000);
  });
}
