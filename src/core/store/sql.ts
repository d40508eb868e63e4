/**
 * SQL assembled from fragments with its parameters kept in text order: a `?` placeholder means
 * the n-th parameter on both databases, so a fragment moved into another query must carry its
 * own parameters along, in place.
 */
import type { Dialect, SqlValue } from './db.js';

export interface Sql {
  sql: string;
  params: SqlValue[];
}

const isSql = (v: unknown): v is Sql => typeof v === 'object' && v !== null && !Buffer.isBuffer(v) && 'sql' in v && 'params' in v;

/** `sql\`... ${value} ...\``: a value becomes a placeholder, a fragment is inlined with its parameters. */
export function sql(strings: TemplateStringsArray, ...values: (Sql | SqlValue)[]): Sql {
  let text = strings[0] as string;
  const params: SqlValue[] = [];
  values.forEach((v, i) => {
    if (isSql(v)) {
      text += v.sql;
      params.push(...v.params);
    } else {
      text += '?';
      params.push(v);
    }
    text += strings[i + 1] as string;
  });
  return { sql: text, params };
}

/** Text written into the SQL as is: table names, aliases, keywords, never request text. */
export const sqlText = (text: string): Sql => ({ sql: text, params: [] });

/** A number written into the SQL (a parameter's type would be unknown to PostgreSQL in a select list). */
export function sqlNumber(x: number): Sql {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  return sqlText(String(x));
}

export function joinSql(list: readonly Sql[], sep: string): Sql {
  return { sql: list.map((x) => x.sql).join(sep), params: list.flatMap((x) => x.params) };
}

/**
 * The join keyword that keeps the left side as the outer loop: SQLite keeps no statistics of the
 * search tables and, left to choose, reads a whole value index or object kind for each hit (minutes
 * on an archive); its CROSS JOIN keeps the order written. PostgreSQL plans from its statistics.
 */
export const joinInOrder = (dialect: Dialect): string => (dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN');

/**
 * A column tested with `IN (...)` on each row, never read as a key: SQLite, left to choose, may
 * look the row up by each member of the list instead, the whole list for each row of the outer
 * loop (minutes on an archive); its unary plus keeps the condition a test.
 */
export const testedColumn = (dialect: Dialect, col: string): string => (dialect === 'sqlite' ? `+${col}` : col);
