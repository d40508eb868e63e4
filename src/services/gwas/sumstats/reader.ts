/**
 * Reads of the summary statistics. Every list is a sequence of segments, one per study in study
 * order: a range of `pos` (position order) or a range of ranks in p-value order. A page at any
 * offset is found by walking the segments' lengths, then read by key: a primary-key range, or a
 * p-value mark plus fewer than 1024 index entries. No query skips rows in proportion to the page.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { CHROM_SHIFT } from './ingest.js';
import { MARK_EVERY, ssTables, type SumstatsTables } from './store.js';

export interface Study {
  sid: number;
  acc: string;
  first: number;
  last: number;
  n: number;
  traits: string[];
  chromosomes: number[];
}

export interface AssocRow {
  pos: number;
  sid: number;
  k: number;
  vid: string;
  ea: string | null;
  oa: string | null;
  eaf: number | null;
  beta: number | null;
  se: number | null;
  odds: number | null;
  ci_l: number | null;
  ci_u: number | null;
  pm: number;
  pe: number;
}

/** A study's part of a list: [from, to) in positions or in p-value ranks. */
export interface Segment {
  study: Study;
  from: number;
  to: number;
}

/** The p-value bounds of a list as log10(p), inclusive. */
export interface PRange {
  lo?: number;
  hi?: number;
}

const COLS = 'pos, sid, k, vid, ea, oa, eaf, beta, se, odds, ci_l, ci_u, pm, pe';

function toRow(r: Record<string, unknown>): AssocRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    pos: Number(r.pos),
    sid: Number(r.sid),
    k: Number(r.k),
    vid: String(r.vid),
    ea: (r.ea as string | null) ?? null,
    oa: (r.oa as string | null) ?? null,
    eaf: num(r.eaf),
    beta: num(r.beta),
    se: num(r.se),
    odds: num(r.odds),
    ci_l: num(r.ci_l),
    ci_u: num(r.ci_u),
    pm: Number(r.pm),
    pe: Number(r.pe),
  };
}

export function total(segments: readonly Segment[]): number {
  return segments.reduce((a, s) => a + (s.to - s.from), 0);
}

/** The parts of the segments a page covers: `offset` items in, at most `limit` of them. */
export function slice(segments: readonly Segment[], offset: number, limit: number): Segment[] {
  const out: Segment[] = [];
  let skip = offset;
  let want = limit;
  for (const s of segments) {
    if (want <= 0) break;
    const len = s.to - s.from;
    if (skip >= len) {
      skip -= len;
      continue;
    }
    const from = s.from + skip;
    const take = Math.min(want, s.to - from);
    out.push({ study: s.study, from, to: from + take });
    want -= take;
    skip = 0;
  }
  return out;
}

export class SumstatsReader {
  readonly n: SumstatsTables;
  private cached: Promise<Study[]> | undefined;

  constructor(
    private readonly db: Db,
    t: TableSet,
  ) {
    this.n = ssTables(t);
  }

  /** The loaded studies, in study order (few; kept in memory per generation). */
  studies(): Promise<Study[]> {
    this.cached ??= this.db.query<Record<string, unknown>>(`SELECT sid, acc, first_pos, last_pos, n, traits, chromosomes FROM ${this.n.studies} ORDER BY sid`).then((rows) =>
      rows.map((r) => ({
        sid: Number(r.sid),
        acc: String(r.acc),
        first: Number(r.first_pos),
        last: Number(r.last_pos),
        n: Number(r.n),
        traits: JSON.parse(String(r.traits)) as string[],
        chromosomes: JSON.parse(String(r.chromosomes)) as number[],
      })),
    );
    return this.cached;
  }

  /** First position of a study whose key is at least `k0`, or last + 1. */
  private async lower(s: Study, k0: number): Promise<number> {
    const m = await this.db.one<{ pos: number }>(`SELECT pos FROM ${this.n.marks} WHERE sid = ? AND k < ? ORDER BY k DESC, pos DESC LIMIT 1`, [s.sid, k0], { hot: true });
    if (!m) return s.first;
    const from = Number(m.pos);
    const r = await this.db.one<{ p: number | null }>(`SELECT MIN(pos) AS p FROM ${this.n.assoc} WHERE pos > ? AND pos <= ? AND k >= ?`, [from, Math.min(from + MARK_EVERY, s.last), k0], {
      hot: true,
    });
    return r?.p == null ? s.last + 1 : Number(r.p);
  }

  /** Last position of a study whose key is at most `k1`, or first - 1. */
  private async upper(s: Study, k1: number): Promise<number> {
    const m = await this.db.one<{ pos: number }>(`SELECT pos FROM ${this.n.marks} WHERE sid = ? AND k <= ? ORDER BY k DESC, pos DESC LIMIT 1`, [s.sid, k1], { hot: true });
    if (!m) return s.first - 1;
    const from = Number(m.pos);
    const r = await this.db.one<{ p: number | null }>(`SELECT MAX(pos) AS p FROM ${this.n.assoc} WHERE pos >= ? AND pos <= ? AND k <= ?`, [from, Math.min(from + MARK_EVERY, s.last), k1], {
      hot: true,
    });
    return r?.p == null ? from : Number(r.p);
  }

  /** The positions of each study on a chromosome between two base pairs (inclusive). */
  async rangeSegments(studies: readonly Study[], chromosome: number, start: number, end: number): Promise<Segment[]> {
    const out: Segment[] = [];
    for (const s of studies) {
      if (s.n === 0 || !s.chromosomes.includes(chromosome)) continue;
      const a = await this.lower(s, chromosome * CHROM_SHIFT + start);
      const b = await this.upper(s, chromosome * CHROM_SHIFT + end);
      if (a <= b) out.push({ study: s, from: a, to: b + 1 });
    }
    return out;
  }

  /** Whole studies, in position order. */
  wholeSegments(studies: readonly Study[]): Segment[] {
    return studies.filter((s) => s.n > 0).map((s) => ({ study: s, from: s.first, to: s.last + 1 }));
  }

  async rowsAt(parts: readonly Segment[]): Promise<AssocRow[]> {
    const out: AssocRow[] = [];
    for (const p of parts) {
      const rows = await this.db.query<Record<string, unknown>>(`SELECT ${COLS} FROM ${this.n.assoc} WHERE pos >= ? AND pos < ? ORDER BY pos`, [p.from, p.to], {
        hot: true,
      });
      out.push(...rows.map(toRow));
    }
    return out;
  }

  /** How many rows of a study have log10(p) below `bound` (or at most, with `inclusive`). */
  private async rank(s: Study, bound: number, inclusive: boolean): Promise<number> {
    const op = inclusive ? '<=' : '<';
    const m = await this.db.one<{ rnk: number; plog: number; pos: number }>(`SELECT rnk, plog, pos FROM ${this.n.pmarks} WHERE sid = ? AND plog ${op} ? ORDER BY plog DESC, pos DESC LIMIT 1`, [
      s.sid,
      bound,
    ]);
    if (!m) return 0;
    // The band between the mark and the bound, spelled as a plain range on plog: PostgreSQL cannot
    // estimate a row comparison and would scan the table instead of this index range.
    const c = await this.db.one<{ c: number }>(`SELECT COUNT(*) AS c FROM ${this.n.assoc} WHERE sid = ? AND plog >= ? AND plog ${op} ? AND (plog > ? OR pos >= ?)`, [
      s.sid,
      Number(m.plog),
      bound,
      Number(m.plog),
      Number(m.pos),
    ]);
    return Number(m.rnk) + Number(c?.c ?? 0);
  }

  /** Each study's rows within the p-value range, as ranks in p-value order. */
  async pSegments(studies: readonly Study[], range: PRange): Promise<Segment[]> {
    const out: Segment[] = [];
    for (const s of studies) {
      if (s.n === 0) continue;
      const from = range.lo === undefined ? 0 : await this.rank(s, range.lo, false);
      const to = range.hi === undefined ? s.n : await this.rank(s, range.hi, true);
      if (from < to) out.push({ study: s, from, to });
    }
    return out;
  }

  async rowsByRank(parts: readonly Segment[]): Promise<AssocRow[]> {
    const out: AssocRow[] = [];
    for (const p of parts) {
      const m = await this.db.one<{ rnk: number; plog: number; pos: number }>(
        `SELECT rnk, plog, pos FROM ${this.n.pmarks} WHERE sid = ? AND rnk <= ? ORDER BY rnk DESC LIMIT 1`,
        [p.study.sid, p.from],
        { hot: true },
      );
      if (!m) continue;
      const rows = await this.db.query<Record<string, unknown>>(`SELECT ${COLS} FROM ${this.n.assoc} WHERE sid = ? AND (plog, pos) >= (?, ?) ORDER BY plog, pos LIMIT ? OFFSET ?`, [
        p.study.sid,
        Number(m.plog),
        Number(m.pos),
        p.to - p.from,
        p.from - Number(m.rnk),
      ]);
      out.push(...rows.map(toRow));
    }
    return out;
  }

  /** Rows of one variant (one per study at most, usually), with optional filters. */
  async variantRows(vid: string, filter: { sids?: number[]; p?: PRange; chromosome?: number }, limit: number, offset: number): Promise<{ rows: AssocRow[]; total: number }> {
    const where = ['vid = ?'];
    const params: SqlValue[] = [vid];
    if (filter.sids) {
      where.push(`sid IN (${filter.sids.map(() => '?').join(', ') || 'NULL'})`);
      params.push(...filter.sids);
    }
    if (filter.chromosome !== undefined) {
      where.push('k >= ? AND k < ?');
      params.push(filter.chromosome * CHROM_SHIFT, (filter.chromosome + 1) * CHROM_SHIFT);
    }
    if (filter.p?.lo !== undefined) {
      where.push('plog >= ?');
      params.push(filter.p.lo);
    }
    if (filter.p?.hi !== undefined) {
      where.push('plog <= ?');
      params.push(filter.p.hi);
    }
    const w = where.join(' AND ');
    const c = await this.db.one<{ c: number }>(`SELECT COUNT(*) AS c FROM ${this.n.assoc} WHERE ${w}`, params);
    const rows = await this.db.query<Record<string, unknown>>(`SELECT ${COLS} FROM ${this.n.assoc} WHERE ${w} ORDER BY pos LIMIT ? OFFSET ?`, [...params, limit, offset]);
    return { rows: rows.map(toRow), total: Number(c?.c ?? 0) };
  }

  /** Whether any study has this variant, and where (for the variant resource). */
  async variant(vid: string): Promise<AssocRow | undefined> {
    const r = await this.db.one<Record<string, unknown>>(`SELECT ${COLS} FROM ${this.n.assoc} WHERE vid = ? ORDER BY pos LIMIT 1`, [vid], { hot: true });
    return r ? toRow(r) : undefined;
  }
}
