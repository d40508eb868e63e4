/**
 * The databases every store test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set
 * (.ci/run sets it). Each PostgreSQL use gets a schema of its own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db } from '../../src/core/store/db.js';
import { openStore } from '../../src/core/store/open.js';

export const PG_URL = process.env.TEST_DATABASE_URL;
export const REDIS_URL = process.env.TEST_REDIS_URL;

export interface StoreTarget {
  name: 'sqlite' | 'postgres';
  /** Opens a fresh, empty database; `cleanup` removes it. */
  open(): Promise<OpenedStore>;
}

export interface OpenedStore {
  db: Db;
  /** How to open the same database again (another process, or after a restart). */
  options: { databaseUrl?: string; dataDir: string; schema?: string };
  cleanup(): Promise<void>;
}

const made: string[] = [];
process.once('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A temporary folder, removed when the test process ends. */
export function tempDir(prefix = 'biomirror-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

const sqlite: StoreTarget = {
  name: 'sqlite',
  async open() {
    const dataDir = tempDir();
    const db = await openStore({ dataDir });
    return {
      db,
      options: { dataDir },
      async cleanup() {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: StoreTarget = {
  name: 'postgres',
  async open() {
    const url = PG_URL as string;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const dataDir = tempDir();
    const db = await openStore({ databaseUrl: url, dataDir, schema });
    return {
      db,
      options: { databaseUrl: url, dataDir, schema },
      async cleanup() {
        await db.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

export const STORES: StoreTarget[] = PG_URL ? [sqlite, postgres] : [sqlite];

// CI says which servers it started; a test run there must not quietly lose one.
if (process.env.BIOMIRROR_REQUIRE_PG && !PG_URL) throw new Error('BIOMIRROR_REQUIRE_PG is set but TEST_DATABASE_URL is not');
if (process.env.BIOMIRROR_REQUIRE_REDIS && !REDIS_URL) throw new Error('BIOMIRROR_REQUIRE_REDIS is set but TEST_REDIS_URL is not');

if (!PG_URL) {
  process.stderr.write('note: TEST_DATABASE_URL is not set, so store tests run on SQLite only (.ci/run runs them on PostgreSQL too)\n');
}
