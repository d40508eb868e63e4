import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { endOwned } from '../core/children.js';
import type { Config } from '../server/config.js';
import { loadDemoData, openRuntime } from '../server/serve.js';
import type { ServiceModule } from '../services/types.js';

/** A worker that dies sooner than this after its start is restarted only after a pause. */
const FAST_FAILURE_MS = 5_000;

/**
 * `serve --workers N`: N processes share the listening ports (Node's cluster module hands each new
 * connection to the next one). Every piece of short-lived state lives in the database or Redis, so
 * any process answers any request. The primary loads the demo data once, restarts a worker that
 * dies, and on SIGTERM/SIGINT (`stop`) stops them all, each finishing its in-flight requests.
 */
export async function runPrimary(config: Config, services: readonly ServiceModule[], workers: number, log: Logger, stop: AbortSignal): Promise<number> {
  if (config.demo) {
    const rt = await openRuntime(config, services, log);
    // A load stopped half-way ends with its programs, and is not switched to.
    const whileLoading = () => endOwned();
    stop.addEventListener('abort', whileLoading, { once: true });
    try {
      await loadDemoData(rt, services, stop);
    } catch (err) {
      if (!stop.aborted) throw err;
      log.info({ reason: (err as Error).message }, 'stopped before serving');
      return 0;
    } finally {
      stop.removeEventListener('abort', whileLoading);
      await rt.close();
    }
  }
  if (stop.aborted) return 0;
  let stopping = false;
  // Until a worker listens, a worker that stops would stop again the same way (a port, a setting):
  // the primary then gives up instead of restarting workers for ever.
  let listened = false;
  let failed: number | null = null;
  const started = new Map<Worker, number>();
  const fork = (first: boolean) => {
    // The first worker prints the start banner and notes; the others start silently.
    const w = cluster.fork({ BIOMIRROR_WORKER_ROLE: first ? 'first' : 'other' });
    started.set(w, Date.now());
  };
  cluster.on('listening', () => {
    listened = true;
  });

  await new Promise<void>((resolve) => {
    const stopAll = () => {
      if (stopping) return;
      stopping = true;
      log.info('stopping the workers');
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
    cluster.on('exit', (w, code, signal) => {
      const since = Date.now() - (started.get(w) ?? 0);
      started.delete(w);
      if (stopping) return;
      if (!listened) {
        log.error({ pid: w.process.pid, code, signal }, 'a worker stopped before any was serving; stopping');
        failed = code || 1;
        stopAll();
        return;
      }
      log.warn({ pid: w.process.pid, code, signal }, 'worker stopped; starting another');
      setTimeout(() => fork(false), since < FAST_FAILURE_MS ? 1_000 : 0).unref();
    });
    stop.addEventListener('abort', stopAll, { once: true });
    for (let i = 0; i < workers; i++) fork(i === 0);
  });
  log.info('stopped');
  return failed ?? 0;
}
