/**
 * What the loader needs to know about a generation's tables, on both databases: whether a table
 * exists, its columns, whether a column leads an index; and the copy of a table into its twin of
 * another generation, done by the database itself (an update starts from a copy of what is served).
 */
import { allowShadowWrites } from './sqlite.js';
import { ident, type Db } from './db.js';

/** The table's SQL text when it is an SQLite virtual table (FTS5), whose rows live in shadow tables. */
async function virtualSql(db: Db, table: string): Promise<string | undefined> {
  if (db.dialect !== 'sqlite') return undefined;
  const r = await db.one<{ sql: string | null }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]);
  return r?.sql && /^CREATE VIRTUAL TABLE/i.test(r.sql) ? r.sql : undefined;
}

export async function tableExists(db: Db, table: string): Promise<boolean> {
  const sql =
    db.dialect === 'sqlite'
      ? "SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?"
      : 'SELECT 1 AS x FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?';
  return (await db.one(sql, [table])) !== undefined;
}

export function isVirtual(db: Db, table: string): Promise<boolean> {
  return virtualSql(db, table).then((s) => s !== undefined);
}

export async function columnsOf(db: Db, table: string): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.query<{ name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table])
      : await db.query<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position', [table]);
  return rows.map((r) => r.name);
}

/** Whether some index (or the row id) starts with `column`, so that a delete by it is a seek. */
export async function leadsIndex(db: Db, table: string, column: string): Promise<boolean> {
  if (db.dialect === 'sqlite') {
    const rowid = await db.query<{ name: string; type: string; pk: number }>('SELECT name, type, pk FROM pragma_table_info(?) WHERE pk > 0', [table]);
    if (rowid.length === 1 && rowid[0]?.name === column && /^INTEGER$/i.test(rowid[0].type)) return true;
    const hit = await db.one('SELECT 1 AS x FROM pragma_index_list(?) l, pragma_index_info(l.name) i WHERE i.seqno = 0 AND i.name = ?', [table, column]);
    return hit !== undefined;
  }
  const hit = await db.one(
    `SELECT 1 AS x FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
     WHERE i.indrelid = to_regclass(?) AND a.attname = ?`,
    [table, column],
  );
  return hit !== undefined;
}

/** Raised when the served tables are not laid out as this version creates them. */
export class LayoutMismatch extends Error {
  override readonly name = 'LayoutMismatch';
}

// The shadow tables of an FTS5 table hold its whole index; copied as rows, they are the same index.
const FTS5_SHADOWS = ['data', 'idx', 'content', 'docsize', 'config'];

/**
 * Copies every row of `from` into `to` (created empty, with the same layout) inside the database:
 * `INSERT ... SELECT` for tables, the shadow tables for an FTS5 index (whose text is not stored).
 */
export async function copyTable(db: Db, from: string, to: string): Promise<void> {
  const fromSql = await virtualSql(db, from);
  const toSql = await virtualSql(db, to);
  if (fromSql !== undefined || toSql !== undefined) {
    if (fromSql?.replace(from, to) !== toSql) throw new LayoutMismatch(`${from} is not an index of the same kind as ${to}`);
    await db.transaction(async (tx) =>
      allowShadowWrites(tx, async () => {
        for (const s of FTS5_SHADOWS) {
          if (!(await tableExists(tx, `${to}_${s}`))) continue;
          await tx.exec(`DELETE FROM ${ident(`${to}_${s}`)}; INSERT INTO ${ident(`${to}_${s}`)} SELECT * FROM ${ident(`${from}_${s}`)}`);
        }
      }),
    );
    return;
  }
  const want = await columnsOf(db, to);
  const have = new Set(await columnsOf(db, from));
  const missing = want.filter((c) => !have.has(c));
  if (missing.length) throw new LayoutMismatch(`${from} has no column ${missing.join(', ')}`);
  const cols = want.map(ident).join(', ');
  await db.run(`INSERT INTO ${ident(to)} (${cols}) SELECT ${cols} FROM ${ident(from)}`);
}

/**
 * Renumbers `column` 1..N in its present order, closing the gaps that deletions leave (lists whose
 * page is a range of a dense number need them closed). Nothing is rewritten when there are none.
 */
export async function renumber(db: Db, table: string, column: string): Promise<void> {
  const t = ident(table);
  const c = ident(column);
  const r = await db.one<{ n: number; m: number | null }>(`SELECT COUNT(*) AS n, MAX(${c}) AS m FROM ${t}`);
  if (!r || Number(r.m ?? 0) === Number(r.n)) return;
  // Through negatives, so that no two rows ever hold the same number in between (unique keys).
  await db.transaction(async (tx) => {
    await tx.run(`UPDATE ${t} SET ${c} = -${c}`);
    await tx.run(`UPDATE ${t} SET ${c} = r.n FROM (SELECT ${c} AS old, ROW_NUMBER() OVER (ORDER BY ${c} DESC) AS n FROM ${t}) r WHERE ${t}.${c} = r.old`);
  });
}
