import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../server/config.js';
import { createLogger, loadDemoData, openRuntime } from '../server/serve.js';
import type { ServiceModule } from '../services/types.js';

/** A worker that dies sooner than this after its start is restarted only after a pause. */
const FAST_FAILURE_MS = 5_000;

/**
 * `serve --workers N`: N processes share the listening ports (Node's cluster module hands each new
 * connection to the next one). Every piece of short-lived state lives in the database or Redis, so
 * any process answers any request. The primary loads the demo data once, restarts a worker that
 * dies, and on SIGTERM/SIGINT stops them all, each finishing its in-flight requests.
 */
export async function runPrimary(config: Config, services: readonly ServiceModule[], workers: number): Promise<number> {
  const log = createLogger(config.logLevel);
  if (config.demo) {
    const rt = await openRuntime(config, services, log);
    try {
      await loadDemoData(rt, services);
    } finally {
      await rt.close();
    }
  }
  let stopping = false;
  const started = new Map<Worker, number>();
  const fork = (first: boolean) => {
    // The first worker prints the start banner and notes; the others start silently.
    const w = cluster.fork({ BIOMIRROR_WORKER_ROLE: first ? 'first' : 'other' });
    started.set(w, Date.now());
  };
  cluster.on('exit', (w, code, signal) => {
    const since = Date.now() - (started.get(w) ?? 0);
    started.delete(w);
    if (stopping) return;
    log.warn({ pid: w.process.pid, code, signal }, 'worker stopped; starting another');
    setTimeout(() => fork(false), since < FAST_FAILURE_MS ? 1_000 : 0).unref();
  });
  for (let i = 0; i < workers; i++) fork(i === 0);

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(130);
      stopping = true;
      log.info({ signal }, 'stopping the workers');
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
      if (!alive.length) resolve();
      let left = alive.length;
      for (const w of alive) {
        w.once('exit', () => {
          if (--left === 0) resolve();
        });
        w.process.kill('SIGTERM');
      }
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
  log.info('stopped');
  return 0;
}
