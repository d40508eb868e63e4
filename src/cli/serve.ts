import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { endOwned } from '../core/children.js';
import { SERVICES } from '../services/registry.js';
import { standsFor } from '../services/types.js';
import { ConfigError, type Config } from '../server/config.js';
import { plannedPorts, tryPorts } from '../server/ports.js';
import { SHUTDOWN_GRACE_MS, createLogger, enabledServices, startServer, type RunningServer } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';
import { holdDataDir, recordRunning } from './running.js';
import { exitSoon, stopSignals } from './stop.js';
import { runPrimary } from './workers.js';

export async function serveCommand(flags: CommonFlags & { workers?: string | undefined; upstream?: string[] | undefined }): Promise<number> {
  // `--upstream URL` (the last one given) stands for every real host, and implies --pull-through.
  const upstream = flags.upstream?.at(-1);
  const config = configFrom(upstream !== undefined && !flags.offline ? { ...flags, 'pull-through': true } : flags, upstream);
  // A server that asks the upstreams starts empty: the demo sample would answer searches instead.
  if (config.pullThrough.enabled) config.demo = false;
  const workers = flags.workers === undefined ? 1 : Number(flags.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new ConfigError(`--workers must be a whole number from 1 to 64, not "${flags.workers}"`);
  const log = createLogger(config.logLevel);
  const stop = stopSignals(log);
  let release: () => void = () => undefined;
  let forget: () => void = () => undefined;
  try {
    // The folder and the ports are checked before anything is opened or loaded, so that a clash
    // fails the start at once. The workers of `--workers N` leave that to their first process.
    if (!cluster.isWorker) {
      if (!config.databaseUrl) {
        release = holdDataDir(config.dataDir);
        forget = recordRunning(config.dataDir, { url: null, pid: process.pid, services: {}, startedAt: new Date().toISOString() });
      }
      await tryPorts(config.host, plannedPorts(config, enabledServices(config, SERVICES)));
    }
    if (workers > 1 && cluster.isPrimary) return await runPrimary(config, SERVICES, workers, log, stop);
    return await serveHere(config, workers, log, stop);
  } finally {
    forget();
    release();
    exitSoon();
  }
}

/** One process serving: the only one, or a worker of `--workers N`. */
async function serveHere(config: Config, workers: number, log: Logger, stop: AbortSignal): Promise<number> {
  // A worker of `--workers N`: the primary loaded the demo data; only the first prints the banner.
  const role = process.env.BIOMIRROR_WORKER_ROLE;
  if (role) config.demo = false;
  // Stopped while starting: a load in progress ends with its programs, and is not switched to.
  const whileStarting = () => endOwned();
  stop.addEventListener('abort', whileStarting, { once: true });
  let server: RunningServer;
  try {
    server = await startServer(config, SERVICES, log, { signal: stop, listenFirst: true });
  } catch (err) {
    stop.removeEventListener('abort', whileStarting);
    if (!stop.aborted) throw err;
    log.info({ reason: (err as Error).message }, 'stopped before serving');
    return 0;
  }
  // Until the demo data is loaded, a stop also ends the programs the load runs (index builds).
  void server.ready.catch(() => undefined).finally(() => stop.removeEventListener('abort', whileStarting));

  const closed = new Promise<void>((resolve) => {
    const close = () => {
      log.info('stopped listening; finishing in-flight requests');
      // The programs of requests still running when their connections are cut end with them.
      const cut = setTimeout(endOwned, SHUTDOWN_GRACE_MS);
      server
        .close()
        .catch((err: unknown) => log.error({ err }, 'error while shutting down'))
        .finally(() => {
          clearTimeout(cut);
          endOwned();
          resolve();
        });
    };
    if (stop.aborted) close();
    else stop.addEventListener('abort', close, { once: true });
  });

  for (const a of server.apps) log.info({ url: a.url, service: a.service ?? 'all' }, 'listening');
  const main = server.apps[0];
  // One record per data directory: the first process (or the primary's first worker) writes it.
  const forget =
    main && role !== 'other'
      ? recordRunning(config.dataDir, {
          url: main.url,
          pid: process.pid,
          services: Object.fromEntries(server.apps.filter((a) => a.service).map((a) => [a.service as string, a.url])),
          startedAt: new Date().toISOString(),
        })
      : () => undefined;
  // Listening already; the demo data loads now, each service answering 503 until it has its own.
  const loading = enabledServices(config, SERVICES).filter((s) => server.runtime.readiness.loading(s.id));
  if (main && role !== 'other' && loading.length && !stop.aborted) {
    process.stderr.write(`biomirror is listening on ${main.url}; loading the demo data of ${loading.map((s) => s.id).join(', ')} (GET ${main.url}/ready says when each is ready)\n`);
  }
  let failed = false;
  try {
    await server.ready;
  } catch (err) {
    // Stopped while loading: the stop closes the server. A failed load ends the start as before.
    if (!stop.aborted) {
      log.error({ err }, 'loading the demo data failed');
      failed = true;
      await server.close().catch(() => undefined);
    }
  }
  if (failed) {
    forget();
    return 1;
  }
  if (main && role !== 'other' && !stop.aborted) await printBanner(server, config, workers, stop);

  await closed;
  forget();
  log.info('stopped');
  // A worker's channel to the primary would keep it alive once its server is closed.
  if (cluster.isWorker) cluster.worker?.disconnect();
  return 0;
}

/** Where each service answers, and each service's notes (demo accounts, tokens). */
async function printBanner(server: RunningServer, config: Config, workers: number, stop: AbortSignal): Promise<void> {
  const main = server.apps[0] as RunningServer['apps'][number];
  const log = server.runtime.log;
  const enabled = enabledServices(config, SERVICES);
  const own = new Map(server.apps.filter((a) => a.service).map((a) => [a.service as string, a.url]));
  // Each real service's address beside biomirror's on the shared port and, with --port-per-service, on the service's own port.
  const lines = enabled.flatMap((s) => Object.entries(s.baseUrls).map(([k, v]) => `  ${standsFor(s, k)} = ${main.url}${s.mount}${v}${own.has(s.id) ? `  (own port: ${own.get(s.id)}${v})` : ''}`));
  const procs = workers > 1 ? ` with ${workers} worker processes` : '';
  process.stderr.write(`biomirror is serving on ${main.url} (${server.runtime.storeDescription})${procs}\n${lines.join('\n')}\n`);
  const pt = config.pullThrough;
  process.stderr.write(
    pt.enabled
      ? `pull-through: a miss is asked of ${pt.upstream ?? 'the real services'} and kept (docs/pull-through.md)\n`
      : 'offline: loaded data and kept upstream answers only (serve --pull-through asks the real services on a miss)\n',
  );
  const ctx = { db: server.runtime.db, generations: server.runtime.generations, log };
  for (const s of enabled) {
    // The notes read the database, which a stop closes.
    if (!s.startupNotes || stop.aborted) continue;
    try {
      for (const note of await s.startupNotes(ctx, `${main.url}${s.mount}`)) process.stderr.write(`${s.id}: ${note}\n`);
    } catch (err) {
      if (!stop.aborted) log.warn({ err, service: s.id }, 'could not print the startup notes');
    }
  }
}
