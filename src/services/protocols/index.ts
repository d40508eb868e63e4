import type { Db } from '../../core/store/db.js';
import type { ServiceModule } from '../types.js';
import { UserKeys } from './auth.js';
import { commands } from './commands.js';
import { prepareDemo, startupNotes } from './demo.js';
import { protoCatalogue } from './errors.js';
import { DATASET, SERVICE } from './handlers.js';
import { readProtocols } from './ingest.js';
import { protocolLimits } from './limits.js';
import { registerRoutes } from './routes.js';
import { MIGRATIONS } from './schema.js';
import { TABLES, TABLE_PREFIX, countProtocols, createTables, finishTables, protocolUpdates, writeBatch } from './store.js';
import { sourcePath } from '../../core/files/project.js';

// Demo protocols ship as source files next to this module (the build does not copy them).
const demo = sourcePath('services/protocols/demo/');

/**
 * A protocol service. Its rate limits are per user, so their keys look tokens up in the database
 * the routes were given; a module instance therefore serves one database (the registry's serves
 * the process's; tests make one per app).
 */
export function createProtocolsService(): ServiceModule {
  let db: Db | undefined;
  const keys = new UserKeys();
  return {
    id: SERVICE,
    title: 'protocols.io API v3 (OAuth 2.0 and protocols)',
    mount: '/protocols',
    baseUrls: { protocol_base_url: '' },
    publicUrls: { protocol_base_url: 'https://www.protocols.io' },
    defaultPort: 8085,
    limits: protocolLimits(keys, () => db),
    migrations: MIGRATIONS,
    datasets: [
      {
        service: SERVICE,
        name: DATASET,
        tablePrefix: TABLE_PREFIX,
        tables: TABLES,
        batchSize: 200,
        demo,
        read: readProtocols,
        create: createTables,
        write: writeBatch,
        finish: finishTables,
        count: countProtocols,
        updates: protocolUpdates,
      },
    ],
    errors: protoCatalogue,
    routes(app, ctx) {
      db = ctx.db;
      registerRoutes(app, ctx);
    },
    commands,
    prepare: prepareDemo,
    startupNotes,
  };
}

export const protocols = createProtocolsService();
