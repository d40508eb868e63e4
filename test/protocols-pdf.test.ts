import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLimitStore } from '../src/core/limits/memory.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { REDIRECT, addClient, addUser, api, clientToken, loadProtocols, oauthTokens, protoApp } from './helpers/protocols.js';
import { missing } from './helpers/tools.js';

const NO_POPPLER = missing('pdftotext', 'poppler-utils (pdftotext, pdfinfo)');

const AGAROSE = 'agarose-gel-electrophoresis-of-dna-1-gel-bmd0004';
const PRIVATE = 'plasmid-miniprep-by-alkaline-lysis-lab-draft-bmd0005';

/** What any PDF reader sees: the text (poppler's pdftotext) and the document information (pdfinfo). */
function readPdf(bytes: Buffer): { text: string; info: Record<string, string> } {
  const file = join(tempDir('biomirror-pdf-'), 'p.pdf');
  writeFileSync(file, bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  const info = Object.fromEntries(
    execFileSync('pdfinfo', [file], { encoding: 'utf8' })
      .split('\n')
      .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1] as string, m[2] as string]),
  );
  return { text, info };
}

for (const target of STORES) {
  describe(`protocol PDFs on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let owner: string;
    let writer: string;
    let stranger: string;

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      await loadProtocols(s.db, t.generations);
      await addUser(s.db, 'biomirror-demo');
      await addUser(s.db, 'carol');
      const demo = await addClient(s.db, 'biomirror-demo');
      owner = await clientToken(s.db, demo.client);
      writer = (await oauthTokens(t.app, { clientId: demo.client.clientId, secret: demo.secret }, 'biomirror-demo', 'readwrite')).access;
      stranger = await clientToken(s.db, (await addClient(s.db, 'carol')).client);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it.skipIf(!!NO_POPPLER)(`writes title, authors, abstract, materials and numbered steps that a PDF reader reads back${NO_POPPLER}`, async () => {
      const r = await api(t.app, `/protocols/view/${AGAROSE}.pdf`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/pdf');
      expect(r.headers['content-disposition']).toBe(`inline; filename="${AGAROSE}.pdf"`);
      expect(r.raw.subarray(0, 5).toString()).toBe('%PDF-');
      const { text, info } = readPdf(r.raw);
      expect(info.Pages).toBe('1');
      expect(info.Title).toBe('Agarose gel electrophoresis of DNA (1% gel)');
      expect(info.Author).toBe('Demo Lab (generated), Demo Curator (generated)');
      const flat = text.replace(/\s+/g, ' ');
      const order = [
        'Agarose gel electrophoresis of DNA (1% gel)',
        'Demo Lab (generated)',
        'DOI: dx.doi.org/10.5555/biomirror.demo.0004',
        'Abstract',
        'Separating DNA fragments by size in a 1% agarose gel in 1x TAE',
        'Materials',
        '• Agarose',
        '• Nucleic acid gel stain',
        'Steps',
        '1. Add 1 g agarose to 100 mL 1x TAE',
        'Amount: 100 mL 1x TAE',
        '2. Cool to about 55 °C',
        'Duration: 30 min setting',
        '3. Place the gel in the tank',
        '4. Run at 5 to 8 V per cm',
        'Expected result:',
        '5. Image the gel under suitable light.',
        'Safety information:',
      ];
      let at = -1;
      for (const piece of order) {
        const i = flat.indexOf(piece, at + 1);
        expect(i, piece).toBeGreaterThan(at);
        at = i;
      }
    });

    it.skipIf(!!NO_POPPLER)(`runs long protocols over several pages, spelling out what the standard fonts lack${NO_POPPLER}`, async () => {
      const steps = Array.from({ length: 90 }, (_, i) => `<p>Step text number ${i + 1}: add 2 µL of β-mercaptoethanol, mix ≥ 3 times.</p>`);
      const created = await api(t.app, 'protocols', writer, { method: 'POST', payload: { title: 'Long protocol with β-galactosidase', steps } });
      expect(created.status).toBe(200);
      const uri = (created.body.protocol as Record<string, unknown>).uri as string;
      const r = await api(t.app, `/protocols/view/${uri}.pdf`, owner);
      expect(r.status).toBe(200);
      const { text, info } = readPdf(r.raw);
      expect(Number(info.Pages)).toBeGreaterThanOrEqual(4);
      expect(info.Title).toBe('Long protocol with beta-galactosidase');
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('Long protocol with beta-galactosidase');
      expect(flat).toContain('90. Step text number 90: add 2 µL of beta-mercaptoethanol, mix >= 3 times.');
      expect(flat).toContain('Not published');
    });

    it.skipIf(!!NO_POPPLER)(`gives a private protocol only to a token that may see it${NO_POPPLER}`, async () => {
      expect((await api(t.app, `/protocols/view/${PRIVATE}.pdf`)).status).toBe(404);
      const refused = await api(t.app, `/protocols/view/${PRIVATE}.pdf`, stranger);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ status_code: 1404, error_message: `Protocol not found: ${PRIVATE}` });
      const ok = await api(t.app, `/protocols/view/${PRIVATE}.pdf`, owner);
      expect(ok.status).toBe(200);
      expect(readPdf(ok.raw).text).toContain('Plasmid miniprep by alkaline lysis (lab draft)');
    });

    it('answers the service error for a bad token, an unknown protocol or another file type', async () => {
      const bad = await api(t.app, `/protocols/view/${AGAROSE}.pdf`, '0'.repeat(64));
      expect(bad.status).toBe(401);
      expect(bad.body.status_code).toBe(1202);
      for (const path of ['/protocols/view/no-such-protocol.pdf', '/protocols/view/a%20b.pdf']) {
        const r = await api(t.app, path);
        expect(r.status, path).toBe(404);
        expect(r.body.status_code).toBe(1404);
      }
      const html = await api(t.app, `/protocols/view/${AGAROSE}.html`);
      expect(html.status).toBe(404);
      expect(html.body.error_message).toMatch(/No such endpoint/);
    });
  });

  describe(`protocol service rate limits on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let alice: string;
    let alice2: string;
    let bob: string;

    beforeAll(async () => {
      s = await target.open();
      // A stopped clock: budgets are whole numbers of requests, not refilled while the test runs.
      const now = Date.now();
      t = await protoApp(s, { limits: true, limitStore: new MemoryLimitStore(() => now) });
      await loadProtocols(s.db, t.generations);
      await addUser(s.db, 'alice');
      await addUser(s.db, 'bob');
      const a = await addClient(s.db, 'alice', [REDIRECT]);
      alice = await clientToken(s.db, a.client);
      const a2 = await addClient(s.db, 'alice', [REDIRECT], 'second');
      alice2 = await clientToken(s.db, a2.client);
      bob = await clientToken(s.db, (await addClient(s.db, 'bob')).client);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    const pdf = (token?: string, ip = '10.0.0.1') =>
      t.app.inject({ method: 'GET', url: `/protocols/view/${AGAROSE}.pdf`, remoteAddress: ip, headers: token ? { authorization: `Bearer ${token}` } : {} });

    it('allows an anonymous caller 3 PDFs a minute, then answers 429 with the service body', async () => {
      for (let i = 0; i < 3; i++) expect((await pdf(undefined, '10.0.0.7')).statusCode).toBe(200);
      const r = await pdf(undefined, '10.0.0.7');
      expect(r.statusCode).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.json()).toEqual({ status_code: 1429, error_message: expect.stringMatching(/^Too many requests: .*PDF: 5 per minute signed in, 3 without a token/) });
      expect((await pdf(undefined, '10.0.0.8')).statusCode).toBe(200);
      // A signed-in user from the same address has a budget of their own.
      expect((await pdf(alice, '10.0.0.7')).statusCode).toBe(200);
    });

    it('allows a signed-in user 5 PDFs a minute, per user across tokens and addresses', async () => {
      for (let i = 0; i < 4; i++) expect((await pdf(bob, `10.0.1.${i}`)).statusCode).toBe(200);
      expect((await pdf(bob, '10.0.1.9')).statusCode).toBe(200);
      expect((await pdf(bob, '10.0.1.10')).statusCode).toBe(429);
    });

    it('allows 100 requests a minute per user on the standard endpoints, whatever the token', async () => {
      const call = (token: string, ip: string) =>
        t.app.inject({ method: 'GET', url: '/protocols/api/v3/protocols?filter=public&page_size=1', remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
      let ok = 0;
      // alice already spent one request on the PDF budget only; the standard budget is whole.
      for (let i = 0; i < 100; i++) if ((await call(i % 2 ? alice : alice2, `10.0.2.${i % 50}`)).statusCode === 200) ok++;
      expect(ok).toBe(100);
      const over = await call(alice2, '10.0.2.99');
      expect(over.statusCode).toBe(429);
      expect(over.json().status_code).toBe(1429);
      expect((await call(bob, '10.0.2.99')).statusCode).toBe(200);
    });

    it('counts requests without a valid token per address', async () => {
      let refused = 0;
      for (let i = 0; i < 100; i++) {
        const r = await api(t.app, 'protocols?filter=public');
        if (r.status === 401) refused++;
      }
      expect(refused).toBe(100);
      expect((await api(t.app, 'protocols?filter=public')).status).toBe(429);
      // The same address with a valid token is counted for its user.
      expect((await api(t.app, 'protocols?filter=public', bob)).status).toBe(200);
    });
  });
}
