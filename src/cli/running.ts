import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../core/process.js';

/**
 * Where a server over this data directory listens, written by `serve` and read by `status`, so that
 * status names the address in use rather than the default one.
 */
export interface Running {
  url: string;
  pid: number;
  /** Each service's own port, with --port-per-service. */
  services: Record<string, string>;
  startedAt: string;
}

const FILE = 'server.json';

export function recordRunning(dataDir: string, r: Running): () => void {
  const path = join(dataDir, FILE);
  try {
    writeFileSync(path, JSON.stringify(r), { mode: 0o600 });
  } catch {
    return () => undefined;
  }
  return () => {
    try {
      if (readRunning(dataDir)?.pid === r.pid) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
}

/** The server recorded for this data directory, if its process is still alive. */
export function readRunning(dataDir: string): Running | undefined {
  try {
    const r = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Running;
    if (typeof r.url !== 'string' || typeof r.pid !== 'number' || !processAlive(r.pid)) return undefined;
    return r;
  } catch {
    return undefined;
  }
}
