/** What the fetch tests share: a request to fetch with quiet progress, a store with a stand-in upstream. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { silentFetchProgress } from '../../src/cli/fetch/progress.js';
import type { FetchRequest } from '../../src/cli/fetch/run.js';
import { resolveUpstreams } from '../../src/cli/fetch/upstreams.js';
import { silentProgress } from '../../src/core/ingest/progress.js';
import type { TestApp } from './app.js';
import type { OpenedStore, StoreTarget } from './stores.js';
import { Upstream } from './upstream.js';

/** A fetch into the store's data folder from the given upstreams (`key=url`), the environment left out. */
export function fetchRequest(s: OpenedStore, upstreams: string[], extra: Partial<FetchRequest> & { service: string }): FetchRequest {
  return {
    opts: {},
    upstreams: resolveUpstreams(upstreams, {}),
    cacheDir: join(s.options.dataDir, 'downloads'),
    signal: new AbortController().signal,
    progress: silentFetchProgress,
    loadProgress: silentProgress,
    note: () => undefined,
    out: () => undefined,
    ...extra,
  };
}

/** Runs `fn` with a fresh store and a started stand-in upstream, and removes both afterwards. */
export async function withUpstream(target: StoreTarget, fn: (s: OpenedStore, up: Upstream) => Promise<void>): Promise<void> {
  const s = await target.open();
  const up = new Upstream();
  await up.start();
  try {
    await fn(s, up);
  } finally {
    await up.close();
    await s.cleanup();
  }
}

/** Which requests the upstream of a pair fails with a 500, and which it leaves to its own files. */
export interface ProxyRules {
  fail?: (n: number, url: string) => boolean;
  /** Paths the stand-in serves itself (`Upstream.put`) instead of the app. */
  own?: (url: string) => boolean;
  /** Hand the app the host the upstream was asked on (services whose links carry it). */
  forwardHost?: boolean;
}

/** An upstream that hands each request to a biomirror app, failing those `rules.fail` picks with a 500. */
export async function proxyTo(app: FastifyInstance, rules: ProxyRules = {}): Promise<Upstream> {
  const up = new Upstream();
  let n = 0;
  up.handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (rules.own?.(url)) return false;
    n++;
    if (rules.fail?.(n, url)) {
      res.statusCode = 500;
      res.end('{"error":"Internal Server Error","message":"injected"}');
      return true;
    }
    const headers: Record<string, string> = {};
    if (req.headers.authorization) headers.authorization = req.headers.authorization;
    if (rules.forwardHost) headers.host = req.headers.host ?? '';
    const r = await app.inject({ method: 'GET', url, headers });
    res.statusCode = r.statusCode;
    res.setHeader('content-type', String(r.headers['content-type'] ?? 'application/json'));
    res.end(r.rawPayload);
    return true;
  };
  await up.start();
  return up;
}

export interface Pair {
  a: OpenedStore;
  b: OpenedStore;
  appA: TestApp;
  appB: TestApp;
  up: Upstream;
}

/**
 * Two databases with the service on each: A, the upstream (behind a proxy that may fail requests),
 * and B, the mirror a harvest fills. Everything is closed afterwards.
 */
export async function upstreamAndMirror(target: StoreTarget, app: (s: OpenedStore) => Promise<TestApp>, fn: (p: Pair) => Promise<void>, rules?: ProxyRules): Promise<void> {
  const a = await target.open();
  const b = await target.open();
  const appA = await app(a);
  const appB = await app(b);
  const up = await proxyTo(appA.app, rules);
  try {
    await fn({ a, b, appA, appB, up });
  } finally {
    await up.close();
    await appA.close();
    await appB.close();
    await a.cleanup();
    await b.cleanup();
  }
}
