/** What the fetch tests share: a request to fetch with quiet progress, a store with a stand-in upstream. */
import { join } from 'node:path';
import { silentFetchProgress } from '../../src/cli/fetch/progress.js';
import type { FetchRequest } from '../../src/cli/fetch/run.js';
import { resolveUpstreams } from '../../src/cli/fetch/upstreams.js';
import { silentProgress } from '../../src/core/ingest/progress.js';
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
