/**
 * The history server: `usehistory=y` keeps a search under a WebEnv and a query key, and later
 * requests name it (`WebEnv` + `query_key`, or `#1` in a term). It lives in the database, so every
 * biomirror process sharing the database sees it, and it expires 8 hours after its last use. A
 * search is kept as its expanded term and re-run when read, so the ids follow the data served.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../core/store/db.js';
import type { Migration } from '../../core/store/migrations.js';
import type { DbName } from './data.js';

const TTL_MS = 8 * 3600_000;

const ddl = (big: string) => `
  CREATE TABLE eutils_history (
    webenv TEXT NOT NULL,
    query_key INTEGER NOT NULL,
    db TEXT NOT NULL,
    term TEXT NOT NULL,
    used_at ${big} NOT NULL,
    PRIMARY KEY (webenv, query_key)
  );
  CREATE INDEX eutils_history_used ON eutils_history (used_at);
`;

export const HISTORY_MIGRATIONS: Migration[] = [{ id: '001-history', sql: { sqlite: ddl('INTEGER'), postgres: ddl('BIGINT') } }];

export interface HistoryEntry {
  db: DbName;
  term: string;
}

export function newWebEnv(): string {
  return `MCID_${randomBytes(12).toString('hex')}`;
}

/** Keeps a search; a known, unexpired WebEnv gets the next query key, otherwise a new WebEnv starts. */
export async function remember(db: Db, webenv: string | undefined, entry: HistoryEntry): Promise<{ webenv: string; queryKey: number }> {
  const now = Date.now();
  await db.run('DELETE FROM eutils_history WHERE used_at < ?', [now - TTL_MS]);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        let env = webenv;
        let key = 1;
        if (env) {
          const r = await tx.one<{ k: number | null }>('SELECT MAX(query_key) AS k FROM eutils_history WHERE webenv = ?', [env]);
          if (r?.k != null) key = Number(r.k) + 1;
          else env = undefined;
        }
        env ??= newWebEnv();
        await tx.run('INSERT INTO eutils_history (webenv, query_key, db, term, used_at) VALUES (?, ?, ?, ?, ?)', [env, key, entry.db, entry.term, now]);
        await tx.run('UPDATE eutils_history SET used_at = ? WHERE webenv = ?', [now, env]);
        return { webenv: env, queryKey: key };
      });
    } catch (err) {
      // Another process took the same key at the same moment: take the next one.
      if (attempt < 3 && /unique|duplicate|constraint/i.test((err as Error).message)) continue;
      throw err;
    }
  }
}

/** A kept search, or undefined when the WebEnv or key is unknown or expired. */
export async function recall(db: Db, webenv: string, queryKey: number): Promise<HistoryEntry | undefined> {
  const now = Date.now();
  const r = await db.one<{ db: string; term: string; used_at: number }>('SELECT db, term, used_at FROM eutils_history WHERE webenv = ? AND query_key = ?', [webenv, queryKey]);
  if (!r || Number(r.used_at) < now - TTL_MS) return undefined;
  await db.run('UPDATE eutils_history SET used_at = ? WHERE webenv = ?', [now, webenv]);
  return { db: r.db as DbName, term: r.term };
}
