/**
 * `sequence`: MMseqs2 (the engine the RCSB runs) against the databases of the loaded polymer
 * sequences, one per sequence type, with their k-mer indexes, built by the archive load
 * (engine-indexes.ts). Each query runs `mmseqs easy-search` in a child process of its own, in a
 * temp folder, with a time budget; a run past its budget is killed.
 */
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds } from './engine.js';
import { sequenceIndex } from '../build/engine-indexes.js';
import { ServiceError } from '../../../../core/http/errors.js';
import { badQuery, engineUnavailable } from '../../errors.js';
import { mmseqs } from '../mmseqs.js';
import type { ReturnType, Terminal } from './request.js';

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

const FORMAT = 'query,target,fident,alnlen,mismatch,gapopen,qstart,qend,tstart,tend,evalue,bits,qlen,tlen,qaln,taln';

export async function sequenceTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const target = typeof p.target === 'string' ? /pdb_(\w+)_sequence/.exec(p.target)?.[1] : undefined;
  const type = String(p.sequence_type ?? target ?? 'protein');
  const value = String(p.value).replace(/\s+/g, '').toUpperCase();
  if (value.length > MAX_RESIDUES) throw badQuery(`The query sequence has ${value.length} residues; at most ${MAX_RESIDUES} are accepted`);
  if (value.length < MIN_RESIDUES) throw badQuery(`The query sequence must have at least ${MIN_RESIDUES} residues (it has ${value.length})`);
  const alphabet = ALPHABET[type] as RegExp;
  if (!alphabet.test(value)) throw badQuery(`The query is not a valid ${type} sequence`);
  const evalue = typeof p.evalue_cutoff === 'number' ? p.evalue_cutoff : 1_000_000;
  const identity = typeof p.identity_cutoff === 'number' ? p.identity_cutoff : 0;
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  if (!s.archive) return { scores };
  const { dir: dbDir, seqs } = await sequenceIndex(s, 'Sequence search');
  if (!seqs.list.some((e) => e.type === type)) return { scores };
  const work = await mkdtemp(join(tmpdir(), 'biomirror-seq-'));
  try {
    await writeFile(join(work, 'q.fasta'), `>query\n${value}\n`);
    const args = [
      'easy-search',
      'q.fasta',
      join(dbDir, type, 'db'),
      'out.m8',
      'tmp',
      '-e',
      String(evalue),
      '--min-seq-id',
      String(identity),
      '--format-output',
      FORMAT,
      '--threads',
      '1',
      '-v',
      '1',
      '--max-seqs',
      '10000',
    ];
    if (type !== 'protein') args.push('--search-type', '3');
    await mmseqs(args, SEQUENCE_BUDGET_MS, work);
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
    if (err instanceof Error && !(err instanceof ServiceError)) throw engineUnavailable(`The sequence search failed: ${err.message}`);
    throw err;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return mapIds(s, 'polymer_entity', { scores, contexts }, rt);
}
