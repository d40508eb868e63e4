import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from '../core/store/sqlite-driver.js';
import { processAlive } from '../core/process.js';

/**
 * Where a server over this data directory listens, written by `serve` and read by `status`, so that
 * status names the address in use rather than the default one.
 */
export interface Running {
  /** null while the server starts (it holds the folder, it does not listen yet). */
  url: string | null;
  pid: number;
  /** Each service's own port, with --port-per-service. */
  services: Record<string, string>;
  startedAt: string;
}

const FILE = 'server.json';
const LOCK = 'serve.lock';

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
    if ((typeof r.url !== 'string' && r.url !== null) || typeof r.pid !== 'number' || !processAlive(r.pid)) return undefined;
    return r;
  } catch {
    return undefined;
  }
}

/** Another server holds the data folder. */
export class DataDirInUse extends Error {
  override readonly name = 'DataDirInUse';
}

/**
 * One server per data folder that holds the SQLite database: a second `serve` over it would load
 * the demo data a second time beside the first, and the record `status` reads would name only one
 * of them. The hold is an exclusive lock on a file of the folder (SQLite's own file locking, held
 * by an open transaction), which the system releases when the process ends however it ends, so a
 * crashed server never leaves the folder held. Readers (`status`, `ingest`, a read-only connection)
 * do not take it and work beside the server; `--workers N` takes it once, in its first process.
 */
export function holdDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK);
  closeSync(openSync(path, 'a', 0o600));
  const lock = new Database(path, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    const other = readRunning(dataDir);
    const who = other ? `pid ${other.pid}${other.url ? `, ${other.url}` : ', still starting'}` : 'its record is not written yet';
    throw new DataDirInUse(
      `the data folder ${resolve(dataDir)} is in use by another biomirror serve (${who}): stop that one first, or give this one another --data-dir ` +
        '(one server per folder; --workers N runs several processes over one folder; biomirror status and ingest work beside a running server)',
    );
  }
  return () => lock.close();
}
