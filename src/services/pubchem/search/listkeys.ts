/**
 * List keys: results kept on the server under a random key, for searches that outlive their
 * request and for `list_return=listkey`. Rows live in a table of the service's own (not per load)
 * so every process sharing the database can answer a poll; they expire after a while.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../core/store/db.js';
import type { Migration } from '../../../core/store/migrations.js';
import type { FaultBody } from '../errors.js';

export const LISTKEY_MIGRATIONS: Migration[] = [
  {
    id: '001-listkeys',
    sql: {
      sqlite: `CREATE TABLE pc_listkeys (
        listkey TEXT PRIMARY KEY, domain TEXT NOT NULL, state TEXT NOT NULL, ids TEXT, fault TEXT,
        created_at INTEGER NOT NULL, deadline INTEGER NOT NULL, expires_at INTEGER NOT NULL);
        CREATE INDEX pc_listkeys_expires ON pc_listkeys (expires_at);`,
      postgres: `CREATE TABLE pc_listkeys (
        listkey TEXT PRIMARY KEY, domain TEXT NOT NULL, state TEXT NOT NULL, ids TEXT, fault TEXT,
        created_at BIGINT NOT NULL, deadline BIGINT NOT NULL, expires_at BIGINT NOT NULL);
        CREATE INDEX pc_listkeys_expires ON pc_listkeys (expires_at);`,
    },
  },
];

export type ListDomain = 'compound' | 'substance' | 'assay';

export type ListKeyState =
  { state: 'running'; domain: ListDomain; deadline: number } | { state: 'done'; domain: ListDomain; ids: number[] } | { state: 'failed'; domain: ListDomain; status: number; fault: FaultBody };

interface Row {
  domain: ListDomain;
  state: string;
  ids: string | null;
  fault: string | null;
  deadline: number;
  expires_at: number;
}

/** A random 63-bit number, as PubChem's list keys are. */
function newKey(): string {
  return (randomBytes(8).readBigUInt64BE() & 0x7fffffffffffffffn).toString();
}

export class ListKeys {
  private lastSweep = 0;
  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
  ) {}

  async create(domain: ListDomain, ids: number[] | undefined, deadline: number): Promise<string> {
    await this.sweep();
    const key = newKey();
    const now = Date.now();
    await this.db.run('INSERT INTO pc_listkeys (listkey, domain, state, ids, fault, created_at, deadline, expires_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)', [
      key,
      domain,
      ids ? 'done' : 'running',
      ids ? ids.join(',') : null,
      now,
      deadline,
      Math.max(deadline, now) + this.ttlMs,
    ]);
    return key;
  }

  async finish(key: string, ids: number[]): Promise<void> {
    await this.db.run("UPDATE pc_listkeys SET state = 'done', ids = ?, expires_at = ? WHERE listkey = ?", [ids.join(','), Date.now() + this.ttlMs, key]);
  }

  async fail(key: string, status: number, fault: FaultBody): Promise<void> {
    await this.db.run("UPDATE pc_listkeys SET state = 'failed', fault = ?, expires_at = ? WHERE listkey = ?", [JSON.stringify({ status, fault }), Date.now() + this.ttlMs, key]);
  }

  /** The key's state, or undefined when it is unknown or expired. */
  async get(key: string): Promise<ListKeyState | undefined> {
    if (!/^\d{1,20}$/.test(key)) return undefined;
    const r = await this.db.one<Row>('SELECT domain, state, ids, fault, deadline, expires_at FROM pc_listkeys WHERE listkey = ?', [key], { hot: true });
    if (!r || Number(r.expires_at) < Date.now()) return undefined;
    if (r.state === 'done') return { state: 'done', domain: r.domain, ids: r.ids ? r.ids.split(',').map(Number) : [] };
    if (r.state === 'failed') {
      const f = JSON.parse(r.fault ?? '{}') as { status: number; fault: FaultBody };
      return { state: 'failed', domain: r.domain, status: f.status, fault: f.fault };
    }
    return { state: 'running', domain: r.domain, deadline: Number(r.deadline) };
  }

  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < 60_000) return;
    this.lastSweep = Date.now();
    await this.db.run('DELETE FROM pc_listkeys WHERE expires_at < ?', [Date.now()]);
  }
}
