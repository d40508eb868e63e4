/**
 * The service's secrets (the bearer token, the certificate authority of the sandbox's proxy), made
 * at first start and kept in the database: the SQLite file in the data folder is readable by its
 * owner only, and every process sharing one PostgreSQL database then uses the same token and CA.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../core/store/db.js';
import type { Migration } from '../../core/store/migrations.js';

export const SECRETS_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-exec-secrets',
    sql: {
      sqlite: 'CREATE TABLE IF NOT EXISTS exec_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL)',
      postgres: 'CREATE TABLE IF NOT EXISTS exec_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL)',
    },
  },
];

/** The stored value of `name`, made by `make` the first time; concurrent first starts agree on one. */
export async function secret(db: Db, name: string, make: () => string): Promise<string> {
  const found = await db.one<{ value: string }>('SELECT value FROM exec_secrets WHERE name = ?', [name]);
  if (found) return found.value;
  await db.run('INSERT INTO exec_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [name, make(), new Date().toISOString()]);
  const row = await db.one<{ value: string }>('SELECT value FROM exec_secrets WHERE name = ?', [name]);
  if (!row) throw new Error(`could not store the secret ${name}`);
  return row.value;
}

export function newToken(): string {
  return `bmx_${randomBytes(24).toString('base64url')}`;
}
