/** A biomirror on a free port over a test store, for pull-through tests (the shared-port layout). */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { MemoryLimitStore } from '../../src/core/limits/memory.js';
import { Generations } from '../../src/core/store/generations.js';
import { migrate } from '../../src/core/store/migrations.js';
import { buildApp } from '../../src/server/app.js';
import { DEFAULT_CONFIG, type Config } from '../../src/server/config.js';
import { loadDemoData } from '../../src/server/serve.js';
import type { ServiceModule } from '../../src/services/types.js';
import { silent } from './app.js';
import type { OpenedStore } from './stores.js';

export interface Running {
  url: string;
  app: FastifyInstance;
  generations: Generations;
  close(): Promise<void>;
}

/** One biomirror with `list`'s services over `store`, the demo data loaded when asked. */
export async function serveOn(store: OpenedStore, list: readonly ServiceModule[], opts: { demo?: boolean; pullThrough?: Partial<Config['pullThrough']> } = {}): Promise<Running> {
  for (const s of list) await migrate(store.db, s.id, s.migrations);
  const generations = new Generations(store.db);
  if (opts.demo) await loadDemoData({ db: store.db, generations, log: silent }, [...list]);
  const config: Config = { ...DEFAULT_CONFIG, limits: false, pullThrough: { ...DEFAULT_CONFIG.pullThrough, ...opts.pullThrough } };
  const limitStore = new MemoryLimitStore();
  const app = await buildApp({ config, db: store.db, generations, limitStore, log: silent, storeDescription: store.db.dialect }, [...list], true);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    app,
    generations,
    async close() {
      app.server.closeAllConnections();
      await app.close();
      await limitStore.close();
    },
  };
}
