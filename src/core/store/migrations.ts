import type { Db, Dialect } from './db.js';

/** One schema step of one service; applied once, in order, recorded in bm_migrations. */
export interface Migration {
  id: string;
  sql: Record<Dialect, string>;
}

const LOCK_KEY = 7_311_214; // PostgreSQL advisory lock shared by every biomirror process

export async function ensureMigrationTable(db: Db): Promise<void> {
  await db.exec(
    `CREATE TABLE IF NOT EXISTS bm_migrations (
       scope TEXT NOT NULL,
       id TEXT NOT NULL,
       applied_at TEXT NOT NULL,
       PRIMARY KEY (scope, id)
     )`,
  );
}

/**
 * Applies the migrations of `scope` not yet applied. Several processes may start together on one
 * PostgreSQL database: the advisory lock makes the second wait and then find nothing to do.
 */
export async function migrate(db: Db, scope: string, migrations: readonly Migration[]): Promise<string[]> {
  await ensureMigrationTable(db);
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(?)', [LOCK_KEY]);
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM bm_migrations WHERE scope = ?', [scope])).map((r) => r.id));
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql[tx.dialect]);
      await tx.run('INSERT INTO bm_migrations (scope, id, applied_at) VALUES (?, ?, ?)', [scope, m.id, new Date().toISOString()]);
      applied.push(m.id);
    }
  });
  return applied;
}
