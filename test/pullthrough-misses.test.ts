/**
 * Pull-through of the misses a service answers with 200 (E-utilities' ESummary errors and empty
 * EFetch, GraphQL's null, bioRxiv's "no posts found") and of requests of a partly loaded service
 * (NCBI gene loaded, ClinVar not): biomirror B, with part of the data, asks biomirror A (the demo
 * data) and answers as A does; what B's loaded data answers, searches included, stays B's.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../src/core/ingest/load.js';
import { closeCifPool } from '../src/core/mmcif/index.js';
import { type Config } from '../src/server/config.js';
import { SERVICES } from '../src/services/registry.js';
import { BX_DATASET, BX_DEMO } from './helpers/biorxiv.js';
import { GENE_DEMO, loadClinvar, loadGenes } from './helpers/ncbi.js';
import { ARCHIVE, copyArchive } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { serveOn, type Running } from './helpers/pullthrough.js';

const list = SERVICES.filter((s) => ['eutils', 'datasets', 'rcsb-data', 'biorxiv'].includes(s.id));

const serve = (store: OpenedStore, opts: { demo?: boolean; pullThrough?: Partial<Config['pullThrough']> } = {}): Promise<Running> => serveOn(store, list, opts);

interface Answer {
  status: number;
  body: string;
  source: string | null;
}

async function ask(base: string, path: string, post?: { body: string; type: string }): Promise<Answer> {
  const r = await fetch(`${base}${path}`, post ? { method: 'POST', body: post.body, headers: { 'content-type': post.type } } : {});
  return { status: r.status, body: await r.text(), source: r.headers.get('x-biomirror-source') };
}

const graphql = (query: string) => ({ body: JSON.stringify({ query }), type: 'application/json' });

/** The demo's gene_info without BRCA1 (GeneID 672): loaded here, in the demo upstream. */
function genesWithoutBrca1(): string {
  const dir = tempDir();
  const lines = readFileSync(join(GENE_DEMO, 'gene_info'), 'utf8').split('\n');
  writeFileSync(join(dir, 'gene_info'), lines.filter((l) => l.split('\t')[1] !== '672').join('\n'));
  return dir;
}

/** The demo preprints of January only: the ones posted from February on are the upstream's. */
function januaryPreprints(): string {
  const dir = tempDir();
  copyFileSync(join(BX_DEMO, 'details-2024-01-01-2024-01-31.json'), join(dir, 'details-2024-01-01-2024-01-31.json'));
  return dir;
}

for (const target of STORES) {
  describe(`pull-through of 200 misses and partly loaded services (${target.name})`, () => {
    const opened: OpenedStore[] = [];
    let a: Running;
    const open = async () => {
      const s = await target.open();
      opened.push(s);
      return s;
    };

    beforeAll(async () => {
      a = await serve(await open(), { demo: true });
    }, 180_000);

    afterAll(async () => {
      await a.close().catch(() => undefined);
      await closeCifPool();
      for (const s of opened) await s.cleanup();
    });

    it('asks the upstream when the loaded data answers 200 without any of the records asked for', async () => {
      const store = await open();
      const b = await serve(store, { pullThrough: { enabled: true, upstream: a.url } });
      try {
        await loadGenes(store, b.generations, genesWithoutBrca1());
        await loadClinvar(store, b.generations);
        const archive = copyArchive();
        rmSync(join(archive, 'hh', '4hhb.cif.gz'));
        await runLoad(store.db, b.generations, ARCHIVE as never, archive, { source: 'test' });
        await runLoad(store.db, b.generations, BX_DATASET, januaryPreprints(), { source: 'test' });

        const misses: [string, { body: string; type: string }?][] = [
          ['/eutils/esummary.fcgi?db=gene&id=672&retmode=json'],
          ['/eutils/esummary.fcgi?db=gene&id=672'],
          ['/eutils/efetch.fcgi?db=gene&id=672'],
          ['/eutils/esummary.fcgi', { body: 'db=gene&id=672&retmode=json', type: 'application/x-www-form-urlencoded' }],
          ['/rcsb/data/graphql', graphql('{ entry(entry_id: "4HHB") { struct { title } } }')],
          ['/rcsb/data/graphql', graphql('{ entries(entry_ids: ["4HHB"]) { rcsb_id } }')],
          ['/biorxiv/details/biorxiv/10.5555/2024.02.01.000109'],
        ];
        for (const [path, post] of misses) {
          const want = await ask(a.url, path, post);
          expect(want.status, path).toBe(200);
          const got = await ask(b.url, path, post);
          expect({ status: got.status, body: got.body }, path).toEqual({ status: 200, body: want.body });
          expect(got.source, path).toMatch(/^upstream 127\.0\.0\.1:\d+ /);
        }
        // Sanity: the upstream's answers are records, not its own misses.
        expect((await ask(b.url, misses[0]?.[0] as string)).body).toContain('"name":"BRCA1"');
        expect((await ask(b.url, '/rcsb/data/graphql', graphql('{ entries(entry_ids: ["4HHB"]) { rcsb_id } }'))).body).toContain('4HHB');

        // What the loaded data has stays its own: a record, a partial answer, searches with no hits.
        const own = [
          '/eutils/esummary.fcgi?db=gene&id=7157&retmode=json',
          '/eutils/esummary.fcgi?db=gene&id=7157,672&retmode=json',
          '/eutils/esearch.fcgi?db=gene&term=BRCA1[sym]',
          '/eutils/esearch.fcgi?db=gene&term=nosuchgene',
          '/biorxiv/details/biorxiv/10.5555/2024.01.08.000101',
          '/biorxiv/details/biorxiv/2024-02-01/2024-02-28',
        ];
        for (const path of own) {
          const got = await ask(b.url, path);
          expect(got.status, path).toBe(200);
          expect(got.source, path).toBeNull();
        }
        const partial = await ask(b.url, '/rcsb/data/graphql', graphql('{ entries(entry_ids: ["4HHB", "0GL1"]) { rcsb_id } }'));
        expect(partial.source).toBeNull();
        expect(partial.body).toBe('{"data":{"entries":[{"rcsb_id":"0GL1"}]}}');
        // The search counts what is loaded here (BRCA1 of other species), not what the upstream has.
        const count = async (base: string) => Number(JSON.parse((await ask(base, '/eutils/esearch.fcgi?db=gene&term=BRCA1[sym]&retmode=json')).body).esearchresult.count);
        expect(await count(b.url)).toBe((await count(a.url)) - 1);
      } finally {
        await b.close();
      }
      // Offline, the kept answer of a 200 miss is served as a kept 404's is.
      const offline = await serve(store);
      try {
        const got = await ask(offline.url, '/eutils/esummary.fcgi?db=gene&id=672&retmode=json');
        expect(got.source).toMatch(/^upstream /);
        expect(got.body).toContain('"name":"BRCA1"');
      } finally {
        await offline.close();
      }
    }, 120_000);

    it('asks the upstream for a dataset that is not loaded beside one that is (gene without ClinVar)', async () => {
      const store = await open();
      const b = await serve(store, { pullThrough: { enabled: true, upstream: a.url } });
      try {
        await loadGenes(store, b.generations);
        const paths = ['/eutils/esearch.fcgi?db=clinvar&term=AP5Z1[gene]&retmode=json', '/eutils/einfo.fcgi?db=clinvar&retmode=json'];
        for (const path of paths) {
          const want = await ask(a.url, path);
          const got = await ask(b.url, path);
          expect({ status: got.status, body: got.body }, path).toEqual({ status: want.status, body: want.body });
          expect(got.source, path).toMatch(/^upstream 127\.0\.0\.1:\d+ /);
        }
        expect(Number(JSON.parse((await ask(b.url, paths[0] as string)).body).esearchresult.count)).toBeGreaterThan(0);
        // The loaded gene dataset still answers its own searches, found or not.
        for (const path of ['/eutils/esearch.fcgi?db=gene&term=nosuchgene', '/eutils/einfo.fcgi?db=gene', '/datasets/v2alpha/gene/id/672']) {
          const got = await ask(b.url, path);
          expect(got.status, path).toBe(200);
          expect(got.source, path).toBeNull();
        }
      } finally {
        await b.close();
      }
    }, 120_000);
  });
}
