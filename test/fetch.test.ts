import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChecksumError, FetchError, UsageError } from '../src/cli/fetch/errors.js';
import { silentFetchProgress } from '../src/cli/fetch/progress.js';
import { fetchOptions } from '../src/cli/fetch.js';
import { fetchAndLoad, type FetchRequest } from '../src/cli/fetch/run.js';
import { resolveUpstreams } from '../src/cli/fetch/upstreams.js';
import { runLoad } from '../src/core/ingest/load.js';
import { Generations } from '../src/core/store/generations.js';
import { migrate } from '../src/core/store/migrations.js';
import { eutils } from '../src/services/eutils/index.js';
import { fetchRequest, withUpstream } from './helpers/fetch.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import type { Upstream } from './helpers/upstream.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: npm test builds it first (npm run build)');

const DEMO = join(import.meta.dirname, '..', 'src', 'services');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const clinvarDataset = eutils.datasets.find((d) => d.name === 'clinvar');
if (!clinvarDataset) throw new Error('eutils has no clinvar dataset');

/** NCBI's ClinVar folders as the FTP site shows them, holding the demo files. */
function ncbiClinvar(up: Upstream): { summary: Buffer } {
  // Stored, not compressed: the file is long enough to cut in the middle.
  const summary = gzipSync(readFileSync(join(DEMO, 'ncbi/demo/clinvar/variant_summary.txt')), { level: 0 });
  up.put('/pub/clinvar/tab_delimited/variant_summary.txt.gz', summary);
  up.put('/pub/clinvar/tab_delimited/variant_summary.txt.gz.md5', `MD5(variant_summary.txt.gz)= ${md5(summary)}\n`);
  up.put('/pub/clinvar/tab_delimited/var_citations.txt', readFileSync(join(DEMO, 'ncbi/demo/clinvar/var_citations.txt')));
  // A release file names its release date, as NCBI's do.
  const xml = gzipSync(readFileSync(join(DEMO, 'ncbi/demo/clinvar/ClinVarVCVRelease_demo.xml'), 'utf8').replace('<ClinVarVariationRelease>', '<ClinVarVariationRelease ReleaseDate="2025-11-02">'));
  up.put('/pub/clinvar/xml/ClinVarVCVRelease_00-latest.xml.gz', xml);
  up.put('/pub/clinvar/xml/ClinVarVCVRelease_00-latest.xml.gz.md5', `${md5(xml)}  ClinVarVCVRelease_00-latest.xml.gz\n`);
  return { summary };
}

function request(s: OpenedStore, up: Upstream, extra: Partial<FetchRequest>): FetchRequest {
  return fetchRequest(s, [`ncbi=${up.url}`, `wwpdb=${up.url}`], { service: 'eutils', dataset: 'clinvar', ...extra });
}

function envFor(s: OpenedStore): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: s.options.dataDir, BIOMIRROR_PROGRESS_MS: '50', BIOMIRROR_FETCH_RETRIES: '1' };
  delete env.DATABASE_URL;
  if (s.options.databaseUrl) {
    const sep = s.options.databaseUrl.includes('?') ? '&' : '?';
    env.DATABASE_URL = `${s.options.databaseUrl}${sep}options=${encodeURIComponent(`-c search_path=${s.options.schema as string}`)}`;
  }
  return env;
}

/** The command in a child process; asynchronous, so the fixture upstream in this process can answer it. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const retries = process.env.BIOMIRROR_FETCH_RETRIES;
beforeAll(() => {
  process.env.BIOMIRROR_FETCH_RETRIES = '1';
});
afterAll(() => {
  if (retries === undefined) delete process.env.BIOMIRROR_FETCH_RETRIES;
  else process.env.BIOMIRROR_FETCH_RETRIES = retries;
});

for (const target of STORES) {
  describe(`biomirror fetch on ${target.name}`, () => {
    it('downloads ClinVar with a cut connection resumed, checks the MD5, and loads it as ingest would, the release from Last-Modified', () =>
      withUpstream(target, async (s, up) => {
        await migrate(s.db, eutils.id, eutils.migrations);
        const generations = new Generations(s.db);
        const { summary } = ncbiClinvar(up);
        up.files.get('/pub/clinvar/tab_delimited/variant_summary.txt.gz')!.cutAt = Math.floor(summary.length / 2);
        up.files.get('/pub/clinvar/tab_delimited/variant_summary.txt.gz')!.cuts = 1;
        const notes: string[] = [];
        const load = await fetchAndLoad(
          s.db,
          generations,
          request(s, up, { opts: { parts: ['variant_summary', 'var_citations'] }, note: (l) => notes.push(l), progress: { ...silentFetchProgress, note: (l) => notes.push(l) } }),
        );
        expect(load).toBeDefined();
        // The variant summary was resumed, not downloaded twice.
        const asked = up.seen('/pub/clinvar/tab_delimited/variant_summary.txt.gz');
        expect(asked).toHaveLength(2);
        expect(asked[1]?.headers.range).toMatch(/^bytes=[1-9]\d*-$/);
        expect(up.seen('/pub/clinvar/tab_delimited/variant_summary.txt.gz.md5')).toHaveLength(1);
        expect(notes.join('\n')).toMatch(/connection dropped/);

        // The same records as `biomirror ingest` of the same two files.
        const [served] = await generations.served('eutils');
        expect(served).toMatchObject({ dataset: 'clinvar', release: '2025-11-04', source: `${up.url}/pub/clinvar/tab_delimited/ (2 files)`, records: load?.records });
        const folder = tempDir();
        for (const f of ['variant_summary.txt', 'var_citations.txt']) copyFileSync(join(DEMO, 'ncbi/demo/clinvar', f), join(folder, f));
        const ingested = await runLoad(s.db, generations, clinvarDataset, folder, {});
        expect(load?.records).toBe(ingested.records);
        expect(load?.records).toBeGreaterThan(0);

        // With the VCV XML, the release is the one the data names.
        const full = await fetchAndLoad(s.db, generations, request(s, up, {}));
        expect(full?.release).toBe('2025-11-02');
        // Kept files were asked about, not downloaded again.
        expect(up.seen('/pub/clinvar/tab_delimited/variant_summary.txt.gz').at(-1)?.headers['if-none-match']).toBeDefined();
      }));

    it('refuses a checksum mismatch, a missing file and a truncated download with clear messages, and loads nothing', () =>
      withUpstream(target, async (s, up) => {
        await migrate(s.db, eutils.id, eutils.migrations);
        const generations = new Generations(s.db);
        ncbiClinvar(up);
        const first = await fetchAndLoad(s.db, generations, request(s, up, { opts: { parts: ['variant_summary'] } }));
        const before = await generations.list('eutils');

        // The file changed upstream but its checksum file did not (a mirror caught mid-update).
        const changed = gzipSync(readFileSync(join(DEMO, 'ncbi/demo/clinvar/variant_summary.txt')), { level: 9 });
        up.put('/pub/clinvar/tab_delimited/variant_summary.txt.gz', changed, { etag: '"changed"' });
        const bad = await fetchAndLoad(s.db, generations, request(s, up, { opts: { parts: ['variant_summary'] } })).catch((e: unknown) => e);
        expect(bad).toBeInstanceOf(ChecksumError);
        expect((bad as Error).message).toMatch(
          /variant_summary\.txt\.gz: checksum mismatch: the upstream's variant_summary\.txt\.gz\.md5 says [0-9a-f]{32}, the download is [0-9a-f]{32}; the file was removed and nothing was loaded/,
        );

        up.put('/pub/clinvar/tab_delimited/variant_summary.txt.gz.md5', `${md5(changed)}  variant_summary.txt.gz\n`);
        up.files.delete('/pub/clinvar/tab_delimited/var_citations.txt');
        const unlisted = await fetchAndLoad(s.db, generations, request(s, up, { opts: { parts: ['variant_summary', 'var_citations'] } })).catch((e: unknown) => e);
        expect(unlisted).toBeInstanceOf(FetchError);
        expect((unlisted as Error).message).toBe(`${up.url}/pub/clinvar/tab_delimited/ does not list var_citations.txt.gz: the upstream has moved or renamed it`);

        up.put('/pub/clinvar/xml/ClinVarVCVRelease_00-latest.xml.gz', Buffer.alloc(0), { status: 404 });
        const gone = await fetchAndLoad(s.db, generations, request(s, up, { opts: { parts: ['variant_summary', 'xml'] } })).catch((e: unknown) => e);
        expect((gone as Error).message).toMatch(/ClinVarVCVRelease_00-latest\.xml\.gz: the upstream answered 404/);

        const xml = gzipSync(readFileSync(join(DEMO, 'ncbi/demo/clinvar/ClinVarVCVRelease_demo.xml')), { level: 0 });
        up.put('/pub/clinvar/xml/ClinVarVCVRelease_00-latest.xml.gz', xml, { cutAt: 1000, cuts: 10 });
        const cut = await fetchAndLoad(s.db, generations, request(s, up, { opts: { parts: ['variant_summary', 'xml'] } })).catch((e: unknown) => e);
        expect(cut).toBeInstanceOf(FetchError);
        expect((cut as Error).message).toMatch(/xml\/ClinVarVCVRelease_00-latest\.xml\.gz: the connection dropped after .*; .* kept, run the same command again to resume/);

        // Nothing was loaded by any of these: the loads and the data served are as before.
        expect(await generations.list('eutils')).toEqual(before);
        expect((await generations.served('eutils'))[0]?.id).toBe(first?.gen);
      }));

    it(
      'runs from the command line: progress and the load on stderr, the release and source in status; usage errors exit 2, an unreachable upstream 1',
      () =>
        withUpstream(target, async (s, up) => {
          const env = envFor(s);
          up.put('/pub/pdb/data/monomers/components.cif.gz', readFileSync(join(DEMO, 'pdb/demo/components.cif.gz')), { lastModified: 'Wed, 12 Nov 2025 08:00:00 GMT' });
          const ok = await cli(['fetch', 'rcsb-data', 'components', '--upstream', `wwpdb=${up.url}`], env);
          expect(ok.err).toMatch(/components\.cif\.gz: downloaded, [\d.]+ kB in /);
          expect(ok.err).toMatch(/rcsb-data\/components: loaded [\d,]+ records as generation \d+ \(release 2025-11-12\)/);
          expect(ok.code, ok.err).toBe(0);
          const st = await cli(['status', '--json'], env);
          const ds = (JSON.parse(st.out) as { services: { id: string; datasets: { dataset: string; source?: string; release?: string }[] }[] }).services
            .find((x) => x.id === 'rcsb-data')
            ?.datasets.find((d) => d.dataset === 'components');
          expect(ds).toMatchObject({ source: `${up.url}/pub/pdb/data/monomers/components.cif.gz`, release: '2025-11-12' });

          const dry = await cli(['fetch', 'rcsb-data', 'components', '--dry-run'], { ...env, BIOMIRROR_UPSTREAM_WWPDB: up.url });
          expect(dry.code, dry.err).toBe(0);
          expect(dry.out).toContain(`${up.url}/pub/pdb/data/monomers/components.cif.gz  10 kB`);

          const usage = await cli(['fetch', 'eutils', 'clinvar', '--ids', '1'], env);
          expect(usage.err).toMatch(/--ids means nothing for eutils clinvar; it takes --parts/);
          expect(usage.code).toBe(2);
          const help = await cli(['fetch'], env);
          expect(help.code).toBe(0);
          expect(help.out).toMatch(/What can be fetched:\n {2}clinicaltrials studies\n/);

          const port = new URL(up.url).port;
          await up.close();
          const down = await cli(['fetch', 'rcsb-data', 'components', '--upstream', `wwpdb=http://127.0.0.1:${port}`], env);
          expect(down.code).toBe(1);
          expect(down.err).toMatch(new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}: connection refused .*\\n\\(nothing was loaded; the data served before is unchanged\\)`));
          // A name that does not resolve is said at once, not retried (with the default retries).
          const started = Date.now();
          const { BIOMIRROR_FETCH_RETRIES: _retries, ...defaults } = env;
          const nowhere = await cli(['fetch', 'rcsb-data', 'components', '--upstream', 'wwpdb=http://no-such-host.invalid'], defaults);
          // Retried, it would take the default retries' 32 s; at once is a CLI start (seconds on a busy machine).
          expect(Date.now() - started).toBeLessThan(20_000);
          expect(nowhere.code).toBe(1);
          expect(nowhere.err).toMatch(/cannot reach http:\/\/no-such-host\.invalid: host not found .*is this machine on a network/);
          expect(nowhere.err).not.toMatch(/retry/i);
          const after = await cli(['status', '--json'], env);
          expect(after.out).toContain('"release": "2025-11-12"');
          await up.start();
        }),
      120_000,
    );
  });
}

describe('what fetch is asked for', () => {
  it('names what is wrong with an unknown service, dataset, option or part before anything is downloaded', () =>
    withUpstream(STORES[0]!, async (s, up) => {
      const generations = new Generations(s.db);
      const refused = async (extra: Partial<FetchRequest>) => {
        const err = await fetchAndLoad(s.db, generations, request(s, up, extra)).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      };
      expect(await refused({ service: 'nosuch', dataset: undefined })).toMatch(/^unknown service "nosuch"; services: clinicaltrials, eutils/);
      expect(await refused({ dataset: undefined })).toBe('eutils has datasets gene, clinvar; name one: biomirror fetch eutils <dataset>');
      expect(await refused({ dataset: 'nosuch' })).toBe('eutils has no dataset "nosuch"; its datasets: gene, clinvar');
      expect(await refused({ service: 'rcsb-files', dataset: undefined })).toBe('rcsb-files loads nothing of its own; it serves what rcsb-data loads');
      expect(await refused({ service: 'exec', dataset: undefined })).toBe('exec loads nothing of its own');
      expect(await refused({ opts: { parts: ['nope'] } })).toBe('unknown part nope; parts of this dataset: variant_summary, var_citations, xml (default variant_summary, var_citations, xml)');
      expect(await refused({ opts: { limit: 3 } })).toBe('--limit means nothing for eutils clinvar; it takes --parts');
      expect(await refused({ service: 'gwas', dataset: 'sumstats' })).toMatch(/^gwas sumstats: name the studies with --ids GCST/);
      expect(await refused({ service: 'rcsb-data', dataset: 'archive', opts: { ids: ['4hhb', 'abcd'] } })).toBe('--ids abcd: not a PDB entry id (four characters, a digit first)');
      expect(await refused({ service: 'eutils', dataset: 'gene', opts: { organisms: ['human; rm -rf'] } })).toMatch(/^--organism human; rm -rf: expected human, mouse, rat or a path/);
      expect(await refused({ service: 'biorxiv', dataset: undefined, dryRun: true })).toMatch(/is harvested page by page/);
      expect(await refused({ service: 'biorxiv', dataset: undefined, opts: { from: '2024-02-30' } })).toBe('--from 2024-02-30: expected a date as YYYY-MM-DD');
      expect(await refused({ service: 'biorxiv', dataset: undefined, opts: { from: '2024-02-01', to: '2024-01-01' } })).toBe('--from 2024-02-01 is after --to 2024-01-01');
      expect(await refused({ service: 'protocols', dataset: undefined })).toMatch(/^the protocols\.io API needs an access token/);
      expect(() => fetchOptions({ limit: '0' })).toThrow('--limit must be a positive whole number');
      expect(() => fetchOptions({ ids: '@/no/such/file' })).toThrow(/--ids @\/no\/such\/file: cannot read the file/);
      const list = join(tempDir(), 'ids.txt');
      writeFileSync(list, '4HHB 1crn\n# a comment\n2XYZ,\n');
      expect(fetchOptions({ ids: `@${list}` }).ids).toEqual(['4HHB', '1crn', '2XYZ']);
      expect(() => resolveUpstreams(['ncbi=ftp://x'])).toThrow('--upstream ncbi: must be an http:// or https:// address, not ftp:');
      // Nothing was asked of the upstream.
      expect(up.requests).toEqual([]);

      // One fetch of a dataset at a time; a lock left by a process that is gone is taken over.
      const dir = join(s.options.dataDir, 'downloads', 'eutils', 'clinvar');
      writeFileSync(join(dir, '.fetch.lock'), String(process.ppid));
      await expect(fetchAndLoad(s.db, generations, request(s, up, {}))).rejects.toThrow(`another fetch of eutils clinvar is running (process ${process.ppid}); wait for it to finish`);
      writeFileSync(join(dir, '.fetch.lock'), '999999999');
      mkdirSync(join(dir, '.load-999999999'));
      await expect(fetchAndLoad(s.db, generations, request(s, up, {}))).rejects.toThrow(/pub\/clinvar\/tab_delimited\/: the upstream answered 404/);
      expect(readdirSync(dir)).toEqual([]);
    }));
});
