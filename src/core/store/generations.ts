import { hostname } from 'node:os';
import type { Db } from './db.js';
import { processAlive } from '../process.js';

export type LoadState = 'loading' | 'active' | 'previous' | 'retired' | 'failed';

/** Provenance of one load, as `status` and the HTTP status endpoint show it. */
export interface LoadRecord {
  id: number;
  service: string;
  dataset: string;
  state: LoadState;
  source: string;
  release: string | null;
  startedAt: string;
  finishedAt: string | null;
  records: number;
  skipped: number;
  details: Record<string, unknown> | null;
  error: string | null;
}

interface LoadRow {
  id: number;
  service: string;
  dataset: string;
  state: LoadState;
  source: string;
  release: string | null;
  started_at: string;
  finished_at: string | null;
  records: number;
  skipped: number;
  details: string | null;
  error: string | null;
}

function toRecord(r: LoadRow): LoadRecord {
  return {
    id: Number(r.id),
    service: r.service,
    dataset: r.dataset,
    state: r.state,
    source: r.source,
    release: r.release,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    records: Number(r.records),
    skipped: Number(r.skipped),
    details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
    error: r.error,
  };
}

interface Pointer {
  active: number | undefined;
  previous: number | undefined;
  at: number;
}

const now = () => new Date().toISOString();

/**
 * Which generation of each dataset is served. Readers cache the pointer briefly; the previous
 * generation stays in the database until the next switch, so a reader that is a moment behind (or
 * a page token issued before the switch) still reads whole, consistent data.
 */
export class Generations {
  private readonly cache = new Map<string, Pointer>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 1000,
  ) {}

  private async pointer(service: string, dataset: string): Promise<Pointer> {
    const key = `${service}/${dataset}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit;
    const row = await this.db.one<{ load_id: number; previous_id: number | null }>('SELECT load_id, previous_id FROM bm_active WHERE service = ? AND dataset = ?', [service, dataset]);
    const p: Pointer = {
      active: row ? Number(row.load_id) : undefined,
      previous: row?.previous_id != null ? Number(row.previous_id) : undefined,
      at: Date.now(),
    };
    this.cache.set(key, p);
    return p;
  }

  /** The generation served now, or undefined when the dataset was never loaded. */
  async active(service: string, dataset: string): Promise<number | undefined> {
    return (await this.pointer(service, dataset)).active;
  }

  /** Whether a generation's tables are still there to read (the active one or the one before). */
  async servable(service: string, dataset: string, gen: number): Promise<boolean> {
    const p = await this.pointer(service, dataset);
    return gen === p.active || gen === p.previous;
  }

  /** The generations whose tables are still there to read: the active one, then the one before. */
  async servableList(service: string, dataset: string): Promise<number[]> {
    const p = await this.pointer(service, dataset);
    return [p.active, p.previous].filter((g): g is number => g !== undefined);
  }

  invalidate(): void {
    this.cache.clear();
  }

  async begin(service: string, dataset: string, source: string): Promise<number> {
    const t = now();
    return this.db.transaction(async (tx) => {
      const sql = 'INSERT INTO bm_loads (service, dataset, state, source, started_at, heartbeat_at, host, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id';
      const row = await tx.one<{ id: number }>(sql, [service, dataset, 'loading', source, t, t, hostname(), process.pid]);
      if (!row) throw new Error('could not record the load');
      return Number(row.id);
    });
  }

  async heartbeat(gen: number, records: number, skipped: number): Promise<void> {
    await this.db.run('UPDATE bm_loads SET heartbeat_at = ?, records = ?, skipped = ? WHERE id = ?', [now(), records, skipped, gen]);
  }

  /**
   * Makes `gen` the served generation in one transaction. Returns the generations that are no longer
   * reachable (the one before the previous), whose tables the caller drops.
   */
  async activate(service: string, dataset: string, gen: number, result: { records: number; skipped: number; release: string | null; details: Record<string, unknown> }): Promise<number[]> {
    const t = now();
    const retired = await this.db.transaction(async (tx) => {
      const cur = await tx.one<{ load_id: number; previous_id: number | null }>('SELECT load_id, previous_id FROM bm_active WHERE service = ? AND dataset = ?', [service, dataset]);
      await tx.run(
        `INSERT INTO bm_active (service, dataset, load_id, previous_id, switched_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (service, dataset) DO UPDATE SET load_id = excluded.load_id, previous_id = excluded.previous_id, switched_at = excluded.switched_at`,
        [service, dataset, gen, cur ? Number(cur.load_id) : null, t],
      );
      const out: number[] = [];
      if (cur) {
        await tx.run("UPDATE bm_loads SET state = 'previous' WHERE id = ?", [Number(cur.load_id)]);
        if (cur.previous_id != null) {
          await tx.run("UPDATE bm_loads SET state = 'retired' WHERE id = ?", [Number(cur.previous_id)]);
          out.push(Number(cur.previous_id));
        }
      }
      await tx.run("UPDATE bm_loads SET state = 'active', finished_at = ?, heartbeat_at = ?, records = ?, skipped = ?, release = ?, details = ? WHERE id = ?", [
        t,
        t,
        result.records,
        result.skipped,
        result.release,
        JSON.stringify(result.details),
        gen,
      ]);
      return out;
    });
    this.cache.delete(`${service}/${dataset}`);
    return retired;
  }

  async fail(gen: number, error: string, records: number, skipped: number): Promise<void> {
    await this.db.run("UPDATE bm_loads SET state = 'failed', finished_at = ?, error = ?, records = ?, skipped = ? WHERE id = ?", [now(), error, records, skipped, gen]);
  }

  /**
   * Loads whose process died (a killed load leaves its tables behind): on this host, a load whose
   * process is gone; from elsewhere, one that stopped heartbeating for `olderThanMs`.
   */
  async abandoned(service: string, dataset: string, olderThanMs: number): Promise<number[]> {
    const cutoff = new Date(Date.now() - olderThanMs).toISOString();
    const rows = await this.db.query<{ id: number; host: string | null; pid: number | null; heartbeat_at: string }>(
      "SELECT id, host, pid, heartbeat_at FROM bm_loads WHERE service = ? AND dataset = ? AND state = 'loading'",
      [service, dataset],
    );
    const here = hostname();
    return rows.filter((r) => (r.host === here && r.pid != null ? !processAlive(Number(r.pid)) : r.heartbeat_at < cutoff)).map((r) => Number(r.id));
  }

  async list(service?: string): Promise<LoadRecord[]> {
    const base = 'SELECT id, service, dataset, state, source, release, started_at, finished_at, records, skipped, details, error FROM bm_loads';
    const rows = service ? await this.db.query<LoadRow>(`${base} WHERE service = ? ORDER BY id`, [service]) : await this.db.query<LoadRow>(`${base} ORDER BY id`);
    return rows.map(toRecord);
  }

  async get(id: number): Promise<LoadRecord | undefined> {
    const r = await this.db.one<LoadRow>('SELECT id, service, dataset, state, source, release, started_at, finished_at, records, skipped, details, error FROM bm_loads WHERE id = ?', [id]);
    return r ? toRecord(r) : undefined;
  }

  /** The load being served for each dataset of a service. */
  async served(service: string): Promise<LoadRecord[]> {
    const rows = await this.db.query<LoadRow>(
      `SELECT l.id, l.service, l.dataset, l.state, l.source, l.release, l.started_at, l.finished_at, l.records, l.skipped, l.details, l.error
       FROM bm_active a JOIN bm_loads l ON l.id = a.load_id WHERE a.service = ? ORDER BY a.dataset`,
      [service],
    );
    return rows.map(toRecord);
  }
}
