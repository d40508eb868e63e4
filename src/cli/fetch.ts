/**
 * `biomirror fetch <service> [dataset]`: downloads a dataset's official bulk files (or harvests its
 * API where there are none) into the data folder's download cache and loads them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endOwned } from '../core/children.js';
import { FormatError, LoadAborted } from '../core/ingest/errors.js';
import { progressFor } from '../core/ingest/progress.js';
import { findService } from '../services/registry.js';
import { createLogger, openRuntime } from '../server/serve.js';
import { FetchError, UsageError } from './fetch/errors.js';
import type { FetchOptions } from './fetch/plan.js';
import { fetchProgressFor } from './fetch/progress.js';
import { chooseSource, fetchAndLoad } from './fetch/run.js';
import { SOURCES } from './fetch/sources/index.js';
import { resolveUpstreams } from './fetch/upstreams.js';
import { dropKeptAnswers } from './kept.js';
import { configFrom, type CommonFlags } from './flags.js';

export interface FetchFlags extends CommonFlags {
  limit?: string | undefined;
  ids?: string | undefined;
  organism?: string | undefined;
  parts?: string | undefined;
  upstream?: string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  token?: string | undefined;
  'dry-run'?: boolean | undefined;
  parallel?: string | undefined;
  'use-cache'?: boolean | undefined;
}

const SHOW_SKIPS = 50;

const list = (v: string | undefined) =>
  v
    ?.split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

function count(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive whole number`);
  return n;
}

/** `--ids a,b,c`, or `--ids @file` naming a file of ids (one or more a line). */
function ids(v: string | undefined): string[] | undefined {
  if (v === undefined || !v.startsWith('@')) return list(v);
  try {
    return list(readFileSync(v.slice(1), 'utf8').replace(/#.*$/gm, ''));
  } catch (err) {
    throw new UsageError(`--ids ${v}: cannot read the file (${(err as Error).message})`);
  }
}

export function fetchOptions(flags: FetchFlags): FetchOptions {
  return {
    limit: count(flags.limit, 'limit'),
    ids: ids(flags.ids),
    organisms: list(flags.organism),
    parts: list(flags.parts),
    from: flags.from,
    to: flags.to,
    token: flags.token,
  };
}

function sourcesHelp(): string {
  return SOURCES.map((s) => `  ${s.service} ${s.dataset}\n      ${s.summary}`).join('\n');
}

export async function fetchCommand(args: string[], flags: FetchFlags): Promise<number> {
  const [serviceId, datasetName, ...extra] = args;
  if (!serviceId) {
    process.stdout.write(`biomirror fetch <service> [dataset] [options] (docs/data.md)\n\nWhat can be fetched:\n${sourcesHelp()}\n`);
    return 0;
  }
  if (extra.length) {
    process.stderr.write(`usage: biomirror fetch <service> [dataset] [options]; "${extra.join(' ')}" is one argument too many\n`);
    return 2;
  }
  let req;
  try {
    chooseSource(serviceId, datasetName);
    req = { opts: fetchOptions(flags), upstreams: resolveUpstreams(flags.upstream ?? []), parallel: count(flags.parallel, 'parallel') };
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`biomirror fetch: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  const config = configFrom(flags);
  const service = findService(serviceId);
  const rt = await openRuntime(config, service ? [service] : [], createLogger('warn'));
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping: what was downloaded is kept to resume from; nothing new is loaded\n');
    controller.abort(new Error('stopped'));
    // A load in its last steps waits on MMseqs2 and an index thread: they end now.
    endOwned();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let shown = 0;
  try {
    const loaded = await fetchAndLoad(rt.db, rt.generations, {
      service: serviceId,
      dataset: datasetName,
      ...req,
      cacheDir: join(config.dataDir, 'downloads'),
      trustCache: flags['use-cache'] ?? false,
      dryRun: flags['dry-run'] ?? false,
      signal: controller.signal,
      progress: fetchProgressFor(process.stderr),
      loadProgress: progressFor(process.stderr),
      note: (line) => process.stderr.write(`${line}\n`),
      out: (line) => process.stdout.write(`${line}\n`),
      onSkip: (place, reason) => {
        if (shown++ < SHOW_SKIPS) process.stderr.write(`\nskipped ${place.file} at ${place.position}: ${reason}\n`);
        else if (shown === SHOW_SKIPS + 1) process.stderr.write('\n(further skipped records are counted, not listed)\n');
      },
    });
    // A load replaces what the service serves: the answers kept from its upstream go too.
    if (loaded) await dropKeptAnswers(rt.db, chooseSource(serviceId, datasetName).service);
    return 0;
  } catch (err) {
    if (controller.signal.aborted || err instanceof LoadAborted) {
      process.stderr.write('\nbiomirror fetch: stopped; run the same command again to resume; the data served before is unchanged\n');
      return 130;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`biomirror fetch: ${err.message}\n`);
      return 2;
    }
    const what = err instanceof FetchError ? 'nothing was loaded' : 'the load failed';
    process.stderr.write(`\nbiomirror fetch: ${(err as Error).message}\n(${what}; the data served before is unchanged)\n`);
    return err instanceof FormatError ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await rt.close();
  }
}
