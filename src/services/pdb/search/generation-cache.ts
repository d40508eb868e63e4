/**
 * A value computed once per database and index generation (tables of a generation never change).
 * Keyed by the database handle too: two stores may hold generations of the same number.
 */
import type { Db } from '../../../core/store/db.js';

export function perGeneration<T>(): (db: Db, key: string, make: () => Promise<T>) => Promise<T> {
  const byDb = new WeakMap<Db, Map<string, Promise<T>>>();
  return (db, key, make) => {
    let m = byDb.get(db);
    if (!m) byDb.set(db, (m = new Map()));
    let p = m.get(key);
    if (!p) {
      if (m.size >= 4) m.clear();
      const mine = make();
      m.set(key, mine);
      mine.catch(() => m?.delete(key));
      p = mine;
    }
    return p;
  };
}
