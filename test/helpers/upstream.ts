/**
 * A stand-in for an upstream file server (node:http): files with Last-Modified and ETag, Range and
 * If-Range, conditional requests, HTML folder listings like the FTP sites', and connections cut on
 * demand. It records every request, so tests can see what a client asked for.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureFile {
  body: Buffer;
  lastModified?: string;
  etag?: string;
  /** Cut the connection after this many bytes of the answer... */
  cutAt?: number;
  /** ...on this many of the next requests. */
  cuts?: number;
  /** Honour Range requests (default true). */
  ranges?: boolean;
  /** Answer with this status (and no body) instead. */
  status?: number;
}

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** When it arrived (Date.now()). */
  at: number;
}

export class Upstream {
  readonly files = new Map<string, FixtureFile>();
  readonly requests: Seen[] = [];
  /** Handles a request itself when it returns true (an API behind the fixture). */
  handler?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> | boolean;
  private server: Server | undefined;
  url = '';

  put(path: string, body: Buffer | string, extra: Omit<FixtureFile, 'body'> = {}): void {
    this.files.set(path, { lastModified: 'Tue, 04 Nov 2025 10:00:00 GMT', etag: `"${this.files.size}-${body.length}"`, ...extra, body: Buffer.from(body) });
  }

  seen(path: string): Seen[] {
    return this.requests.filter((r) => r.path === path);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.answer(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private listing(dir: string): string | undefined {
    const names = new Set<string>();
    for (const p of this.files.keys()) {
      if (!p.startsWith(dir) || p === dir) continue;
      const rest = p.slice(dir.length);
      const slash = rest.indexOf('/');
      names.add(slash < 0 ? rest : rest.slice(0, slash + 1));
    }
    if (names.size === 0) return undefined;
    const rows = [...names].sort().map((n) => `<a href="${encodeURIComponent(n.replace(/\/$/, ''))}${n.endsWith('/') ? '/' : ''}">${n}</a>  04-Nov-2025 10:00  -`);
    return `<html><head><title>Index of ${dir}</title></head><body><h1>Index of ${dir}</h1><pre><a href="?C=N;O=D">Name</a>\n<a href="/">Parent Directory</a>\n${rows.join('\n')}\n</pre></body></html>`;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] as string);
    this.requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, at: Date.now() });
    if (this.handler && (await this.handler(req, res))) return;
    if (path.endsWith('/')) {
      const html = this.listing(path);
      res.statusCode = html ? 200 : 404;
      res.setHeader('content-type', 'text/html');
      res.end(html ?? 'not found');
      return;
    }
    const f = this.files.get(path);
    if (!f) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    if (f.status) {
      res.statusCode = f.status;
      res.end();
      return;
    }
    if (f.lastModified) res.setHeader('last-modified', f.lastModified);
    if (f.etag) res.setHeader('etag', f.etag);
    res.setHeader('content-type', 'application/octet-stream');
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if ((inm && inm === f.etag) || (!inm && ims && f.lastModified && Date.parse(ims) >= Date.parse(f.lastModified))) {
      res.statusCode = 304;
      res.end();
      return;
    }
    let body = f.body;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && f.ranges !== false && (!ifRange || ifRange === f.etag || ifRange === f.lastModified)) {
      const start = Number(range[1]);
      if (start >= f.body.length) {
        res.statusCode = 416;
        res.setHeader('content-range', `bytes */${f.body.length}`);
        res.end();
        return;
      }
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${f.body.length - 1}/${f.body.length}`);
      body = f.body.subarray(start);
    } else res.statusCode = 200;
    res.setHeader('content-length', body.length);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (f.cuts && f.cutAt !== undefined && f.cutAt < body.length) {
      f.cuts--;
      res.write(body.subarray(0, f.cutAt));
      // Let the bytes reach the client before the connection goes.
      await new Promise((r) => setTimeout(r, 80));
      res.socket?.destroy();
      return;
    }
    res.end(body);
  }
}
