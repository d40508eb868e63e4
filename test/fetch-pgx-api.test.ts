/**
 * `biomirror fetch pgx pharmgkb --parts ...,api` against a biomirror serving the demo as its
 * upstream: the downloads (zips without what only the API serves) plus the API harvest must answer
 * as the upstream does, on every resource; the harvest resumes where it stopped and a later one
 * asks per gene and drug only for what is new.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZipWriter } from '../synthetic/zip.js';
import { FetchError, UsageError } from '../src/cli/fetch/errors.js';
import { fetchAndLoad } from '../src/cli/fetch/run.js';
import { fetchRequest, upstreamAndMirror } from './helpers/fetch.js';
import { P, PGX_DEMO, loadPgx, pgxApp, writeTree } from './helpers/pgx.js';
import { STORES, tempDir } from './helpers/stores.js';

process.env.BIOMIRROR_FETCH_RETRIES = '0';
// The pace itself is the fetch client's, tested there; here the harvest's content.
process.env.BIOMIRROR_HARVEST_SPACING_MS = '0';

/** The demo's table without the columns PharmGKB's downloads do not have. */
function withoutColumns(file: string, drop: string[]): string {
  const [head = '', ...rows] = readFileSync(join(PGX_DEMO, file), 'utf8').split('\n');
  const names = head.split('\t');
  const keep = names.map((n, i) => (drop.includes(n) ? -1 : i)).filter((i) => i >= 0);
  return [head, ...rows]
    .filter((l) => l.trim())
    .map((l) => keep.map((i) => l.split('\t')[i] ?? '').join('\t'))
    .join('\n')
    .concat('\n');
}

async function zip(path: string, entries: Record<string, string>): Promise<Buffer> {
  const z = new ZipWriter(path);
  for (const [name, text] of Object.entries(entries)) await z.add(name, text);
  await z.close();
  return readFileSync(path);
}

/** The demo as the ClinPGx downloads would give it: no added columns, no recommendations, no CPIC tables. */
async function downloads(): Promise<Record<string, Buffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'pgx-zips-'));
  const guidelines: Record<string, string> = {};
  for (const f of readdirSync(join(PGX_DEMO, 'guidelineAnnotations'))) {
    const doc = JSON.parse(readFileSync(join(PGX_DEMO, 'guidelineAnnotations', f), 'utf8')) as Record<string, unknown>;
    delete doc.recommendations;
    guidelines[f] = JSON.stringify(doc);
  }
  const pathways: Record<string, string> = {};
  for (const f of readdirSync(join(PGX_DEMO, 'pathways'))) pathways[f] = readFileSync(join(PGX_DEMO, 'pathways', f), 'utf8');
  const demo = (f: string) => readFileSync(join(PGX_DEMO, f), 'utf8');
  return {
    'genes.zip': await zip(join(dir, 'g.zip'), { 'genes.tsv': withoutColumns('genes.tsv', ['Cytogenetic Location', 'Pharmacogenomic Function', 'Description']) }),
    'drugs.zip': await zip(join(dir, 'd.zip'), { 'drugs.tsv': withoutColumns('drugs.tsv', ['Drug Classes', 'Indication']) }),
    'variants.zip': await zip(join(dir, 'v.zip'), { 'variants.tsv': withoutColumns('variants.tsv', ['Consequence', 'Clinical Significance', 'Frequencies']) }),
    'summaryAnnotations.zip': await zip(join(dir, 's.zip'), {
      'clinical_annotations.tsv': demo('clinical_annotations.tsv'),
      'clinical_ann_alleles.tsv': demo('clinical_ann_alleles.tsv'),
      'clinical_ann_evidence.tsv': demo('clinical_ann_evidence.tsv'),
    }),
    'relationships.zip': await zip(join(dir, 'r.zip'), { 'relationships.tsv': demo('relationships.tsv') }),
    'drugLabels.zip': await zip(join(dir, 'l.zip'), { 'drugLabels.tsv': withoutColumns('drugLabels.tsv', ['Testing Section', 'Dosing Section', 'Warnings Section']) }),
    'pathways-tsv.zip': await zip(join(dir, 'p.zip'), pathways),
    'guidelineAnnotations.json.zip': await zip(join(dir, 'ga.zip'), guidelines),
  };
}

const ALL_PARTS = ['genes', 'drugs', 'variants', 'summaryAnnotations', 'relationships', 'drugLabels', 'pathways', 'guidelineAnnotations'];
const LISTS = ['gene', 'chemical', 'variant', 'guideline', 'pathway', 'geneDrugPair'].map((n) => `${P}/${n}`);

for (const target of STORES) {
  describe(`PharmGKB API harvest on ${target.name}`, () => {
    it('fills what the downloads lack from the API, answers as its upstream, resumes, and later asks only for what is new', async () => {
      // The downloads are the stand-in's own files; everything else is asked of the upstream app.
      let failAt: string | undefined = `${P}/allele?gene=CYP2D6`;
      const rules = { own: (url: string) => url.includes('/download/file/data/'), fail: (_n: number, url: string) => url === failAt };
      await upstreamAndMirror(
        target,
        pgxApp,
        async ({ a, b, appA, appB, up }) => {
          await loadPgx(a, appA.generations, PGX_DEMO);
          for (const [name, body] of Object.entries(await downloads())) up.put(`/pgx/v1/download/file/data/${name}`, body);
          const request = (parts: string[]) => fetchRequest(b, [`clinpgx=${up.url}/pgx`], { service: 'pgx', opts: { parts } });
          const json = async (app: typeof appA.app, url: string) => {
            const r = await app.inject(url);
            return { status: r.statusCode, body: r.json() as unknown };
          };

          // The downloads alone lack what only the API serves.
          await fetchAndLoad(b.db, appB.generations, request(ALL_PARTS));
          const bare = (await json(appB.app, `${P}/gene/CYP2D6`)).body as Record<string, unknown>;
          expect(bare.chromosomeLocation).toBe('');
          expect(await json(appB.app, `${P}/allele?gene=CYP2D6`)).toEqual({ status: 200, body: [] });

          // With the API: it stops at the injected failure (nothing new is served), then resumes.
          const served = (await appB.generations.served('pgx'))[0]?.id;
          const err = await fetchAndLoad(b.db, appB.generations, request([...ALL_PARTS, 'api'])).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(FetchError);
          expect((await appB.generations.served('pgx'))[0]?.id).toBe(served);
          failAt = undefined;
          const mark = up.requests.length;
          const load = await fetchAndLoad(b.db, appB.generations, request([...ALL_PARTS, 'api']));
          const resumed = up.requests.slice(mark).map((r) => r.path);
          expect(resumed.filter((p) => LISTS.includes(p))).toEqual([]);
          expect(resumed).toContain(`${P}/allele?gene=CYP2D6`);
          expect(resumed).not.toContain(`${P}/allele?gene=CYP2C19`);
          expect(load?.skipped ?? 0).toBe(0);

          // Every resource answers as the upstream's.
          const urls = [...LISTS, `${P}/clinicalAnnotation`];
          const list = async (path: string) => (await json(appA.app, `${P}/${path}`)).body as Record<string, unknown>[];
          for (const g of await list('gene')) urls.push(`${P}/gene/${String(g.symbol)}`, `${P}/allele?gene=${String(g.symbol)}`);
          for (const c of await list('chemical')) urls.push(`${P}/chemical/${String(c.id)}`, `${P}/drugLabel?drug=${encodeURIComponent(String(c.name))}`);
          for (const v of await list('variant')) urls.push(`${P}/variant/${String(v.rsid)}`);
          for (const g of await list('guideline')) urls.push(`${P}/guideline/${String(g.id)}`);
          for (const p of await list('pathway')) urls.push(`${P}/pathway/${String(p.id)}`);
          const filled = (await json(appB.app, `${P}/gene/CYP2D6`)).body as Record<string, unknown>;
          expect(filled.chromosomeLocation).not.toBe('');
          expect(((await json(appB.app, `${P}/allele?gene=CYP2D6`)).body as unknown[]).length).toBeGreaterThan(3);
          for (const url of urls) expect(await json(appB.app, url), url).toEqual(await json(appA.app, url));
          expect((await appB.generations.served('pgx'))[0]?.source).toContain(`${up.url}/pgx/v1/ (API, harvested)`);

          // A later harvest asks the lists again, and per gene and drug only for those not asked before.
          const again = up.requests.length;
          await fetchAndLoad(b.db, appB.generations, request([...ALL_PARTS, 'api']));
          expect(
            up.requests
              .slice(again)
              .map((r) => r.path)
              .filter((p) => !p.includes('/download/')),
          ).toEqual(LISTS);
          expect((await json(appB.app, `${P}/gene/CYP2D6`)).body).toEqual(filled);
          // The API's part alone would replace the downloads' records with nothing: refused.
          await expect(fetchAndLoad(b.db, appB.generations, request(['api']))).rejects.toThrow(UsageError);

          // An upstream that does not serve these paths stops the harvest; nothing new is served.
          const now = (await appB.generations.served('pgx'))[0]?.id;
          // (Its downloads are there.)
          for (const [name, body] of Object.entries(await downloads())) up.put(`/nowhere/v1/download/file/data/${name}`, body);
          const wrong = fetchRequest(b, [`clinpgx=${up.url}/nowhere`], { service: 'pgx', opts: { parts: [...ALL_PARTS, 'api'] }, cacheDir: tempDir() });
          const refused = await fetchAndLoad(b.db, appB.generations, wrong).catch((e: unknown) => e);
          expect(refused).toBeInstanceOf(FetchError);
          expect((refused as Error).message).toContain(`${up.url}/nowhere/v1/gene: the upstream answered 404`);
          expect((await appB.generations.served('pgx'))[0]?.id).toBe(now);
        },
        rules,
      );
    }, 120_000);

    it('loads the members of a details document over the downloads, and skips items of an unknown type, member or value type', async () => {
      const s = await target.open();
      const t = await pgxApp(s);
      try {
        const details = [
          { type: 'gene', key: 'PA128', field: 'description', value: 'From the API.' },
          { type: 'chemical', key: 'PA449088', field: 'drugClasses', value: ['Opioids'] },
          { type: 'gene', key: 'PA128', field: 'symbol', value: 'NOPE' },
          { type: 'planet', key: 'PA128', field: 'description', value: 'x' },
          { type: 'gene', key: 'PA128', field: 'function', value: 5 },
          'not an object',
        ];
        const dir = writeTree(tempDir(), {
          'genes.tsv': withoutColumns('genes.tsv', ['Cytogenetic Location', 'Pharmacogenomic Function', 'Description']),
          'drugs.tsv': withoutColumns('drugs.tsv', ['Drug Classes', 'Indication']),
          'api/details.json': JSON.stringify({ details }),
        });
        const skipped: string[] = [];
        const r = await loadPgx(s, t.generations, dir, { onSkip: (p, why) => skipped.push(`${p.position}: ${why}`) });
        expect(skipped).toEqual([
          'details item 2: gene has no member "symbol" to be given',
          'details item 3: unknown type "planet"',
          'details item 4: gene PA128: function is not of its type',
          'details item 5: not an object',
        ]);
        expect(r.skipped).toBe(4);
        const gene = (await t.app.inject(`${P}/gene/CYP2D6`)).json() as Record<string, unknown>;
        expect(gene).toMatchObject({ symbol: 'CYP2D6', description: 'From the API.', function: '' });
        const codeine = (await t.app.inject(`${P}/chemical/PA449088`)).json() as Record<string, unknown>;
        expect(codeine).toMatchObject({ name: 'codeine', drugClasses: ['Opioids'] });
      } finally {
        await t.close();
        await s.cleanup();
      }
    });
  });
}
