/**
 * "Try it out" in headless Chromium on the API reference pages of E-utilities, PubChem, bioRxiv,
 * PharmGKB, the RCSB PDB's file and site hosts and the AlphaFold DB (its own operations and the 3D-Beacons document): for one operation
 * of each, open the page, click "Try it out" then "Execute" with the example values the reference
 * fills in, and find a 200 with demo data in the response panel. Without Chromium the tests are
 * skipped and say so (in CI, BIOMIRROR_REQUIRE_TOOLS makes that a failure).
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceApp, type ReferenceApp } from './helpers/reference.js';
import { missing } from './helpers/tools.js';

const NO_CHROMIUM = missing('/usr/bin/chromium', 'Chromium at /usr/bin/chromium');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Trial {
  service: string;
  page: string;
  /** The document to pick in the page's selector, when it is not the first. */
  spec?: string;
  path: string;
  /** Path parameters to type, where the document gives no example. */
  fill?: Record<string, string>;
  /** Demo data the answer shows. */
  expect: string;
}

const TRIALS: Trial[] = [
  { service: 'E-utilities', page: '/eutils/openapi', path: '/esummary.fcgi', expect: 'BRCA1' },
  { service: 'PubChem PUG REST', page: '/pubchem/openapi', path: '/rest/pug/compound/{namespace}/{identifiers}/property/{properties}/{output}', expect: 'C9H8O4' },
  { service: 'PubChem PUG View', page: '/pubchem/openapi', path: '/rest/pug_view/data/compound/{cid}/{output}', expect: 'Aspirin' },
  { service: 'bioRxiv', page: '/biorxiv/openapi', path: '/details/{server}/{doi}/na/{format}', expect: '10.5555/2024.01.08.000101' },
  { service: 'PharmGKB', page: '/pgx/openapi', path: '/v1/gene/{gene_symbol}', expect: 'CYP2D6' },
  {
    service: 'AlphaFold DB',
    page: '/alphafold/openapi',
    spec: 'AlphaFold Protein Structure Database (API, files, 3D-Beacons): every route biomirror serves',
    path: '/api/prediction/{qualifier}',
    expect: 'AF-P69905-F1',
  },
  { service: 'RCSB PDB files', page: '/rcsb/files/openapi', path: '/view/{file}', expect: 'HEADER' },
  { service: 'RCSB PDB site (FASTA)', page: '/rcsb/www/openapi', path: '/fasta/entry/{key}', expect: '>4HHB' },
  { service: '3D-Beacons (AlphaFold DB)', page: '/alphafold/openapi', path: '/uniprot/summary/{qualifier}.json', fill: { qualifier: 'P69905' }, expect: 'AF-P69905-F1' },
];

describe.skipIf(!!NO_CHROMIUM)(`API reference pages in Chromium${NO_CHROMIUM}`, () => {
  let r: ReferenceApp;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    r = await referenceApp();
    base = await r.t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await r?.close();
  });

  it.each(TRIALS.map((t) => [t.service, t] as const))(
    'tries an operation of %s against this server',
    async (_name, trial) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      try {
        await page.goto(`${base}${trial.page}`);
        await page.waitForSelector('.opblock', { timeout: 30_000 });
        if (trial.spec) {
          await page.locator('.topbar select').selectOption({ label: trial.spec });
          await page.waitForSelector(`.opblock-summary-path[data-path="${trial.path}"]`, { timeout: 30_000 });
        }
        const op = page.locator('.opblock.opblock-get', { has: page.locator(`.opblock-summary-path[data-path="${trial.path}"]`) }).first();
        await op.locator('.opblock-summary').click();
        await op.locator('button.try-out__btn').click();
        for (const [name, value] of Object.entries(trial.fill ?? {})) await op.locator(`tr[data-param-name="${name}"] input`).fill(value);
        await op.locator('button.execute').click();
        const status = op.locator('.live-responses-table .response .response-col_status').first();
        await status.waitFor({ timeout: 30_000 });
        expect((await status.textContent())?.trim(), (await op.locator('.request-url').textContent()) ?? '').toBe('200');
        expect(await op.locator('.live-responses-table .response .response-col_description').first().textContent()).toContain(trial.expect);
      } finally {
        await page.close();
      }
    },
    90_000,
  );
});
