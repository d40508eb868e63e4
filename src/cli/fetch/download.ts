/**
 * One file from an upstream into the download cache, resumably. The bytes go to a hidden partial
 * file beside the destination, with the upstream's validators (ETag, Last-Modified) noted next to
 * it; a cut connection is resumed with an HTTP Range request (guarded by If-Range, so a file that
 * changed upstream starts again), within this run or the next. A complete file is checked against
 * the MD5 the upstream publishes, then moved into place with the upstream's modification time. A
 * later run asks the upstream whether a kept file changed (If-None-Match / If-Modified-Since) and
 * downloads it again only if it did.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { md5File, parseMd5 } from './checksum.js';
import { ChecksumError, FetchError, RetryableError } from './errors.js';
import { retries, statusError, withRetries, type Http } from './http.js';
import { bytesText, type FetchProgress } from './progress.js';

export interface Remote {
  url: string;
  /** Where the upstream publishes the file's MD5 digest, when it does. */
  md5Url?: string | undefined;
}

export interface Local {
  url: string;
  path: string;
  size: number;
  /** The upstream's Last-Modified (an HTTP date), when it sent one. */
  lastModified?: string | undefined;
  etag?: string | undefined;
  /** The MD5 checked against the upstream's, when it publishes one. */
  md5?: string | undefined;
  how: 'downloaded' | 'resumed' | 'unchanged' | 'kept';
}

interface Meta {
  url: string;
  etag?: string | undefined;
  lastModified?: string | undefined;
  total?: number | undefined;
  complete: boolean;
  md5?: string | undefined;
  fetchedAt?: string | undefined;
}

export interface DownloadOptions {
  http: Http;
  progress: FetchProgress;
  /** Attempts after the first for what is worth retrying (a dropped connection, 5xx, 429). */
  retries?: number;
  /** Use a complete file already downloaded without asking the upstream whether it changed. */
  trustCache?: boolean;
  label?: string;
}

const hidden = (dest: string, suffix: string) => join(dirname(dest), `.${basename(dest)}${suffix}`);
export const metaPath = (dest: string) => hidden(dest, '.fetch.json');
export const partialPath = (dest: string) => hidden(dest, '.partial');

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

async function readMeta(dest: string): Promise<Meta | undefined> {
  try {
    return JSON.parse(await readFile(metaPath(dest), 'utf8')) as Meta;
  } catch {
    return undefined;
  }
}

const writeMeta = (dest: string, meta: Meta) => writeFile(metaPath(dest), JSON.stringify(meta, null, 1));

function header(res: Response, name: string): string | undefined {
  return res.headers.get(name) ?? undefined;
}

function contentLength(res: Response): number | undefined {
  const v = res.headers.get('content-length');
  const n = Number(v);
  return v !== null && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

// `bytes 100-199/1000`: start 100, total 1000; a 416 says `bytes */1000`: total 1000.
function contentRange(res: Response): { start?: number; total?: number } {
  const m = /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/i.exec(res.headers.get('content-range') ?? '');
  if (!m) return {};
  return { ...(m[1] !== undefined ? { start: Number(m[1]) } : {}), ...(m[2] !== '*' ? { total: Number(m[2]) } : {}) };
}

/** If-Range takes a strong ETag or a date; a weak ETag would never match. */
function rangeValidator(meta: Meta): string | undefined {
  if (meta.etag && !meta.etag.startsWith('W/')) return meta.etag;
  return meta.lastModified;
}

type Mode = 'fresh' | 'resume' | 'revalidate';

/** One file's download across its attempts: what is known of it so far lives in `meta`. */
class FileDownload {
  readonly partial: string;

  constructor(
    private readonly remote: Remote,
    private readonly dest: string,
    private readonly opts: DownloadOptions,
    private readonly label: string,
    public meta: Meta | undefined,
  ) {
    this.partial = partialPath(dest);
  }

  local(m: Meta, how: Local['how']): Local {
    return { url: this.remote.url, path: this.dest, size: m.total ?? 0, lastModified: m.lastModified, etag: m.etag, md5: m.md5, how };
  }

  /** Checks a complete partial file against the upstream's MD5, then moves it into place. */
  async finish(m: Meta, how: Local['how']): Promise<Local> {
    const { http, progress } = this.opts;
    const { remote, dest, partial, label } = this;
    let md5: string | undefined;
    if (remote.md5Url) {
      const published = parseMd5(await http.text(remote.md5Url), basename(new URL(remote.url).pathname));
      if (!published) throw new FetchError(`${remote.md5Url}: no MD5 digest in the upstream's checksum file`);
      md5 = await md5File(partial, http.signal);
      if (md5 !== published) {
        await rm(partial, { force: true });
        await rm(metaPath(dest), { force: true });
        throw new ChecksumError(
          `${label}: checksum mismatch: the upstream's ${basename(remote.md5Url)} says ${published}, the download is ${md5}; the file was removed and nothing was loaded (run again to download it anew)`,
        );
      }
    }
    await rename(partial, dest);
    if (m.lastModified) {
      const t = new Date(m.lastModified);
      if (!Number.isNaN(t.getTime())) await utimes(dest, t, t);
    }
    const size = (await sizeOf(dest)) ?? 0;
    const done: Meta = { ...m, total: size, complete: true, md5, fetchedAt: new Date().toISOString() };
    await writeMeta(dest, done);
    this.meta = done;
    progress.end(how + (md5 ? ', MD5 checked' : ''));
    return { ...this.local(done, how), size };
  }

  /** What to ask: the whole file, the rest of a partial one, or whether a kept one changed. */
  private async request(): Promise<{ mode: Mode; have: number; headers: Record<string, string> }> {
    const headers: Record<string, string> = { 'accept-encoding': 'identity' };
    const meta = this.meta;
    if (meta?.complete) {
      if (!meta.etag && !meta.lastModified) {
        this.meta = undefined;
        return { mode: 'fresh', have: 0, headers };
      }
      if (meta.etag) headers['if-none-match'] = meta.etag;
      if (meta.lastModified) headers['if-modified-since'] = meta.lastModified;
      return { mode: 'revalidate', have: 0, headers };
    }
    const have = meta ? ((await sizeOf(this.partial)) ?? 0) : 0;
    if (!meta || have === 0) return { mode: 'fresh', have: 0, headers };
    headers.range = `bytes=${have}-`;
    const v = rangeValidator(meta);
    if (v) headers['if-range'] = v;
    return { mode: 'resume', have, headers };
  }

  async attempt(): Promise<Local> {
    const { http, progress } = this.opts;
    const { label, partial } = this;
    const { mode, have, headers } = await this.request();
    const { res, alive, done } = await http.get(this.remote.url, headers);
    try {
      const meta = this.meta;
      if (mode === 'revalidate' && res.status === 304 && meta) {
        await res.body?.cancel().catch(() => undefined);
        progress.start(label, meta.total, meta.total ?? 0);
        progress.end('unchanged upstream, kept');
        return { ...this.local(meta, 'unchanged'), size: (await sizeOf(this.dest)) ?? 0 };
      }
      if (mode === 'resume' && res.status === 416 && meta) {
        await res.body?.cancel().catch(() => undefined);
        const { total } = contentRange(res);
        if (total === have) {
          progress.start(label, total, have);
          return await this.finish({ ...meta, total }, 'resumed');
        }
        await rm(partial, { force: true });
        this.meta = { ...meta, complete: false, total: undefined };
        throw new RetryableError(`${label}: the partial download does not match the upstream's file; starting again`);
      }
      if (mode === 'resume' && res.status === 206 && meta) {
        const { start, total } = contentRange(res);
        if (start !== have) {
          await res.body?.cancel().catch(() => undefined);
          await rm(partial, { force: true });
          throw new RetryableError(`${label}: the upstream resumed at byte ${start ?? '?'} instead of ${have}; starting again`);
        }
        this.meta = { ...meta, total: total ?? meta.total };
        return await this.receive(res, alive, this.meta, have, 'resumed');
      }
      if (res.status === 200) {
        if (mode === 'resume') progress.note(`${label}: the upstream sent the whole file again (it does not resume, or the file changed)`);
        this.meta = { url: this.remote.url, etag: header(res, 'etag'), lastModified: header(res, 'last-modified'), total: contentLength(res), complete: false };
        await writeMeta(this.dest, this.meta);
        return await this.receive(res, alive, this.meta, 0, 'downloaded');
      }
      await res.body?.cancel().catch(() => undefined);
      throw statusError(this.remote.url, res);
    } finally {
      done();
    }
  }

  /** Writes the answer's body to the partial file from byte `from` and checks its length. */
  private async receive(res: Response, alive: () => void, current: Meta, from: number, how: Local['how']): Promise<Local> {
    const { http, progress } = this.opts;
    const { label, partial } = this;
    progress.start(label, current.total, from);
    let got = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        got += chunk.length;
        alive();
        progress.bytes(chunk.length);
        cb(null, chunk);
      },
    });
    try {
      if (res.body) await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), counter, createWriteStream(partial, { flags: from > 0 ? 'a' : 'w' }));
      else await writeFile(partial, '', { flag: from > 0 ? 'a' : 'w' });
    } catch (err) {
      if (http.signal.aborted) throw err;
      throw new RetryableError(`${label}: the connection dropped after ${bytesText(from + got)}${current.total ? ` of ${bytesText(current.total)}` : ''} (${(err as Error).message})`);
    }
    const size = (await sizeOf(partial)) ?? 0;
    if (current.total !== undefined && size < current.total) {
      throw new RetryableError(`${label}: the download was cut short at ${bytesText(size)} of ${bytesText(current.total)}`);
    }
    if (current.total !== undefined && size > current.total) {
      await rm(partial, { force: true });
      throw new FetchError(`${label}: the download is longer than the upstream announced (${size} > ${current.total} bytes); removed`);
    }
    return await this.finish(current, how);
  }
}

export async function download(remote: Remote, dest: string, opts: DownloadOptions): Promise<Local> {
  const { http, progress } = opts;
  const label = opts.label ?? basename(dest);
  await mkdir(dirname(dest), { recursive: true });
  const partial = partialPath(dest);
  let meta = await readMeta(dest);
  if (meta && meta.url !== remote.url) meta = undefined;
  if (meta?.complete && (await sizeOf(dest)) === undefined) meta = undefined;
  if (!meta) await rm(partial, { force: true });
  const file = new FileDownload(remote, dest, opts, label, meta);

  if (meta?.complete && opts.trustCache) {
    progress.note(`${label}: kept from an earlier download (not checked with the upstream)`);
    return { ...file.local(meta, 'kept'), size: (await sizeOf(dest)) ?? 0 };
  }
  try {
    return await withRetries(() => file.attempt(), {
      retries: opts.retries ?? retries(),
      signal: http.signal,
      onRetry: (err, waitMs) => progress.note(`${err.message}; trying again in ${Math.round(waitMs / 1000)} s`),
    });
  } catch (err) {
    if (err instanceof RetryableError && !http.signal.aborted) {
      const kept = (await sizeOf(partial)) ?? 0;
      throw new FetchError(`${err.message}${kept ? `; ${bytesText(kept)} kept, run the same command again to resume` : ''}`);
    }
    throw err;
  }
}
