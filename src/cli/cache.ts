/**
 * `biomirror cache list|export|import|clear`: the answers kept from the upstreams by pull-through
 * (docs/pull-through.md), in the database of the data folder (or DATABASE_URL).
 */
import { KeptStore } from '../core/pullthrough/store.js';
import { ImportError, exportKept, importKept } from '../core/pullthrough/transfer.js';
import type { Db } from '../core/store/db.js';
import { openStore } from '../core/store/open.js';
import { findService, SERVICES } from '../services/registry.js';
import { configFrom, type CommonFlags } from './flags.js';

const USAGE = `usage: biomirror cache list [service]
       biomirror cache export [service] --out FILE   (JSON lines; gzip when FILE ends in .gz)
       biomirror cache import FILE
       biomirror cache clear [service]
`;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

export async function cacheCommand(args: string[], flags: CommonFlags & { out?: string | undefined; json?: boolean | undefined }): Promise<number> {
  const [sub, arg, ...extra] = args;
  if (!sub || extra.length || !['list', 'export', 'import', 'clear'].includes(sub)) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (sub !== 'import' && arg !== undefined && !findService(arg)) {
    process.stderr.write(`unknown service "${arg}"; services: ${SERVICES.map((s) => s.id).join(', ')}\n`);
    return 2;
  }
  if (sub === 'import' && !arg) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (sub === 'export' && !flags.out) {
    process.stderr.write('biomirror cache export: say where with --out FILE\n');
    return 2;
  }
  const config = configFrom(flags);
  const db: Db = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const store = await KeptStore.open(db);
    switch (sub) {
      case 'list': {
        const rows = await store.summary(arg);
        if (flags.json) {
          process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
          return 0;
        }
        if (!rows.length) {
          process.stdout.write(`no kept answers${arg ? ` of ${arg}` : ''}\n`);
          return 0;
        }
        process.stdout.write('service\tanswers\tsize\toldest\tnewest\n');
        for (const r of rows) process.stdout.write(`${r.service}\t${r.count}\t${size(r.bytes)}\t${r.oldest ?? '-'}\t${r.newest ?? '-'}\n`);
        return 0;
      }
      case 'export': {
        const n = await exportKept(store, flags.out as string, arg);
        process.stdout.write(`exported ${n} kept answers${arg ? ` of ${arg}` : ''} to ${flags.out as string}\n`);
        return 0;
      }
      case 'import': {
        const n = await importKept(store, arg as string);
        process.stdout.write(`imported ${n} kept answers from ${arg as string}\n`);
        return 0;
      }
      default: {
        const n = await store.clear(arg);
        process.stdout.write(`cleared ${n} kept answers${arg ? ` of ${arg}` : ''}\n`);
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof ImportError || ['ENOENT', 'EISDIR', 'EACCES'].includes(String((err as NodeJS.ErrnoException).code))) {
      process.stderr.write(`biomirror cache: ${(err as Error).message}\n`);
      return 2;
    }
    throw err;
  } finally {
    await db.close();
  }
}
