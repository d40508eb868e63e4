import { randomBytes, createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseMd5 } from '../src/cli/fetch/checksum.js';
import { download, partialPath } from '../src/cli/fetch/download.js';
import { ChecksumError, FetchError, UsageError } from '../src/cli/fetch/errors.js';
import { Http } from '../src/cli/fetch/http.js';
import { parseListing } from '../src/cli/fetch/listing.js';
import { silentFetchProgress, type FetchProgress } from '../src/cli/fetch/progress.js';
import { studyFolder } from '../src/cli/fetch/sources/gwas.js';
import { resolveUpstreams, rebase } from '../src/cli/fetch/upstreams.js';
import { tempDir } from './helpers/stores.js';
import { Upstream } from './helpers/upstream.js';

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('folder listings and checksum files', () => {
  it('reads the files and folders of an FTP site index page, leaving out parent, sort and outside links', () => {
    const html = `<pre><a href="?C=N;O=D">Name</a> <a href="/pub/">Parent Directory</a>
<a href="Compound_000000001_000500000.sdf.gz">Compound_000000001_000500000.sdf.gz</a> 2025-11-04 10:00  285M
<a href="Compound_000000001_000500000.sdf.gz.md5">Compound_000000001_000500000.sdf.gz.md5</a>
<a href="README">README</a> <a href="https://www.ncbi.nlm.nih.gov/">NCBI</a> <a href="harmonised/">harmonised/</a>
<a href="./x%20y.txt">x y.txt</a> <a href="../">up</a></pre>`;
    expect(parseListing(html)).toEqual([
      { name: 'Compound_000000001_000500000.sdf.gz', folder: false },
      { name: 'Compound_000000001_000500000.sdf.gz.md5', folder: false },
      { name: 'README', folder: false },
      { name: 'harmonised', folder: true },
      { name: 'x y.txt', folder: false },
    ]);
  });

  it('finds the digest in md5sum and OpenSSL layouts, and the named line of a list', () => {
    const d = 'd41d8cd98f00b204e9800998ecf8427e';
    expect(parseMd5(`${d}  variant_summary.txt.gz\n`, 'variant_summary.txt.gz')).toBe(d);
    expect(parseMd5(`MD5(variant_summary.txt.gz)= ${d.toUpperCase()}\n`, 'variant_summary.txt.gz')).toBe(d);
    expect(parseMd5(`${'0'.repeat(32)}  a.gz\n${d}  b.gz\n`, 'b.gz')).toBe(d);
    expect(parseMd5('no digest here', 'x')).toBeUndefined();
  });

  it('files a summary-statistics study under its range of a thousand, keeping the accession width', () => {
    expect(studyFolder('GCST90026612')).toBe('pub/databases/gwas/summary_statistics/GCST90026001-GCST90027000/GCST90026612/');
    expect(studyFolder('GCST005194')).toBe('pub/databases/gwas/summary_statistics/GCST005001-GCST006000/GCST005194/');
    expect(studyFolder('GCST90027000')).toBe('pub/databases/gwas/summary_statistics/GCST90026001-GCST90027000/GCST90027000/');
    expect(() => studyFolder('GCST12')).toThrow(UsageError);
  });

  it("points an upstream at a mirror by flag or environment, and moves the upstream's own links onto it", () => {
    const u = resolveUpstreams(['ncbi=https://mirror.example/ncbi/'], { BIOMIRROR_UPSTREAM_ALPHAFOLD: 'http://10.0.0.1:9000/afdb' });
    expect(u.ncbi).toBe('https://mirror.example/ncbi');
    expect(u.ebi).toBe('https://ftp.ebi.ac.uk');
    expect(rebase(u, 'alphafold', 'https://alphafold.ebi.ac.uk/files/AF-P69905-F1-model_v6.cif')).toBe('http://10.0.0.1:9000/afdb/files/AF-P69905-F1-model_v6.cif');
    expect(() => resolveUpstreams(['nosuch=https://x'])).toThrow(/key=url with key one of/);
    expect(() => resolveUpstreams(['ncbi=ftp://x'])).toThrow(/http/);
  });
});

describe('resumable downloads', () => {
  let up: Upstream;
  let dir: string;
  const notes: string[] = [];
  const progress: FetchProgress = { ...silentFetchProgress, note: (l) => notes.push(l) };
  const retries = process.env.BIOMIRROR_FETCH_RETRIES;

  beforeEach(async () => {
    up = new Upstream();
    await up.start();
    dir = tempDir();
    notes.length = 0;
    process.env.BIOMIRROR_FETCH_RETRIES = '1';
  });
  afterEach(async () => {
    await up.close();
    if (retries === undefined) delete process.env.BIOMIRROR_FETCH_RETRIES;
    else process.env.BIOMIRROR_FETCH_RETRIES = retries;
  });

  it('resumes a cut connection with a Range request guarded by If-Range, and ends with the whole file', async () => {
    const body = randomBytes(3 << 20);
    up.put('/data/big.bin', body, { cutAt: 1 << 20, cuts: 1 });
    const dest = join(dir, 'big.bin');
    const got = await download({ url: `${up.url}/data/big.bin` }, dest, { http: new Http(), progress });
    expect(readFileSync(dest).equals(body)).toBe(true);
    expect(got.how).toBe('resumed');
    const asked = up.seen('/data/big.bin');
    expect(asked).toHaveLength(2);
    const start = Number(/^bytes=(\d+)-$/.exec(asked[1]?.headers.range ?? '')?.[1]);
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThanOrEqual(1 << 20);
    expect(asked[1]?.headers['if-range']).toBe(up.files.get('/data/big.bin')?.etag);
    expect(notes.join('\n')).toMatch(/connection dropped after .* trying again/);
    // The upstream's time is kept on the file.
    expect(new Date(got.lastModified ?? '').getTime()).toBe(Date.parse('Tue, 04 Nov 2025 10:00:00 GMT'));
  });

  it("paces requests at an upstream's published spacing, and never faster than asked before", async () => {
    up.put('/api/x', 'x');
    const http = new Http();
    http.pace(150);
    // A later, shorter pace (another part of the same source) does not speed the requests up.
    http.pace(20);
    for (let i = 0; i < 4; i++) (await http.get(`${up.url}/api/x`)).done();
    const at = up.seen('/api/x').map((r) => r.at);
    expect(at).toHaveLength(4);
    // Starts are spaced at least 150 ms apart. Arrivals are timed at the stand-in, where one request
    // reached late by a busy machine makes the next gap look shorter by as much: each gap is far above
    // the 20 ms asked later, and the three together far more than two spacings.
    for (let i = 1; i < at.length; i++) expect((at[i] as number) - (at[i - 1] as number)).toBeGreaterThanOrEqual(120);
    expect((at[3] as number) - (at[0] as number)).toBeGreaterThanOrEqual(420);
  });

  it('keeps what arrived when the retries run out, and the next run resumes from it', async () => {
    const body = randomBytes(2 << 20);
    up.put('/data/f.bin', body, { cutAt: 700_000, cuts: 2 });
    const dest = join(dir, 'f.bin');
    const http = new Http();
    const err = await download({ url: `${up.url}/data/f.bin` }, dest, { http, progress, retries: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect((err as Error).message).toMatch(/dropped .* kept, run the same command again to resume/);
    expect(existsSync(dest)).toBe(false);
    const kept = readFileSync(partialPath(dest)).length;
    expect(kept).toBeGreaterThan(0);
    // Second run: cut once more, then finished; every request after the first resumes.
    const got = await download({ url: `${up.url}/data/f.bin` }, dest, { http, progress, retries: 1 });
    expect(readFileSync(dest).equals(body)).toBe(true);
    expect(got.how).toBe('resumed');
    expect(up.seen('/data/f.bin')[1]?.headers.range).toBe(`bytes=${kept}-`);
    expect(existsSync(partialPath(dest))).toBe(false);
  });

  it('starts again when the upstream file changed between runs (If-Range fails) or the server cannot resume', async () => {
    const first = randomBytes(1 << 20);
    up.put('/f.bin', first, { cutAt: 400_000, cuts: 1, etag: '"v1"' });
    const dest = join(dir, 'f.bin');
    await expect(download({ url: `${up.url}/f.bin` }, dest, { http: new Http(), progress, retries: 0 })).rejects.toThrow(FetchError);
    const second = randomBytes(1 << 20);
    up.put('/f.bin', second, { etag: '"v2"', lastModified: 'Wed, 05 Nov 2025 10:00:00 GMT' });
    await download({ url: `${up.url}/f.bin` }, dest, { http: new Http(), progress });
    expect(readFileSync(dest).equals(second)).toBe(true);
    expect(notes.join('\n')).toMatch(/sent the whole file again/);

    const third = randomBytes(900_000);
    up.put('/g.bin', third, { cutAt: 300_000, cuts: 1, ranges: false });
    await download({ url: `${up.url}/g.bin` }, join(dir, 'g.bin'), { http: new Http(), progress });
    expect(readFileSync(join(dir, 'g.bin')).equals(third)).toBe(true);
  });

  it('asks whether a kept file changed and keeps it when the upstream says 304', async () => {
    up.put('/k.bin', randomBytes(1000));
    const dest = join(dir, 'k.bin');
    expect((await download({ url: `${up.url}/k.bin` }, dest, { http: new Http(), progress })).how).toBe('downloaded');
    expect((await download({ url: `${up.url}/k.bin` }, dest, { http: new Http(), progress })).how).toBe('unchanged');
    expect(up.seen('/k.bin')[1]?.headers['if-none-match']).toBe(up.files.get('/k.bin')?.etag);
    expect((await download({ url: `${up.url}/k.bin` }, dest, { http: new Http(), progress, trustCache: true })).how).toBe('kept');
    expect(up.seen('/k.bin')).toHaveLength(2);
  });

  it('checks the published MD5: a match is recorded, a mismatch removes the file with a clear message', async () => {
    const body = randomBytes(50_000);
    up.put('/d/x.gz', body);
    up.put('/d/x.gz.md5', `MD5(x.gz)= ${md5(body)}\n`);
    const dest = join(dir, 'x.gz');
    const ok = await download({ url: `${up.url}/d/x.gz`, md5Url: `${up.url}/d/x.gz.md5` }, dest, { http: new Http(), progress });
    expect(ok.md5).toBe(md5(body));

    up.put('/d/y.gz', body);
    up.put('/d/y.gz.md5', `${'0'.repeat(32)}  y.gz\n`);
    const bad = join(dir, 'y.gz');
    const err = await download({ url: `${up.url}/d/y.gz`, md5Url: `${up.url}/d/y.gz.md5` }, bad, { http: new Http(), progress }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChecksumError);
    expect((err as Error).message).toMatch(/y\.gz: checksum mismatch: the upstream's y\.gz\.md5 says 0{32}, the download is [0-9a-f]{32}; the file was removed and nothing was loaded/);
    expect(readdirSync(dir).filter((n) => n.includes('y.gz'))).toEqual([]);
  });

  it('names the address and the status of a 404, and says when the upstream cannot be reached', async () => {
    const missing = await download({ url: `${up.url}/nope.gz` }, join(dir, 'nope.gz'), { http: new Http(), progress }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FetchError);
    expect((missing as Error).message).toBe(`${up.url}/nope.gz: the upstream answered 404 Not Found (no such file: the upstream may have moved it)`);
    const port = Number(new URL(up.url).port);
    await up.close();
    const down = await download({ url: `http://127.0.0.1:${port}/x.gz` }, join(dir, 'x.gz'), { http: new Http(), progress, retries: 0 }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(FetchError);
    expect((down as Error).message).toMatch(new RegExp(`^cannot reach http://127\\.0\\.0\\.1:${port}: connection refused`));
    await up.start();
  });
});
