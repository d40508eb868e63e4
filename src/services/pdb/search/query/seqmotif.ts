/**
 * `seqmotif`: simple, PROSITE and regular-expression patterns matched exactly against every loaded
 * polymer sequence of the requested type. Simple and PROSITE patterns are translated to regular
 * expressions; all patterns run on a thread of their own with a time budget (a user's regular
 * expression may backtrack without end), which is terminated when it passes the budget.
 */
import type { SearchScope, TerminalPager, TerminalResult } from './engine.js';
import { mapIds } from './engine.js';
import { badQuery, engineUnavailable } from '../../errors.js';
import type { ReturnType, Terminal } from './request.js';
import { sequencesOf, type EntitySequence, type Sequences } from '../sequences.js';
import { sourceUrl } from '../../../../core/files/project.js';
import { WorkerPool } from '../../../../core/workers/pool.js';

const WORKER = sourceUrl('services/pdb/search/query/motif-worker.mjs');
/** Time one pattern may scan for (settable, for tests). */
export const motifBudget = { ms: Number(process.env.BIOMIRROR_PDB_MOTIF_TIMEOUT_MS ?? 5_000) };
const MAX_PATTERN = 1_000;
/** The live client refuses patterns shorter than this. */
const MIN_PATTERN = 2;

const ONE_LETTER = /^[A-Z]$/;

/** `X` (any residue) and letters: `CXXC`. */
export function simpleToRegex(p: string): string {
  const s = p.toUpperCase();
  if (!/^[A-Z]+$/.test(s)) throw badQuery(`A simple sequence motif takes residue letters and X only: ${p}`);
  return s.replace(/X/g, '.');
}

/** PROSITE syntax (`C-x(2,4)-C-x(3)-[LIVMFYWC]-x(8)-H-x(3,5)-H.`) as a regular expression. */
export function prositeToRegex(p: string): string {
  let s = p.trim().toUpperCase();
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s.length === 0) throw badQuery('An empty PROSITE pattern');
  const parts = s.split('-');
  let out = '';
  parts.forEach((el, i) => {
    let e = el;
    if (i === 0 && e.startsWith('<')) {
      out += '^';
      e = e.slice(1);
    }
    let end = false;
    if (i === parts.length - 1 && e.endsWith('>')) {
      end = true;
      e = e.slice(0, -1);
    }
    const m = /^(X|[A-Z]|\[([A-Z]+)(>?)\]|\{([A-Z]+)\})(?:\((\d+)(?:,(\d+))?\))?$/.exec(e);
    if (!m) throw badQuery(`Not a PROSITE pattern element: ${el}`);
    let atom: string;
    if (m[1] === 'X') atom = '.';
    else if (ONE_LETTER.test(m[1] as string)) atom = m[1] as string;
    else if (m[2] !== undefined) atom = m[3] ? `(?:[${m[2]}]|$)` : `[${m[2]}]`;
    else atom = `[^${m[4]}]`;
    if (m[5] !== undefined) {
      const lo = Number(m[5]);
      const hi = m[6] === undefined ? lo : Number(m[6]);
      if (lo > hi || hi > 1000) throw badQuery(`A PROSITE repeat out of bounds: ${el}`);
      atom += m[6] === undefined ? `{${lo}}` : `{${lo},${hi}}`;
    }
    out += atom;
    if (end) out += '$';
  });
  return out;
}

function regexOf(value: string, type: string): string {
  if (value.length < MIN_PATTERN) throw badQuery(`A sequence motif needs at least ${MIN_PATTERN} characters`);
  if (value.length > MAX_PATTERN) throw badQuery(`A sequence motif takes at most ${MAX_PATTERN} characters`);
  const source = type === 'simple' ? simpleToRegex(value) : type === 'prosite' ? prositeToRegex(value) : value;
  try {
    new RegExp(source);
  } catch (err) {
    throw badQuery(`Not a valid regular expression: ${(err as Error).message}`);
  }
  return source;
}

/** Sequence types as the thread holds them. */
const TYPE_CODE: Record<string, number> = { other: 0, protein: 1, dna: 2, rna: 3 };

type Reply = { id?: number; hits?: Int32Array; count?: number; spans?: number[][]; error?: string; loaded?: boolean };

/**
 * One scanning thread (a pool of one on core's worker pool): started on first use, loaded once per
 * generation, ended past a budget. A thread that is replaced (past its budget, or after a fault)
 * has lost its sequences: the next task loads them again.
 */
class MotifThread {
  private pool: WorkerPool | undefined;
  private loaded: Sequences | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  restarts = 0;

  /** The indexes of the sequences of a type that the pattern matches. */
  run(seqs: Sequences, source: string, type: string, budgetMs: number): Promise<Int32Array> {
    return this.queue(async () => (await this.ask(seqs, { source, type: TYPE_CODE[type] ?? 1 }, budgetMs)).hits ?? new Int32Array(0));
  }

  /** How many sequences of a type the pattern matches, and the indexes of those in a window of them. */
  async count(seqs: Sequences, source: string, type: string, window: { start: number; rows: number }, budgetMs: number): Promise<{ count: number; hits: Int32Array }> {
    const r = await this.queue(() => this.ask(seqs, { source, type: TYPE_CODE[type] ?? 1, window }, budgetMs));
    return { count: r.count ?? 0, hits: r.hits ?? new Int32Array(0) };
  }

  /** Where the pattern matches in each of the given sequences: start and end pairs, 1-based. */
  spans(seqs: Sequences, source: string, indexes: number[], budgetMs: number): Promise<number[][]> {
    return this.queue(async () => (await this.ask(seqs, { source, spansOf: indexes }, budgetMs)).spans ?? []);
  }

  /** One load and its task at a time: another caller's load never comes between them. */
  private queue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private start(): WorkerPool {
    const stopped = () => engineUnavailable('The sequence motif search stopped unexpectedly');
    return new WorkerPool({
      script: WORKER,
      size: 1,
      errors: {
        closed: stopped,
        lost: stopped,
        timeout: (_, t) => engineUnavailable(`The sequence motif search ran past its time limit (${t.budgetMs} ms): simplify the pattern`),
      },
      onEvent: (e) => {
        if (e === 'deadline') this.restarts++;
        if (e === 'deadline' || e === 'fault') this.loaded = undefined;
      },
    });
  }

  private async ask(seqs: Sequences, msg: Record<string, unknown>, budgetMs: number): Promise<Reply> {
    const pool = (this.pool ??= this.start());
    if (this.loaded !== seqs) {
      // One string and one byte per sequence: copied to the thread far faster than 100,000 strings.
      const types = Uint8Array.from(seqs.list.map((e) => TYPE_CODE[e.type] ?? 0));
      await pool.run<Reply>({ load: { text: seqs.list.map((e) => e.seq).join('\n'), types } }, { budgetMs: 120_000 });
      this.loaded = seqs;
    }
    const r = await pool.run<Reply>(msg, { budgetMs });
    if (r.error) throw badQuery(`Not a usable pattern: ${r.error}`);
    return r;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.loaded = undefined;
    await pool?.close();
  }
}

export const motifThread = new MotifThread();

// Each sequence's place in the list the thread holds, per generation's list.
const places = new WeakMap<Sequences, Map<string, number>>();
function placeOf(seqs: Sequences): Map<string, number> {
  let m = places.get(seqs);
  if (!m) places.set(seqs, (m = new Map(seqs.list.map((e, i) => [e.entity, i]))));
  return m;
}

export async function seqmotifTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const { type, source } = motifOf(t);
  const seqs = await sequencesOf(s);
  const hits = seqs.list.length ? await motifThread.run(seqs, source, type, motifBudget.ms) : new Int32Array(0);
  const scores = new Map<string, number>();
  for (const i of hits) {
    const e = seqs.list[i];
    if (e) scores.set(e.entity, 1);
  }
  // Match positions are read for the hits a verbose response shows, not for every hit.
  const contextsOf = (ids: string[]) => contextsFor(seqs, source, ids);
  return mapIds(s, 'polymer_entity', { scores, contextsOf }, rt);
}

async function contextsFor(seqs: Sequences, source: string, ids: string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const place = placeOf(seqs);
  const known = ids.filter((id) => place.has(id));
  const spans = await motifThread.spans(
    seqs,
    source,
    known.map((id) => place.get(id) as number),
    motifBudget.ms,
  );
  const out = new Map<string, Record<string, unknown>[]>();
  known.forEach((id, k) => {
    const found = spans[k] ?? [];
    const ctx: Record<string, unknown>[] = [];
    for (let j = 0; j < found.length; j += 2) ctx.push({ start: found[j], end: found[j + 1] });
    out.set(id, ctx);
  });
  return out;
}

function motifOf(t: Terminal): { type: string; source: string } {
  const p = t.parameters;
  const target = typeof p.target === 'string' ? /pdb_(\w+)_sequence/.exec(p.target)?.[1] : undefined;
  return { type: String(p.sequence_type ?? target ?? 'protein'), source: regexOf(String(p.value), String(p.pattern_type)) };
}

// Whether a generation's list is in identifier order (it is read so; checked once).
const ordered = new WeakMap<Sequences, boolean>();
function inIdOrder(seqs: Sequences): boolean {
  let o = ordered.get(seqs);
  if (o === undefined) {
    o = seqs.list.every((e, i) => i === 0 || (seqs.list[i - 1] as EntitySequence).entity < e.entity);
    ordered.set(seqs, o);
  }
  return o;
}

/**
 * A motif query on its own, answered by the scanning thread: the count and the page's entities.
 * Every hit scores the same, so the page is the hits in identifier order, the list's own order;
 * undefined when that does not hold (other return types go through the entry mappings).
 */
export const seqmotifPage: TerminalPager = async (t, rt, s, window, contexts) => {
  if (rt !== 'polymer_entity') return undefined;
  const { type, source } = motifOf(t);
  const seqs = await sequencesOf(s);
  if (!inIdOrder(seqs)) return undefined;
  if (seqs.list.length === 0) return { total: 0, top: 1, hits: [] };
  const r = await motifThread.count(seqs, source, type, window, motifBudget.ms);
  const ids = [...r.hits].map((i) => (seqs.list[i] as EntitySequence).entity);
  const ctx = contexts && ids.length ? await contextsFor(seqs, source, ids) : undefined;
  return { total: r.count, top: 1, hits: ids.map((id) => ({ id, score: 1, context: ctx?.get(id) })) };
};
