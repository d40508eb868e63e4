import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { LoadAborted } from '../core/ingest/errors.js';
import { runLoad } from '../core/ingest/load.js';
import { closeCifPool } from '../core/mmcif/index.js';
import { MemoryLimitStore } from '../core/limits/memory.js';
import type { LimitStore } from '../core/limits/policy.js';
import { RedisLimitStore } from '../core/limits/redis.js';
import type { Db } from '../core/store/db.js';
import { KeptStore } from '../core/pullthrough/store.js';
import { Generations } from '../core/store/generations.js';
import { migrate } from '../core/store/migrations.js';
import { describeStore, openStore, type StoreOptions } from '../core/store/open.js';
import type { ServiceModule } from '../services/types.js';
import { buildApp, type AppDeps } from './app.js';
import { prettyDestination } from './pretty-log.js';
import type { Config } from './config.js';
import { listenOn, plannedPorts } from './ports.js';
import { Readiness } from './readiness.js';

export interface Runtime {
  db: Db;
  generations: Generations;
  limitStore: LimitStore;
  log: Logger;
  storeDescription: string;
  /** Which services are still loading (a server listens before its demo data is loaded). */
  readiness: Readiness;
  close(): Promise<void>;
}

/**
 * JSON lines on stdout. Writes are buffered (a line per request would otherwise cost a write
 * system call each); the buffer is flushed on shutdown and when the process exits.
 */
export function createLogger(level: string): Logger {
  const options = { level, base: { app: 'biomirror' }, timestamp: pino.stdTimeFunctions.isoTime };
  // A person at a terminal reads lines; everything else (pipes, files, collectors) gets JSON.
  if (process.stdout.isTTY && process.env.LOG_FORMAT !== 'json') return pino(options, prettyDestination(process.stdout, !process.env.NO_COLOR));
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  process.once('exit', () => dest.flushSync());
  return pino(options, dest);
}

/** Opens the database, applies every service's migrations and connects the rate-limit store. */
export async function openRuntime(config: Config, services: readonly ServiceModule[], log: Logger, store: Partial<StoreOptions> = {}): Promise<Runtime> {
  const storeOpts: StoreOptions = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...store };
  const db = await openStore(storeOpts);
  try {
    for (const s of services) await migrate(db, s.id, s.migrations);
  } catch (err) {
    await db.close();
    throw err;
  }
  const generations = new Generations(db);
  let limitStore: LimitStore;
  if (config.redisUrl) {
    const r = new RedisLimitStore(config.redisUrl, 'biomirror:limit:', (m) => log.warn(m));
    limitStore = r;
  } else {
    limitStore = new MemoryLimitStore();
  }
  return {
    db,
    generations,
    limitStore,
    log,
    storeDescription: describeStore(storeOpts),
    readiness: new Readiness(),
    async close() {
      await limitStore.close();
      await db.close();
    },
  };
}

const notLoaded = () => new LoadAborted('stopped while loading the demo data; what was loaded before stays, the rest loads at the next start');

/**
 * Loads the demo input of every dataset that has never been loaded, through the normal ingest path,
 * service by service; each service is ready (rt.readiness) once its datasets are loaded and it is
 * prepared. `signal` stops it between batches (a stopped load leaves nothing behind; see runLoad).
 */
export async function loadDemoData(rt: Pick<Runtime, 'db' | 'generations' | 'log'> & { readiness?: Readiness }, services: readonly ServiceModule[], signal?: AbortSignal): Promise<void> {
  const readiness = rt.readiness ?? new Readiness();
  const pending = services.filter((s) => s.prepare || s.datasets.some((d) => d.demo));
  for (const s of pending) readiness.set(s.id, 'loading', { step: 'waiting for the services before it' });
  for (const s of pending) {
    const log = rt.log.child({ service: s.id });
    for (const ds of s.datasets) {
      if (!ds.demo) continue;
      if (signal?.aborted) throw notLoaded();
      if ((await rt.generations.active(s.id, ds.name)) !== undefined) continue;
      readiness.step(s.id, `loading the demo dataset ${ds.name}`);
      log.info({ dataset: ds.name }, 'loading demo data');
      const r = await runLoad(rt.db, rt.generations, ds, ds.demo, { source: `demo:${s.id}/${ds.name}`, ...(signal ? { signal } : {}) });
      log.info({ dataset: ds.name, records: r.records, generation: r.gen }, 'demo data loaded');
    }
    if (s.prepare) {
      if (signal?.aborted) throw notLoaded();
      readiness.step(s.id, 'preparing its engines (search indexes)');
      const t0 = Date.now();
      try {
        await s.prepare({ db: rt.db, generations: rt.generations, log });
        if (Date.now() - t0 > 1000) log.info({ seconds: Math.round((Date.now() - t0) / 100) / 10 }, 'engines prepared');
      } catch (err) {
        log.warn({ err }, 'could not prepare the demo data');
      }
    }
    readiness.set(s.id, 'ready');
  }
}

export interface RunningServer {
  apps: { service: string | null; url: string; app: FastifyInstance }[];
  runtime: Runtime;
  /** Settles when the demo data is loaded (at once unless `listenFirst`); rejects when that load fails. */
  ready: Promise<void>;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export function enabledServices(config: Config, all: readonly ServiceModule[]): ServiceModule[] {
  return all.filter((s) => config.services[s.id]?.enabled !== false);
}

/**
 * How long in-flight requests may take to finish once the server is told to stop; then their
 * connections are cut. Short enough that the whole stop fits in the few seconds a container
 * runtime waits after SIGTERM before it kills.
 */
export const SHUTDOWN_GRACE_MS = 2_500;

async function withoutKeptAnswers(db: Db, services: readonly ServiceModule[]): Promise<ServiceModule[]> {
  const kept = new Set((await (await KeptStore.open(db)).summary()).map((k) => k.service));
  return services.filter((s) => !kept.has(s.id));
}

export interface StartOptions {
  /** Stops the demo load (the start then fails with LoadAborted). */
  signal?: AbortSignal;
  /**
   * Listen before the demo data is loaded: services still loading answer 503 with Retry-After,
   * `/ready` says when all are ready, and `ready` settles then. Otherwise the start returns once
   * everything is loaded.
   */
  listenFirst?: boolean;
}

export async function startServer(config: Config, all: readonly ServiceModule[], log = createLogger(config.logLevel), opts: StartOptions = {}): Promise<RunningServer> {
  const services = enabledServices(config, all);
  const ports = plannedPorts(config, services);
  const runtime = await openRuntime(config, services, log);
  // Every app built, listening or not: a close must reach the engines its services started.
  const built: FastifyInstance[] = [];
  const apps: RunningServer['apps'] = [];
  let ready: Promise<void> = Promise.resolve();
  const closeAll = async () => {
    // In-flight requests get a grace period; then whatever is left is cut.
    await Promise.all(
      built.map(async (app) => {
        const timer = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        try {
          await app.close();
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    // A demo load still running (stopped by the signal between batches) settles before the
    // database closes under it, so that it is dropped rather than left half-recorded.
    await ready.catch(() => undefined);
    // The shared structure-file conversion threads: once started they would keep the process alive.
    await closeCifPool();
    await runtime.close();
  };
  try {
    if (opts.signal?.aborted) throw notLoaded();
    // A service holding kept upstream answers is not empty: the demo sample is not loaded over them.
    const seeded = config.demo ? await withoutKeptAnswers(runtime.db, services) : [];
    if (config.demo && !opts.listenFirst) await loadDemoData(runtime, seeded, opts.signal);
    // Marked before the first connection: a service is never seen ready before its data is.
    if (config.demo && opts.listenFirst) for (const s of seeded) if (s.prepare || s.datasets.some((d) => d.demo)) runtime.readiness.set(s.id, 'loading');
    const deps: AppDeps = { ...runtime, config };
    for (const p of ports) {
      const app = await buildApp(deps, p.service === null ? services : services.filter((s) => s.id === p.service), p.service === null);
      built.push(app);
      apps.push({ service: p.service, url: await listenOn(app, config.host, p), app });
    }
    if (config.demo && opts.listenFirst) {
      ready = loadDemoData(runtime, seeded, opts.signal);
      ready.catch(() => undefined);
    }
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw err;
  }
  let closing: Promise<void> | undefined;
  return {
    apps,
    runtime,
    ready,
    close: () => (closing ??= closeAll()),
  };
}
