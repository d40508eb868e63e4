import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toPgPlaceholders } from '../src/core/store/postgres.js';
import { Generations } from '../src/core/store/generations.js';
import { lookupOne } from '../src/core/store/lookup.js';
import type { Db } from '../src/core/store/db.js';
import { migrate } from '../src/core/store/migrations.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

describe('placeholder rewriting for PostgreSQL', () => {
  it('numbers ? marks outside quotes', () => {
    expect(toPgPlaceholders(`SELECT ? , '?' , "a?" , ?`)).toBe(`SELECT $1 , '?' , "a?" , $2`);
  });
});

for (const target of STORES) {
  describe(`store on ${target.name}`, () => {
    let s: OpenedStore;
    beforeEach(async () => {
      s = await target.open();
    });
    afterEach(async () => {
      await s.cleanup();
    });

    it('reads, writes and inserts many rows', async () => {
      await s.db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)');
      await s.db.insertMany(
        't',
        ['id', 'name', 'n'],
        [
          [1, 'a', 10],
          [2, 'b', null],
        ],
      );
      expect(await s.db.run('UPDATE t SET n = ? WHERE id = ?', [5, 2])).toBe(1);
      expect(await s.db.query('SELECT id, name, n FROM t ORDER BY id')).toEqual([
        { id: 1, name: 'a', n: 10 },
        { id: 2, name: 'b', n: 5 },
      ]);
      expect(await s.db.one<{ c: number }>('SELECT COUNT(*) AS c FROM t')).toEqual({ c: 2 });
    });

    it('inserts large batches with every kind of value intact (PostgreSQL through COPY)', async () => {
      await s.db.exec(`CREATE TABLE big (id INTEGER NOT NULL, name TEXT, x DOUBLE PRECISION, flag INTEGER, blob ${s.db.dialect === 'postgres' ? 'BYTEA' : 'BLOB'})`);
      const awkward = ['', 'NULL', '"quoted"', 'back\\slash', '{braces}', 'a,b', "it's", 'ünïcødé ✓', ' spaced ', 'tab\tnew\nline', '\\x41'];
      const rows = Array.from({ length: 25_000 }, (_, i) => [i, i % 7 === 0 ? null : (awkward[i % awkward.length] as string), i % 5 === 0 ? null : i / 3 + 1e-12, i % 2]);
      await s.db.insertMany('big', ['id', 'name', 'x', 'flag'], rows);
      const back = await s.db.query<{ id: number; name: string | null; x: number | null; flag: number }>('SELECT id, name, x, flag FROM big ORDER BY id');
      expect(back.length).toBe(rows.length);
      expect(back.map((r) => [r.id, r.name, r.x, r.flag])).toEqual(rows);
      // Rows of long texts (documents: sent as parameters on PostgreSQL).
      const wide = Array.from({ length: 80 }, (_, i) => [50_000 + i, `{"doc":"${'x\\"{},'.repeat(100 + i)}"}`, null, 1]);
      await s.db.insertMany('big', ['id', 'name', 'x', 'flag'], wide);
      expect((await s.db.query<{ id: number; name: string }>('SELECT id, name FROM big WHERE id >= 50000 ORDER BY id')).map((r) => [r.id, r.name])).toEqual(wide.map((r) => [r[0], r[1]]));
      // Byte strings too (sent as parameters on PostgreSQL).
      const bytes = Array.from({ length: 60 }, (_, i) => [100_000 + i, null, null, 0, Buffer.from([0, i, 255, 92, 123])]);
      await s.db.insertMany('big', ['id', 'name', 'x', 'flag', 'blob'], bytes);
      const blobs = await s.db.query<{ blob: Buffer }>('SELECT blob FROM big WHERE id >= 100000 ORDER BY id');
      expect(blobs.map((r) => Buffer.from(r.blob))).toEqual(bytes.map((r) => r[4]));
      // A row of another width fails the batch rather than shifting its neighbours' values.
      const ragged = Array.from({ length: 20 }, (_, i) => (i === 5 ? [200_000 + i, 'short'] : [200_000 + i, 'r', 1, 0]));
      await expect(s.db.insertMany('big', ['id', 'name', 'x', 'flag'], ragged)).rejects.toThrow();
      expect(await s.db.query('SELECT id FROM big WHERE id >= 200000')).toEqual([]);
    });

    it('keeps its hot statements prepared through a burst of one-off ones', async () => {
      await s.db.exec('CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT)');
      await s.db.insertMany('kv', ['k', 'v'], [[1, 'one']]);
      const hot = 'SELECT v FROM kv WHERE k = ?';
      expect(await s.db.query(hot, [1])).toEqual([{ v: 'one' }]);
      if (s.db.dialect !== 'sqlite') return;
      // Count what the reading connection prepares from here on.
      const reader = (s.db as unknown as { reader: { raw: { prepare: (sql: string) => unknown } } }).reader.raw;
      const prepare = reader.prepare.bind(reader);
      const prepared: string[] = [];
      reader.prepare = (sql: string) => (prepared.push(sql), prepare(sql));
      for (let i = 0; i < 1200; i++) {
        await s.db.query(`SELECT v FROM kv WHERE k = ? AND ${i} = ${i}`, [1]);
        if (i % 100 === 0) expect(await s.db.query(hot, [1])).toEqual([{ v: 'one' }]);
      }
      expect(prepared.length).toBe(1200);
      expect(prepared).not.toContain(hot);
    });

    it('answers concurrent key lookups each with its own row, in as few round trips as PostgreSQL needs', async () => {
      await s.db.exec('CREATE TABLE docs (id INTEGER PRIMARY KEY, doc TEXT NOT NULL); CREATE TABLE named (key TEXT PRIMARY KEY, doc TEXT NOT NULL)');
      await s.db.insertMany(
        'docs',
        ['id', 'doc'],
        Array.from({ length: 300 }, (_, i) => [i + 1, `doc ${i + 1}`]),
      );
      await s.db.insertMany(
        'named',
        ['key', 'doc'],
        [
          ['CYP2D6', 'a'],
          ['cyp2d6', 'b'],
        ],
      );
      // Count the statements the lookups send.
      let statements = 0;
      const counted = Object.create(s.db) as Db;
      counted.query = (sql, params, hint) => (statements++, s.db.query(sql, params, hint));
      counted.one = (sql, params, hint) => (statements++, s.db.one(sql, params, hint));
      const keys = [...Array.from({ length: 300 }, (_, i) => i + 1), 5, 5, 0, 999];
      const got = await Promise.all(keys.map((k) => lookupOne(counted, 'docs', 'id', 'doc', k)));
      expect(got).toEqual(keys.map((k) => (k >= 1 && k <= 300 ? `doc ${k}` : undefined)));
      // SQLite reads each at once; PostgreSQL gathers what arrives while a round trip is out.
      if (s.db.dialect === 'sqlite') expect(statements).toBe(keys.length);
      else expect(statements).toBeLessThanOrEqual(4);
      expect(await Promise.all(['CYP2D6', 'cyp2d6', 'Cyp2d6'].map((k) => lookupOne(counted, 'named', 'key', 'doc', k)))).toEqual(['a', 'b', undefined]);
      // A failed read fails every lookup waiting on it, and later ones still run.
      await expect(Promise.all([1, 2].map((k) => lookupOne(counted, 'missing_table', 'id', 'doc', k)))).rejects.toThrow();
      expect(await lookupOne(counted, 'docs', 'id', 'doc', 7)).toBe('doc 7');
    });

    it('rolls a failed transaction back whole', async () => {
      await s.db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      await expect(
        s.db.transaction(async (tx) => {
          await tx.run('INSERT INTO t (id) VALUES (?)', [1]);
          await tx.run('INSERT INTO t (id) VALUES (?)', [1]); // duplicate key
        }),
      ).rejects.toThrow();
      expect(await s.db.query('SELECT id FROM t')).toEqual([]);
    });

    it('does not show uncommitted writes to readers', async () => {
      await s.db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      let seenInside: unknown[] = [];
      await s.db.transaction(async (tx) => {
        await tx.run('INSERT INTO t (id) VALUES (?)', [7]);
        seenInside = await s.db.query('SELECT id FROM t');
      });
      expect(seenInside).toEqual([]);
      expect(await s.db.query('SELECT id FROM t')).toEqual([{ id: 7 }]);
    });

    it('applies each migration once', async () => {
      const m = [{ id: '001', sql: { sqlite: 'CREATE TABLE m1 (x TEXT)', postgres: 'CREATE TABLE m1 (x TEXT)' } }];
      expect(await migrate(s.db, 'svc', m)).toEqual(['001']);
      expect(await migrate(s.db, 'svc', m)).toEqual([]);
      const more = [...m, { id: '002', sql: { sqlite: 'ALTER TABLE m1 ADD COLUMN y TEXT', postgres: 'ALTER TABLE m1 ADD COLUMN y TEXT' } }];
      expect(await migrate(s.db, 'svc', more)).toEqual(['002']);
    });

    it('switches generations and keeps the one before', async () => {
      const g = new Generations(s.db, 0);
      expect(await g.active('svc', 'd')).toBeUndefined();
      const a = await g.begin('svc', 'd', 'file-a');
      expect(await g.activate('svc', 'd', a, { records: 3, skipped: 0, release: '2024-01-01', details: {} })).toEqual([]);
      const b = await g.begin('svc', 'd', 'file-b');
      expect(await g.active('svc', 'd')).toBe(a);
      expect(await g.activate('svc', 'd', b, { records: 4, skipped: 1, release: null, details: {} })).toEqual([]);
      expect(await g.active('svc', 'd')).toBe(b);
      expect(await g.servable('svc', 'd', a)).toBe(true);
      const c = await g.begin('svc', 'd', 'file-c');
      expect(await g.activate('svc', 'd', c, { records: 5, skipped: 0, release: null, details: {} })).toEqual([a]);
      expect(await g.servable('svc', 'd', a)).toBe(false);
      const served = await g.served('svc');
      expect(served).toHaveLength(1);
      expect(served[0]).toMatchObject({ id: c, source: 'file-c', records: 5, state: 'active' });
      const all = await g.list('svc');
      expect(all.map((l) => l.state)).toEqual(['retired', 'previous', 'active']);
    });
  });
}
