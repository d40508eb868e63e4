/**
 * The sequence engine's index folder: one MMseqs2 database per sequence type with its k-mer
 * index (`createindex`, so a search does not rebuild it), and the clusters of the protein
 * sequences that `group_by` `sequence_identity` reads, computed as the RCSB computes its own, with
 * MMseqs2 (both sequences of a pair covered over 90 % of their length).
 *
 * Cluster numbers: at each cutoff the clusters are numbered from 1, largest first (ties by the
 * smallest entity id of each), and a group is named `<number>_<cutoff>` as the RCSB names its own.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ownWorker } from '../../../../core/children.js';
import { engineUnavailable } from '../../errors.js';
import { mmseqs, mmseqsVersion } from '../mmseqs.js';
import type { EntitySequence } from '../sequences.js';
import { sourceUrl } from '../../../../core/files/project.js';

/** Cutoffs clustered by MMseqs2 (100 % is identical sequences, computed without it). */
export const CLUSTER_CUTOFFS = [95, 90, 70, 50, 30] as const;
export const SEQUENCE_TYPES = ['protein', 'dna', 'rna'] as const;
const FORMAT = 'biomirror sequences index v1';
/** Time a whole build step may take (the k-mer index of a million sequences takes minutes). */
const BUILD_BUDGET_MS = Number(process.env.BIOMIRROR_PDB_INDEX_BUILD_TIMEOUT_MS ?? 4 * 3600_000);
const COVERAGE = '0.9';
/** Sequences below which a clustering level runs one prefilter instead of a cascade of three. */
const SINGLE_STEP_BELOW = 20_000;
/**
 * MMseqs2's k-mer index takes about 0.9 GB and seconds to write whatever the size of the
 * database; below this many residues a search computes its k-mers as it runs (a second or two)
 * and no index is written.
 */
export const KMER_INDEX_MIN_RESIDUES = Number(process.env.BIOMIRROR_PDB_KMER_INDEX_MIN_RESIDUES ?? 2_000_000);

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const hashes = new WeakMap<readonly EntitySequence[], string>();

/** What the folder is built from: the sequences, the engine's version and this format. */
export function sequencesHash(list: readonly EntitySequence[]): string {
  let h = hashes.get(list);
  if (h === undefined) {
    const hash = createHash('sha256').update(`${FORMAT}\n${mmseqsVersion()}\nk-mer index from ${KMER_INDEX_MIN_RESIDUES} residues\n`);
    for (const e of [...list].sort((a, b) => byCodeUnit(a.entity, b.entity))) hash.update(`${e.entity}\t${e.type}\t${e.seq}\n`);
    h = hash.digest('hex');
    hashes.set(list, h);
  }
  return h;
}

const threads = () => String(Math.max(1, Math.min(8, availableParallelism())));

// Plain JavaScript in the source tree; from the build this path leads back to it.
const WORKER = sourceUrl('services/pdb/search/build/seq-index-worker.mjs');

/** What the index is written from, of each sequence. */
export type IndexedSequence = Pick<EntitySequence, 'entity' | 'type' | 'seq'>;

/**
 * Writes the databases, their indexes and the clusters of `list` into `dir`, in a thread of its
 * own: the build is a chain of MMseqs2 runs, each started when the one before ends, and the thread
 * that asks (a load building its search index, a server answering requests) can be busy for
 * seconds at a time.
 */
export function writeSequenceIndex(dir: string, list: readonly EntitySequence[]): Promise<void> {
  const sequences: IndexedSequence[] = list.map((e) => ({ entity: e.entity, type: e.type, seq: e.seq }));
  return new Promise((resolve, reject) => {
    // Ended with the server: a build of the whole archive runs for minutes.
    const w = ownWorker(new Worker(WORKER, { workerData: { dir, list: sequences } }));
    let settled = false;
    const end = (err?: Error) => {
      if (settled) return;
      settled = true;
      void w.terminate();
      if (err) reject(err);
      else resolve();
    };
    w.on('message', (m: { done?: boolean; error?: string }) => end(m.error === undefined ? undefined : engineUnavailable(m.error)));
    w.on('error', (err) => end(err));
    w.on('exit', (code) => end(new Error(`the sequence index thread stopped (exit code ${code})`)));
  });
}

/**
 * The same in this thread (the index thread's work). The clusters are computed while the search
 * databases are written (a k-mer index of the whole archive takes minutes).
 */
export async function writeSequenceIndexHere(dir: string, list: readonly IndexedSequence[]): Promise<void> {
  // The RCSB clusters protein sequences only; other polymers stay ungrouped.
  const proteins = list.filter((e) => e.type === 'protein');
  // Both chains run to their end before a failure of either is reported (no run is left behind).
  const [dbs, clusters] = await Promise.allSettled([searchDatabases(dir, list), proteins.length ? clusterProteins(join(dir, 'clusters'), proteins) : Promise.resolve({})]);
  if (dbs.status === 'rejected') throw dbs.reason;
  if (clusters.status === 'rejected') throw clusters.reason;
  await writeFile(join(dir, 'clusters.json'), JSON.stringify(clusters.value));
}

/** One MMseqs2 database per sequence type, with its k-mer index where large enough. */
async function searchDatabases(dir: string, list: readonly IndexedSequence[]): Promise<void> {
  for (const type of SEQUENCE_TYPES) {
    const of = list.filter((e) => e.type === type).sort((a, b) => byCodeUnit(a.entity, b.entity));
    if (of.length === 0) continue;
    await mkdir(join(dir, type));
    await writeFile(join(dir, `${type}.fasta`), of.map((e) => `>${e.entity}\n${e.seq}\n`).join(''));
    const dbtype = type === 'protein' ? '1' : '2';
    await mmseqs(['createdb', `${type}.fasta`, join(type, 'db'), '--dbtype', dbtype, '-v', '1'], BUILD_BUDGET_MS, dir);
    const nucl = type === 'protein' ? [] : ['--search-type', '3'];
    const residues = of.reduce((n, e) => n + e.seq.length, 0);
    if (residues >= KMER_INDEX_MIN_RESIDUES) {
      try {
        await mmseqs(['createindex', join(type, 'db'), join(type, 'tmp'), '-v', '1', '--threads', threads(), ...nucl], BUILD_BUDGET_MS, dir);
      } catch (err) {
        // Nucleic-acid chains shorter than a k-mer (14) give no index; searches then compute their
        // k-mers as they run.
        if (type === 'protein') throw err;
      }
    }
    await rm(join(dir, type, 'tmp'), { recursive: true, force: true });
    await rm(join(dir, `${type}.fasta`));
  }
}

/**
 * Clusters at every cutoff, each level over the representatives of the one above (as UniRef50 is
 * built from UniRef90): the distinct sequences first, then `linclust` at 95 and 90 % (made for
 * high identity, in linear time), then `cluster` at 70, 50 and 30 %. An entity's cluster at a level
 * is its representative's.
 */
async function clusterProteins(work: string, proteins: readonly IndexedSequence[]): Promise<Record<string, Record<string, number>>> {
  await mkdir(work);
  // Identical sequences: the smallest entity id stands for them all.
  const rep = new Map<string, string>();
  const head = new Map<string, string>();
  for (const e of [...proteins].sort((a, b) => byCodeUnit(a.entity, b.entity))) {
    const h = rep.get(e.seq) ?? e.entity;
    rep.set(e.seq, h);
    head.set(e.entity, h);
  }
  await writeFile(join(work, 'unique.fasta'), [...rep].map(([seq, id]) => `>${id}\n${seq}\n`).join(''));
  await mmseqs(['createdb', 'unique.fasta', 'l100', '--dbtype', '1', '-v', '1'], BUILD_BUDGET_MS, work);
  let current = 'l100';
  let count = rep.size;
  // Per level, the representative of each sequence of the level above.
  const parents = new Map<number, Map<string, string>>();
  for (const c of CLUSTER_CUTOFFS) {
    // One sequence left is its own cluster at every level below.
    if (count < 2) break;
    const how = c >= 90 ? 'linclust' : 'cluster';
    // The cascade of prefilters at rising sensitivity saves time on large sets only; each
    // prefilter run has a fixed cost of seconds, so a small set is clustered in one step at the
    // final sensitivity (as thorough as the cascade's last step).
    const steps = how === 'cluster' && count < SINGLE_STEP_BELOW ? ['--cluster-steps', '1'] : [];
    await mmseqs([how, current, `c${c}`, 'tmp', '--min-seq-id', String(c / 100), '-c', COVERAGE, '--cov-mode', '0', '--threads', threads(), '-v', '1', ...steps], BUILD_BUDGET_MS, work);
    await mmseqs(['createtsv', current, current, `c${c}`, `c${c}.tsv`, '-v', '1'], BUILD_BUDGET_MS, work);
    await mmseqs(['createsubdb', `c${c}`, current, `l${c}`, '-v', '1'], BUILD_BUDGET_MS, work);
    const up = new Map<string, string>();
    for (const line of (await readFile(join(work, `c${c}.tsv`), 'utf8')).split('\n')) {
      const [r, member] = line.split('\t');
      if (r && member) up.set(member, r);
    }
    parents.set(c, up);
    count = new Set(up.values()).size;
    await rm(join(work, 'tmp'), { recursive: true, force: true });
    current = `l${c}`;
  }
  const members = new Map<number, [string, string][]>(CLUSTER_CUTOFFS.map((c) => [c, []]));
  for (const e of proteins) {
    let r = head.get(e.entity) as string;
    for (const c of CLUSTER_CUTOFFS) {
      r = parents.get(c)?.get(r) ?? r;
      members.get(c)?.push([r, e.entity]);
    }
  }
  await rm(work, { recursive: true, force: true });
  return numberClusters(members);
}

/** Per cutoff, entity → cluster number (largest cluster 1; ties by the smallest member id). */
export function numberClusters(members: Map<number, [string, string][]>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [cutoff, pairs] of members) {
    const groups = new Map<string, string[]>();
    for (const [rep, member] of pairs) {
      const g = groups.get(rep);
      if (g) g.push(member);
      else groups.set(rep, [member]);
    }
    const ranked = [...groups.values()].map((m) => m.sort(byCodeUnit)).sort((a, b) => b.length - a.length || byCodeUnit(a[0] as string, b[0] as string));
    const numbers: Record<string, number> = {};
    ranked.forEach((m, i) => {
      for (const e of m) numbers[e] = i + 1;
    });
    out[String(cutoff)] = numbers;
  }
  return out;
}

export async function readClusters(dir: string): Promise<Map<number, Map<string, number>>> {
  const raw = JSON.parse(await readFile(join(dir, 'clusters.json'), 'utf8')) as Record<string, Record<string, number>>;
  return new Map(Object.entries(raw).map(([c, m]) => [Number(c), new Map(Object.entries(m))]));
}
