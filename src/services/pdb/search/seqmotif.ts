/**
 * `seqmotif`: simple, PROSITE and regular-expression patterns matched exactly against every loaded
 * polymer sequence of the requested type. Simple and PROSITE patterns are translated to regular
 * expressions; all patterns run on a thread of their own with a time budget (a user's regular
 * expression may backtrack without end), which is terminated when it passes the budget.
 */
import { Worker } from 'node:worker_threads';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds } from './engine.js';
import { bad, engineUnavailable } from './errors.js';
import type { ReturnType, Terminal } from './request.js';
import { sequencesOf, type Sequences } from './sequences.js';

const WORKER = new URL('../../../../src/services/pdb/search/motif-worker.mjs', import.meta.url);
/** Time one pattern may scan for (settable, for tests). */
export const motifBudget = { ms: Number(process.env.BIOMIRROR_PDB_MOTIF_TIMEOUT_MS ?? 5_000) };
const MAX_PATTERN = 1_000;
/** The live client refuses patterns shorter than this. */
const MIN_PATTERN = 2;

const ONE_LETTER = /^[A-Z]$/;

/** `X` (any residue) and letters: `CXXC`. */
export function simpleToRegex(p: string): string {
  const s = p.toUpperCase();
  if (!/^[A-Z]+$/.test(s)) throw bad(`A simple sequence motif takes residue letters and X only: ${p}`);
  return s.replace(/X/g, '.');
}

/** PROSITE syntax (`C-x(2,4)-C-x(3)-[LIVMFYWC]-x(8)-H-x(3,5)-H.`) as a regular expression. */
export function prositeToRegex(p: string): string {
  let s = p.trim().toUpperCase();
  if (s.endsWith('.')) s = s.slice(0, -1);
  if (s.length === 0) throw bad('An empty PROSITE pattern');
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
    if (!m) throw bad(`Not a PROSITE pattern element: ${el}`);
    let atom: string;
    if (m[1] === 'X') atom = '.';
    else if (ONE_LETTER.test(m[1] as string)) atom = m[1] as string;
    else if (m[2] !== undefined) atom = m[3] ? `(?:[${m[2]}]|$)` : `[${m[2]}]`;
    else atom = `[^${m[4]}]`;
    if (m[5] !== undefined) {
      const lo = Number(m[5]);
      const hi = m[6] === undefined ? lo : Number(m[6]);
      if (lo > hi || hi > 1000) throw bad(`A PROSITE repeat out of bounds: ${el}`);
      atom += m[6] === undefined ? `{${lo}}` : `{${lo},${hi}}`;
    }
    out += atom;
    if (end) out += '$';
  });
  return out;
}

function regexOf(value: string, type: string): string {
  if (value.length < MIN_PATTERN) throw bad(`A sequence motif needs at least ${MIN_PATTERN} characters`);
  if (value.length > MAX_PATTERN) throw bad(`A sequence motif takes at most ${MAX_PATTERN} characters`);
  const source = type === 'simple' ? simpleToRegex(value) : type === 'prosite' ? prositeToRegex(value) : value;
  try {
    new RegExp(source);
  } catch (err) {
    throw bad(`Not a valid regular expression: ${(err as Error).message}`);
  }
  return source;
}

/** Sequence types as the thread holds them. */
const TYPE_CODE: Record<string, number> = { other: 0, protein: 1, dna: 2, rna: 3 };

type Reply = { id: number; hits?: [number, number[]][]; error?: string; loaded?: boolean; ready?: boolean };

/** One scanning thread: started on first use, loaded once per generation, ended past a budget. */
class MotifThread {
  private worker: Worker | undefined;
  private loaded: Sequences | undefined;
  private seq = 0;
  private chain: Promise<unknown> = Promise.resolve();
  restarts = 0;

  run(seqs: Sequences, source: string, type: string, budgetMs: number): Promise<[number, number[]][]> {
    const next = this.chain.then(() => this.scan(seqs, source, type, budgetMs));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private send(msg: Record<string, unknown>, budgetMs: number): Promise<Reply> {
    const w = this.worker as Worker;
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.kill();
        reject(engineUnavailable(`The sequence motif search ran past its time limit (${budgetMs} ms): simplify the pattern`));
      }, budgetMs);
      const onMessage = (m: Reply) => {
        if (m.id !== id) return;
        cleanup();
        resolve(m);
      };
      const onExit = () => {
        cleanup();
        this.worker = undefined;
        reject(engineUnavailable('The sequence motif search stopped unexpectedly'));
      };
      const cleanup = () => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('exit', onExit);
      };
      w.on('message', onMessage);
      w.on('exit', onExit);
      w.postMessage({ ...msg, id });
    });
  }

  private kill(): void {
    const w = this.worker;
    this.worker = undefined;
    this.loaded = undefined;
    this.restarts++;
    if (w) void w.terminate();
  }

  private async scan(seqs: Sequences, source: string, type: string, budgetMs: number): Promise<[number, number[]][]> {
    if (!this.worker) {
      this.worker = new Worker(WORKER);
      this.worker.unref();
      this.loaded = undefined;
    }
    if (this.loaded !== seqs) {
      // One string and one byte per sequence: copied to the thread far faster than 100,000 strings.
      const types = Uint8Array.from(seqs.list.map((e) => TYPE_CODE[e.type] ?? 0));
      await this.send({ load: { text: seqs.list.map((e) => e.seq).join('\n'), types } }, 120_000);
      this.loaded = seqs;
    }
    const r = await this.send({ source, type: TYPE_CODE[type] ?? 1 }, budgetMs);
    if (r.error) throw bad(`Not a usable pattern: ${r.error}`);
    return r.hits ?? [];
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}

export const motifThread = new MotifThread();

export async function seqmotifTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const target = typeof p.target === 'string' ? /pdb_(\w+)_sequence/.exec(p.target)?.[1] : undefined;
  const type = String(p.sequence_type ?? target ?? 'protein');
  const source = regexOf(String(p.value), String(p.pattern_type));
  const seqs = await sequencesOf(s);
  const hits = seqs.list.length ? await motifThread.run(seqs, source, type, motifBudget.ms) : [];
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  for (const [i, spans] of hits) {
    const e = seqs.list[i];
    if (!e) continue;
    scores.set(e.entity, 1);
    const ctx: Record<string, unknown>[] = [];
    for (let k = 0; k < spans.length; k += 2) ctx.push({ start: spans[k], end: spans[k + 1] });
    contexts.set(e.entity, ctx);
  }
  return mapIds(s, 'polymer_entity', { scores, contexts }, rt);
}
