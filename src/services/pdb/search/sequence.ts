/**
 * `sequence`: MMseqs2 (the engine the RCSB runs) against databases of the loaded polymer
 * sequences, one per sequence type, written once per archive generation (on the first sequence
 * query after a load). Each query runs `mmseqs search` in a child process of its own, in a temp
 * folder, with a time budget; a run past its budget is killed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, readFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds } from './engine.js';
import { bad, engineUnavailable } from './errors.js';
import type { ReturnType, Terminal } from './request.js';
import { sequencesOf, type Sequences } from './sequences.js';

const MMSEQS = process.env.BIOMIRROR_MMSEQS ?? 'mmseqs';
export const SEQUENCE_BUDGET_MS = Number(process.env.BIOMIRROR_PDB_SEQUENCE_TIMEOUT_MS ?? 60_000);
/** The live service's minimum query length. */
export const MIN_RESIDUES = 25;
/** Longer queries are refused before the engine sees them (the longest PDB chains are ~5,000). */
export const MAX_RESIDUES = 20_000;

const ALPHABET: Record<string, RegExp> = {
  protein: /^[ARNDCEQGHILKMFPSTWYVOUBZX]+$/,
  rna: /^[ACUGNI]+$/,
  dna: /^[ACTGUNI]+$/,
};

let available: boolean | undefined;
export function mmseqsAvailable(): boolean {
  if (available === undefined) {
    const r = spawnSync(MMSEQS, ['version'], { timeout: 10_000, stdio: 'ignore' });
    available = r.status === 0;
  }
  return available;
}

export function mmseqsState(): { state: string } {
  return { state: mmseqsAvailable() ? 'ok' : 'unavailable' };
}

function run(args: string[], budgetMs: number, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(MMSEQS, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 4000) err += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(engineUnavailable(`The sequence search ran past its time limit (${budgetMs} ms)`));
    }, budgetMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(engineUnavailable(`The sequence search engine could not start: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`mmseqs ${args[0]} ended with ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

/** Per generation's sequences: a folder with one MMseqs2 database per sequence type. */
const databases = new WeakMap<Sequences, Promise<string>>();
/** Folders built, oldest first; only the newest few are kept (older generations are retired). */
const built: string[] = [];
const KEEP = 3;

function databaseOf(seqs: Sequences): Promise<string> {
  let p = databases.get(seqs);
  if (!p) {
    p = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'biomirror-mmseqs-'));
      for (const type of ['protein', 'dna', 'rna']) {
        const list = seqs.list.filter((e) => e.type === type);
        if (list.length === 0) continue;
        await mkdir(join(dir, type));
        await writeFile(join(dir, `${type}.fasta`), list.map((e) => `>${e.entity}\n${e.seq}\n`).join(''));
        await run(['createdb', `${type}.fasta`, join(type, 'db'), '--dbtype', type === 'protein' ? '1' : '2', '-v', '1'], 600_000, dir);
        // The k-mer index once, rather than in every search (seconds each otherwise).
        const nucl = type === 'protein' ? [] : ['--search-type', '3'];
        await run(['createindex', join(type, 'db'), join(type, 'tmp'), '-v', '1', '--threads', '2', ...nucl], 1_800_000, dir);
        await rm(join(dir, type, 'tmp'), { recursive: true, force: true });
      }
      built.push(dir);
      while (built.length > KEEP) await rm(built.shift() as string, { recursive: true, force: true });
      return dir;
    })();
    databases.set(seqs, p);
    p.catch(() => databases.delete(seqs));
  }
  return p;
}

const FORMAT = 'query,target,fident,alnlen,mismatch,gapopen,qstart,qend,tstart,tend,evalue,bits,qlen,tlen,qaln,taln';

export async function sequenceTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const target = typeof p.target === 'string' ? /pdb_(\w+)_sequence/.exec(p.target)?.[1] : undefined;
  const type = String(p.sequence_type ?? target ?? 'protein');
  const value = String(p.value).replace(/\s+/g, '').toUpperCase();
  if (value.length > MAX_RESIDUES) throw bad(`The query sequence has ${value.length} residues; at most ${MAX_RESIDUES} are accepted`);
  if (value.length < MIN_RESIDUES) throw bad(`The query sequence must have at least ${MIN_RESIDUES} residues (it has ${value.length})`);
  const alphabet = ALPHABET[type] as RegExp;
  if (!alphabet.test(value)) throw bad(`The query is not a valid ${type} sequence`);
  const evalue = typeof p.evalue_cutoff === 'number' ? p.evalue_cutoff : 1_000_000;
  const identity = typeof p.identity_cutoff === 'number' ? p.identity_cutoff : 0;
  if (!mmseqsAvailable()) throw engineUnavailable('Sequence search is not available on this server: the MMseqs2 program (mmseqs) is not installed');
  const seqs = await sequencesOf(s);
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  if (!seqs.list.some((e) => e.type === type)) return { scores };
  const dbDir = await databaseOf(seqs);
  const work = await mkdtemp(join(tmpdir(), 'biomirror-seq-'));
  try {
    await writeFile(join(work, 'q.fasta'), `>query\n${value}\n`);
    const args = ['easy-search', 'q.fasta', join(dbDir, type, 'db'), 'out.m8', 'tmp', '-e', String(evalue), '--min-seq-id', String(identity), '--format-output', FORMAT, '--threads', '1', '-v', '1', '--max-seqs', '10000'];
    if (type !== 'protein') args.push('--search-type', '3');
    await run(args, SEQUENCE_BUDGET_MS, work);
    const text = await readFile(join(work, 'out.m8'), 'utf8');
    for (const line of text.split('\n')) {
      const c = line.split('\t');
      if (c.length < 16) continue;
      const [, entity = '', fident, alnlen, mism, gaps, qs, qe, ts, te, ev, bits, qlen, tlen, qaln = '', taln = ''] = c;
      const bitscore = Number(bits);
      if (bitscore <= (scores.get(entity) ?? -1)) continue;
      scores.set(entity, bitscore);
      contexts.set(entity, [
        {
          sequence_identity: Number(fident),
          evalue: Number(ev),
          bitscore: Math.round(bitscore),
          alignment_length: Number(alnlen),
          mismatches: Number(mism),
          gaps_opened: Number(gaps),
          query_beg: Number(qs),
          query_end: Number(qe),
          subject_beg: Number(ts),
          subject_end: Number(te),
          query_length: Number(qlen),
          subject_length: Number(tlen),
          query_aligned_seq: qaln,
          subject_aligned_seq: taln,
        },
      ]);
    }
  } catch (err) {
    if (err instanceof Error && err.name !== 'SearchProblem') throw engineUnavailable(`The sequence search failed: ${err.message}`);
    throw err;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return mapIds(s, 'polymer_entity', { scores, contexts }, rt);
}
