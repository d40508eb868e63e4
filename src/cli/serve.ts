import { SERVICES } from '../services/registry.js';
import { startServer } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';

export async function serveCommand(flags: CommonFlags): Promise<number> {
  const config = configFrom(flags);
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
  if (main) {
    const enabled = SERVICES.filter((s) => config.services[s.id]?.enabled !== false);
    const lines = enabled.flatMap((s) => Object.entries(s.baseUrls).map(([k, v]) => `  {${k}} = ${main.url}${s.mount}${v}`));
    process.stderr.write(`biomirror is serving on ${main.url} (${server.runtime.storeDescription})\n${lines.join('\n')}\n`);
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
  log.info('stopped');
  return 0;
}
