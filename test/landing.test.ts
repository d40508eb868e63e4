/**
 * The landing page a browser gets at `/`, each service's generated OpenAPI document and its
 * reference UI, checked over HTTP and rendered in headless Chromium.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { loadGenes } from './helpers/ncbi.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../src/server/openapi.js';
import { SERVICES } from '../src/services/registry.js';
import { clinicaltrials } from '../src/services/clinicaltrials/index.js';
import { runLoad } from '../src/core/ingest/load.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { missing } from './helpers/tools.js';

const NO_CHROMIUM = missing('/usr/bin/chromium', 'Chromium at /usr/bin/chromium');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('landing page and API references', () => {
  let store: OpenedStore;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    store = await (STORES[0] as (typeof STORES)[number]).open();
    t = await makeApp(store, { services: [...SERVICES] });
    // ClinicalTrials.gov's demo studies, for trying its operations.
    const ct = clinicaltrials.datasets[0] as (typeof clinicaltrials.datasets)[number];
    await runLoad(store.db, t.generations, ct, ct.demo as string);
    // The demo genes, which NCBI Datasets answers from.
    await loadGenes(store, t.generations);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('gives a browser an HTML page with every service, its addresses and what is loaded; other clients keep the JSON status', async () => {
    const html = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    for (const s of SERVICES) {
      expect(html.body).toContain(`${s.mount}/openapi.json`);
      for (const path of Object.values(s.baseUrls)) expect(html.body).toContain(`http://localhost:80${s.mount}${path}`);
      for (const address of Object.values(s.publicUrls ?? {})) expect(html.body, s.id).toContain(`<code>${address}</code>`);
      expect(html.body).toContain(`:${s.defaultPort}`);
    }
    expect(html.body).toContain('not loaded');
    // A host without data of its own names the one whose loads it serves.
    expect(html.body).toMatch(/<code>rcsb-files<\/code>.*?serves what RCSB PDB Data API \(REST and GraphQL\) \(rcsb-data\) loads/s);
    expect(html.body).toMatch(/<code>exec<\/code>.*?has no data of its own/s);
    expect(html.body).not.toContain('another part');
    expect(html.body).toContain('pubchempy.API_BASE');
    expect(html.body).not.toMatch(/<script/);
    const json = await t.app.inject({ method: 'GET', url: '/' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json().services.map((s: { id: string }) => s.id)).toEqual(SERVICES.map((s) => s.id));
  });

  it('lists own ports that follow the main port, a configured one kept', async () => {
    const moved = await makeApp(store, { services: [...SERVICES], config: { port: 18100, services: { pubchem: { port: 9999 } } } });
    try {
      const html = (await moved.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).body;
      for (const s of SERVICES) {
        const own = s.id === 'pubchem' ? 9999 : 18100 + s.defaultPort - 8080;
        for (const path of Object.values(s.baseUrls)) expect(html, s.id).toContain(`own port (with --port-per-service): http://localhost:${own}${path}<`);
      }
      expect(html).not.toMatch(/:80(8[1-9]|9[0-4])\//);
    } finally {
      await moved.close();
    }
  });

  it("answers a browser's favicon request with an icon, not a 404", async () => {
    const r = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(r.body).toContain('<svg');
  });

  it('serves an OpenAPI document per service, generated from its routes', async () => {
    for (const s of SERVICES) {
      const r = await t.app.inject({ method: 'GET', url: `${s.mount}/openapi.json` });
      expect(r.statusCode, s.id).toBe(200);
      const doc = r.json();
      expect(doc.openapi).toBe('3.0.3');
      expect(doc.info.title).toBe(s.title);
      expect(doc.servers[0].url).toBe(`http://localhost:80${s.mount}`);
      const paths = Object.keys(doc.paths);
      expect(paths.length, s.id).toBeGreaterThan(0);
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { name: string }[] }>>)) {
        const declared = Object.values(item).flatMap((op) => (op.parameters ?? []).map((p) => p.name));
        for (const m of path.matchAll(/\{([^}]+)\}/g)) expect(declared, `${s.id} ${path}`).toContain(m[1]);
        expect(path.startsWith('/openapi'), path).toBe(false);
      }
    }
    const ct = (await t.app.inject({ method: 'GET', url: '/clinicaltrials/openapi.json' })).json();
    expect(Object.keys(ct.paths)).toEqual(expect.arrayContaining(['/api/v2/studies', '/api/v2/studies/{nctId}']));
    expect(openApiPath('/files/:name.json')).toEqual({ path: '/files/{name}.json', params: ['name'] });
    expect(openApiPath('/x/*')).toEqual({ path: '/x/{path}', params: ['path'] });
  });

  it('serves the reference UI from this server, with no outside address', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/pubchem/openapi' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/pubchem/openapi.json');
    // Readable before Swagger UI has loaded (or without JavaScript): what loads, and the document.
    expect(page.body).toMatch(/<div id="ui"><p[^>]*>Loading the API reference of PubChem[^<]*<a href="\/pubchem\/openapi.json">/);
    for (const src of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) expect(src[1]).toMatch(/^\//);
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'reference.js']) {
      const a = await t.app.inject({ method: 'GET', url: `/_biomirror/assets/${name}` });
      expect(a.statusCode, name).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/_biomirror/assets/..%2Fpackage.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/_biomirror/assets/index.html' })).statusCode).toBe(404);
  });

  it("shows the real service's own OpenAPI document first where it publishes one, its servers pointed here", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/gwas/openapi' });
    const specs = JSON.parse(
      /data-specs="([^"]+)"/
        .exec(page.body)?.[1]
        ?.replace(/&quot;|&#34;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&') ?? '[]',
    ) as { name: string; url: string }[];
    expect(specs.map((x) => x.url)).toEqual(['/gwas/openapi/official-0.json', '/gwas/openapi.json']);
    expect(page.body).toContain('/_biomirror/assets/swagger-ui-standalone-preset.js');
    expect((await t.app.inject({ method: 'GET', url: '/_biomirror/assets/swagger-ui-standalone-preset.js' })).statusCode).toBe(200);
    const doc = (await t.app.inject({ method: 'GET', url: '/gwas/openapi/official-0.json' })).json();
    expect(doc.info.title).toBe('Gwas Catalog Rest API V2');
    expect(doc.servers).toEqual([{ url: 'http://localhost:80/gwas/rest/api', description: 'biomirror' }]);
    expect(Object.keys(doc.paths)).toContain('/v2/studies');
    // ClinicalTrials.gov's, served where the registry serves it too.
    const ct = (await t.app.inject({ method: 'GET', url: '/clinicaltrials/openapi/official-0.json' })).json();
    expect(ct.info).toMatchObject({ title: 'ClinicalTrials.gov REST API', version: '2.0.5' });
    expect(ct.servers).toEqual([{ url: 'http://localhost:80/clinicaltrials/api/v2', description: 'biomirror' }]);
    expect(Object.keys(ct.paths)).toEqual(expect.arrayContaining(['/studies', '/studies/{nctId}']));
    const yaml = await t.app.inject({ method: 'GET', url: '/clinicaltrials/api/oas/v2' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toMatch(/^openapi: "3\.0\.3"/);
    // NCBI Datasets: today's v2 and the v2alpha the interface describes, each pointed at its own base.
    const ds = (await t.app.inject({ method: 'GET', url: '/datasets/openapi' })).body;
    expect(ds).toContain('/datasets/openapi/official-1.json');
    const v2 = (await t.app.inject({ method: 'GET', url: '/datasets/openapi/official-0.json' })).json();
    expect(v2.info).toMatchObject({ title: 'NCBI Datasets API', version: 'v2' });
    expect(v2.servers).toEqual([{ url: 'http://localhost:80/datasets/v2', description: 'biomirror' }]);
    expect(Object.keys(v2.paths)).toContain('/gene/id/{gene_ids}');
    const v2alpha = (await t.app.inject({ method: 'GET', url: '/datasets/openapi/official-1.json' })).json();
    expect(v2alpha.servers).toEqual([{ url: 'http://localhost:80/datasets/v2alpha', description: 'biomirror' }]);
    // A service without one keeps a single document.
    expect((await t.app.inject({ method: 'GET', url: '/pubchem/openapi' })).body).not.toContain('standalone-preset');
  });

  describe.skipIf(!!NO_CHROMIUM)(`in Chromium${NO_CHROMIUM}`, () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('renders the landing page and a service reference with its operations', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      await page.goto(`${base}/`);
      expect(await page.locator('tbody tr').count()).toBe(SERVICES.length);
      expect(await page.locator('h1').textContent()).toBe('biomirror');
      const shot = join(tempDir(), 'landing.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(20_000);
      // A service without a document of its own: the one generated from its routes.
      await page.click('a[href="/biorxiv/openapi"]');
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const doc = (await t.app.inject({ method: 'GET', url: '/biorxiv/openapi.json' })).json();
      const operations = Object.values(doc.paths as Record<string, object>).reduce((n: number, item) => n + Object.keys(item).length, 0);
      expect(await page.locator('.opblock').count()).toBe(operations);
      expect(await page.locator('.opblock-summary-path').allTextContents()).toContain(Object.keys(doc.paths as object)[0]);
      await page.close();
    }, 90_000);

    it("tries a ClinicalTrials.gov operation from the registry's own document, against this server", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      await page.goto(`${base}/clinicaltrials/openapi`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const op = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: /^\/studies\/\{nctId\}$/ }) }).first();
      await op.locator('.opblock-summary').click();
      await op.locator('button.try-out__btn').click();
      await op.locator('tr[data-param-name="nctId"] input').fill('NCT02710084');
      await op.locator('button.execute').click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      expect((await status.textContent())?.trim(), (await op.locator('.request-url').textContent()) ?? '').toBe('200');
      // The demo study, from this server.
      expect(await op.locator('.live-responses-table .response .response-col_description').first().textContent()).toContain('NCT02710084');
      await page.close();
    }, 90_000);

    it('tries an NCBI Datasets gene operation from its own document, against this server', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      await page.goto(`${base}/datasets/openapi`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      // v2's current path for gene reports by id (the bare /gene/id/{gene_ids} is deprecated there).
      const op = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: /^\/gene\/id\/\{gene_ids\}\/dataset_report$/ }) }).first();
      await op.locator('.opblock-summary').click();
      await op.locator('button.try-out__btn').click();
      // An array of GeneIDs: one item added, the demo's BRCA1.
      await op.locator('tr[data-param-name="gene_ids"] button.json-schema-form-item-add').click();
      await op.locator('tr[data-param-name="gene_ids"] input').first().fill('672');
      await op.locator('button.execute').click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      expect((await status.textContent())?.trim(), (await op.locator('.request-url').textContent()) ?? '').toBe('200');
      expect(await op.locator('.live-responses-table .response .response-col_description').first().textContent()).toContain('BRCA1');
      await page.close();
    }, 90_000);

    it('tries a GWAS Catalog v2 operation from its own document, against this server', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      await page.goto(`${base}/gwas/openapi`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      expect(await page.locator('.opblock-summary-path').allTextContents()).toContain('/v2/studies');
      const op = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: /^\/v2\/studies$/ }) }).first();
      await op.locator('.opblock-summary').click();
      await op.locator('button.try-out__btn').click();
      await op.locator('button.execute').click();
      const status = op.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      expect((await status.textContent())?.trim()).toBe('200');
      // This app has no catalog loaded: the answer is the service's empty page, from this server.
      expect(await op.locator('.live-responses-table .response .response-col_description').first().textContent()).toContain('"totalElements"');
      await page.close();
    }, 90_000);
  });
});
