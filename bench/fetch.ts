/**
 * The download path of `biomirror fetch` beside a bare download of the same bytes, in the same run:
 * - a file served over loopback: plain `fetch` piped to a file (the baseline), then `download()`
 *   (partial file, validators noted, progress counted, rename, mtime), then `download()` checking
 *   a published MD5 (the file read once more);
 * - cutting a table to id ranges (what `--limit` does to PubChem's Extras) beside reading the same
 *   gzipped lines and doing nothing with them.
 * Rounds are interleaved and the best of each kept, since the machine may be shared.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/fetch.js [--mb 256] [--lines 2000000] [--rounds 3]
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';

// The built modules (build the CLI first): benchmarks run what users run.
const built = (path: string) => import(join(ROOT, 'dist', path)) as Promise<Record<string, unknown>>;
type Download = (remote: { url: string; md5Url?: string }, dest: string, opts: { http: unknown; progress: unknown }) => Promise<unknown>;
type Derive = (path: string, ranges: [number, number][]) => { make(src: string, dest: string, signal: AbortSignal): Promise<void> };
type Lines = (stream: unknown) => AsyncIterable<unknown>;

const { values } = parseArgs({ options: { mb: { type: 'string' }, lines: { type: 'string' }, rounds: { type: 'string' } } });
const MB = Number(values.mb ?? 256);
const LINES = Number(values.lines ?? 2_000_000);
const ROUNDS = Number(values.rounds ?? 3);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

async function main(): Promise<void> {
  const { download } = (await built('cli/fetch/download.js')) as { download: Download };
  const { Http } = (await built('cli/fetch/http.js')) as { Http: new () => unknown };
  const { silentFetchProgress } = (await built('cli/fetch/progress.js')) as { silentFetchProgress: unknown };
  const { rowsInRanges } = (await built('cli/fetch/derive.js')) as { rowsInRanges: Derive };
  const { lines, openInput } = (await built('core/ingest/inputs.js')) as { lines: Lines; openInput: (path: string) => unknown };
  const work = mkdtempSync(join(tmpdir(), 'biomirror-bench-fetch-'));
  const body = randomBytes(MB << 20);
  const md5 = createHash('md5').update(body).digest('hex');
  const server = createServer((req, res) => {
    if (req.url === '/f.bin.md5') return void res.end(`${md5}  f.bin\n`);
    res.setHeader('content-length', body.length);
    res.setHeader('last-modified', 'Tue, 04 Nov 2025 10:00:00 GMT');
    res.setHeader('etag', '"bench"');
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/f.bin`;

  // A CID-Extras-like table: id, tab, a name.
  const table = join(work, 'table.gz');
  const rows: string[] = [];
  for (let i = 1; i <= LINES; i++) rows.push(`${i}\tsynonym number ${i} of a generated compound`);
  writeFileSync(table, gzipSync(rows.join('\n') + '\n', { level: 6 }));
  rows.length = 0;

  const best = { bare: Infinity, download: Infinity, downloadMd5: Infinity, readLines: Infinity, cut: Infinity };
  for (let r = 0; r < ROUNDS; r++) {
    const fresh = (name: string) => {
      const d = join(work, `${name}-${r}`);
      rmSync(d, { recursive: true, force: true });
      return join(d, 'f.bin');
    };
    const bare = () =>
      timed(async () => {
        const res = await fetch(url);
        await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(join(work, 'bare.bin')));
      });
    // The baseline runs first and last in each round, so that neither place favours it or the others.
    best.bare = Math.min(best.bare, await bare());
    best.download = Math.min(best.download, await timed(() => download({ url }, fresh('plain'), { http: new Http(), progress: silentFetchProgress })));
    best.downloadMd5 = Math.min(best.downloadMd5, await timed(() => download({ url, md5Url: `${url}.md5` }, fresh('md5'), { http: new Http(), progress: silentFetchProgress })));
    best.readLines = Math.min(
      best.readLines,
      await timed(async () => {
        let n = 0;
        for await (const _ of lines(openInput(table))) n++;
        if (n !== LINES) throw new Error(`read ${n} lines`);
      }),
    );
    best.cut = Math.min(best.cut, await timed(() => rowsInRanges('cut', [[1, LINES / 4]]).make(table, join(work, `cut-${r}`), new AbortController().signal)));
    best.bare = Math.min(best.bare, await bare());
    log(`round ${r + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(best).map(([k, v]) => [k, round(v)])))}`);
  }
  server.close();
  rmSync(work, { recursive: true, force: true });
  const mbps = (s: number) => round(MB / s);
  writeResults('fetch', {
    machine: machine(),
    loadAverage: loadavg().map(round),
    fileMb: MB,
    tableLines: LINES,
    rounds: ROUNDS,
    download: {
      bareFetchMBps: mbps(best.bare),
      downloadMBps: mbps(best.download),
      downloadWithMd5MBps: mbps(best.downloadMd5),
      ratioToBare: round(best.bare / best.download),
      ratioWithMd5ToBare: round(best.bare / best.downloadMd5),
    },
    cutToRanges: {
      readLinesPerSecond: Math.round(LINES / best.readLines),
      cutLinesPerSecond: Math.round(LINES / best.cut),
      ratioToReading: round(best.readLines / best.cut),
    },
  });
}

runMain(main);
