import cluster from 'node:cluster';
import { SERVICES } from '../services/registry.js';
import { ConfigError } from '../server/config.js';
import { startServer } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';
import { recordRunning } from './running.js';
import { runPrimary } from './workers.js';

export async function serveCommand(flags: CommonFlags & { workers?: string | undefined }): Promise<number> {
  const config = configFrom(flags);
  const workers = flags.workers === undefined ? 1 : Number(flags.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new ConfigError(`--workers must be a whole number from 1 to 64, not "${flags.workers}"`);
  if (workers > 1 && cluster.isPrimary) return runPrimary(config, SERVICES, workers);
  // A worker of `--workers N`: the primary loaded the demo data; only the first prints the banner.
  const role = process.env.BIOMIRROR_WORKER_ROLE;
  if (role) config.demo = false;
  const server = await startServer(config, SERVICES);
  const log = server.runtime.log;

  // First signal: finish in-flight requests and close the database. A second one exits at once.
  // Listening for them comes before anything else is awaited, so an early signal still stops cleanly.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        log.warn({ signal }, 'second signal, exiting now');
        process.exit(130);
      }
      stopping = true;
      log.info({ signal }, 'shutting down: finishing in-flight requests');
      server.close().then(resolve, (err: unknown) => {
        log.error({ err }, 'error while shutting down');
        resolve();
      });
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
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
  if (main && role !== 'other') {
    const enabled = SERVICES.filter((s) => config.services[s.id]?.enabled !== false);
    const own = new Map(server.apps.filter((a) => a.service).map((a) => [a.service as string, a.url]));
    // Each placeholder at its address on the shared port and, with --port-per-service, on the service's own port.
    const lines = enabled.flatMap((s) =>
      Object.entries(s.baseUrls).map(([k, v]) => `  {${k}} = ${main.url}${s.mount}${v}${own.has(s.id) ? `  (own port: ${own.get(s.id)}${v})` : ''}`),
    );
    const procs = workers > 1 ? ` with ${workers} worker processes` : '';
    process.stderr.write(`biomirror is serving on ${main.url} (${server.runtime.storeDescription})${procs}\n${lines.join('\n')}\n`);
    const ctx = { db: server.runtime.db, generations: server.runtime.generations, log };
    for (const s of enabled) {
      if (!s.startupNotes) continue;
      try {
        for (const note of await s.startupNotes(ctx, `${main.url}${s.mount}`)) process.stderr.write(`${s.id}: ${note}\n`);
      } catch (err) {
        log.warn({ err, service: s.id }, 'could not print the startup notes');
      }
    }
  }

  await stopped;
  forget();
  log.info('stopped');
  // A worker's channel to the primary would keep it alive once its server is closed.
  if (cluster.isWorker) cluster.worker?.disconnect();
  return 0;
}
