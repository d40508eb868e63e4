/**
 * Structure searches: similarity (Tanimoto on PubChem's 881 substructure keys), substructure and
 * superstructure (a screen on the keys a match cannot lose, then an exact match by RDKit in the
 * matching threads, from the compounds' SMILES) and identity (InChIKey). Similarity and the
 * screens scan the generation's key file (keys.ts, keyfile/). A `fast...` search answers within its time limit or times out (504); the others
 * always answer with a list key, whose list is ready at once when the search finished within a
 * short budget and otherwise fills in when the search, going on in the background, ends.
 */
import { ServiceError } from '../../../core/http/errors.js';
import type { Logger } from 'pino';
import { SUBSKEYS_TAG } from '../chem/subskeys-codec.js';
import { screenKeys, superForbidden } from '../chem/subskeys-screen.js';
import { molblockOfSdf } from '../chem/query.js';
import type { Structures } from '../chem/structures.js';
import type { CompoundGen } from '../data.js';
import { pcErrors, type FaultBody } from '../errors.js';
import type { SearchKind, StructureInput } from '../request.js';
import { bytes } from '../store/sql.js';
import type { Ledger } from './ledger.js';
import type { ListKeys } from './listkeys.js';
import type { MatchPool } from '../../../core/chem/match-pool.js';
import type { SearchJob, SearchQueue } from './queue.js';
import { checkDeadline, SearchTimeout } from '../../../core/chem/deadline.js';

export interface SearchOptions {
  /** How long a non-fast search may run before it is answered with a list key. */
  syncBudgetMs: number;
  /** Longest a search may run (unless MaxSeconds asks for less). */
  maxSearchMs: number;
}

export interface SearchSpec {
  kind: SearchKind;
  input: StructureInput;
  value: string;
  fast: boolean;
  /** Tanimoto threshold, 0..1. */
  threshold: number;
  maxRecords: number;
  maxMs: number;
  identityType: string;
}

export type SearchOutcome = { cids: number[] } | { listkey: string };

/** When a search must end; moved back by the time spent waiting for a matching thread to start. */
interface Deadline {
  at: number;
}

interface Query {
  /** Text the matching threads read (SMILES, SMARTS or a molfile). */
  text: string;
  smarts: boolean;
  /** The query's substructure keys (111 bytes); none for SMARTS or when they cannot be computed. */
  keys?: Uint8Array;
}

const MATCH_BATCH = 500;
/** Candidates screened at first; more (four times as many each round) while matches are wanting. */
const FIRST_CANDIDATES = 20_000;
const KEY_BYTES = 111;
/** Query texts go to the matching threads (never parsed here); past this size they are refused outright. */
export const MAX_QUERY_CHARS = 1_000_000;

export class Searcher {
  constructor(
    private readonly pool: MatchPool,
    /** Reads InChI and the structures of identity searches (the matching threads read the others). */
    private readonly structures: Structures,
    private readonly listkeys: ListKeys,
    private readonly ledger: Ledger,
    private readonly opts: SearchOptions,
    private readonly log: Logger,
    /** With Redis: the shared queue non-fast searches go to, run by any process. */
    private readonly queue?: SearchQueue,
  ) {}

  async run(gen: CompoundGen, spec: SearchSpec, client: string): Promise<SearchOutcome> {
    const started = Date.now();
    const deadline: Deadline = { at: started + Math.min(spec.maxMs, this.opts.maxSearchMs) };
    if (!spec.fast && this.queue) return this.enqueue(spec, deadline, client);
    const job = this.search(gen, spec, deadline);
    if (spec.fast) return { cids: await mapped(job) };
    return this.background(job, deadline, client);
  }

  /**
   * PubChem answers every non-fast search with a list key (pubchempy asks for the operation at
   * the key's address). A search that finishes within the budget has its list ready at once; a
   * bad query found within it is answered as the fault itself; a budget of 0 sends every search
   * to the background.
   */
  async background(job: Promise<number[]>, deadline: { at: number }, client: string): Promise<SearchOutcome> {
    const safe = mapped(job);
    if (this.opts.syncBudgetMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const budget = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), this.opts.syncBudgetMs)));
      const first = await Promise.race([safe.then((cids) => ({ cids })), budget]).finally(() => clearTimeout(timer));
      if (first) return { listkey: await this.listkeys.create('compound', first.cids, deadline.at) };
    }
    safe.catch(() => undefined);
    // Past the budget: the search goes on, its answer is kept under the list key.
    const key = await this.listkeys.create('compound', undefined, deadline.at);
    const background = Date.now();
    // The time spent after the answer is charged before the result shows, so the next poll sees both.
    const charge = () => this.ledger.add(client, Date.now() - background);
    job
      .then(
        (cids) => {
          charge();
          return this.listkeys.finish(key, cids);
        },
        (err: unknown) => {
          charge();
          const f = asFault(err, this.log);
          return this.listkeys.fail(key, f.status, f.body);
        },
      )
      .catch((err: unknown) => this.log.error({ err, listkey: key }, 'could not store a search result'));
    return { listkey: key };
  }

  /**
   * The queued form of `background`: the list key is made here, the search runs wherever a process
   * takes it; within the budget its list (or its fault) is waited for, as in one process.
   */
  private async enqueue(spec: SearchSpec, deadline: Deadline, client: string): Promise<SearchOutcome> {
    const queue = this.queue as SearchQueue;
    const key = await this.listkeys.create('compound', undefined, deadline.at);
    await queue.add({ key, spec, deadlineAt: deadline.at, client });
    const until = Date.now() + this.opts.syncBudgetMs;
    while (Date.now() < until) {
      const st = await this.listkeys.get(key);
      if (st?.state === 'failed') throw new ServiceError(st.status, st.fault, 'application/json');
      if (st?.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 15));
    }
    return { listkey: key };
  }

  /** Runs one queued search in this process and keeps its answer under its list key. */
  async runQueued(job: SearchJob, gen: CompoundGen | undefined): Promise<void> {
    const started = Date.now();
    try {
      if (!gen) throw pcErrors.noCid('No compounds are loaded');
      if (started >= job.deadlineAt) throw new SearchTimeout('the search waited past its time limit');
      const cids = await mapped(this.search(gen, job.spec, { at: job.deadlineAt }));
      await this.listkeys.finish(job.key, cids);
    } catch (err) {
      const f = asFault(err, this.log);
      await this.listkeys.fail(job.key, f.status, f.body);
    } finally {
      this.ledger.add(job.client, Date.now() - started);
    }
  }

  private async search(gen: CompoundGen, spec: SearchSpec, deadline: Deadline): Promise<number[]> {
    if (spec.kind === 'identity') return this.identity(gen, spec);
    if (spec.kind === 'similarity') {
      const keys = await this.queryKeys(gen, spec);
      const set = await gen.keys();
      checkDeadline(deadline.at);
      const hits = await set.searcher.similar(keys, Math.max(spec.threshold, 1e-9), spec.maxRecords, { deadline: deadline.at });
      return hits.map((h) => h.cid);
    }
    const mode = spec.kind === 'substructure' ? 'sub' : 'super';
    if (mode === 'super' && spec.input === 'smarts') throw pcErrors.badRequest('Invalid search', 'superstructure search needs a structure, not SMARTS');
    const q = await this.query(gen, spec, deadline);
    const set = await gen.keys();
    checkDeadline(deadline.at);
    // Candidates come in the screen's order (substructure: every popcount band in proportion, so
    // compounds of every size alike; superstructure: fewest keys first); the first MaxRecords that
    // match are answered, in CID order.
    // Without query keys nothing is required (sub) and nothing rules a compound out (super).
    const screenBy = !q.keys ? new Uint8Array(KEY_BYTES) : mode === 'sub' ? screenKeys(q.keys) : superForbidden(q.keys);
    const found: number[] = [];
    // Batches go to every matching thread at once; their matches count in candidate order, so
    // the answer is the same however the threads interleave.
    const match = async (cids: readonly number[]) => {
      const batches: number[][] = [];
      for (let i = 0; i < cids.length; i += MATCH_BATCH) batches.push(cids.slice(i, i + MATCH_BATCH));
      const results: (number[] | undefined)[] = [];
      let next = 0;
      let counted = 0;
      const enough = () => {
        while (counted < results.length && results[counted] !== undefined) found.push(...(results[counted++] as number[]));
        return found.length >= spec.maxRecords;
      };
      const lane = async () => {
        while (next < batches.length && !enough()) {
          const at = next++;
          const part = batches[at] as number[];
          const smiles = await gen.store.smiles(part);
          checkDeadline(deadline.at);
          const known = part.filter((c) => smiles.has(c));
          const reply = await this.pool.run({ op: 'match', text: q.text, smarts: q.smarts, mode, cids: known, smiles: known.map((c) => smiles.get(c) as string) }, deadline.at);
          deadline.at += reply.waited ?? 0;
          if (reply.invalid) throw pcErrors.badStructure(q.smarts ? 'SMARTS' : 'structure', q.text);
          results[at] = reply.matched ?? [];
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.pool.size, batches.length) }, lane));
      enough();
    };
    let done = 0;
    for (let limit = FIRST_CANDIDATES; found.length < spec.maxRecords; limit *= 4) {
      const opts = { deadline: deadline.at };
      const candidates = mode === 'sub' ? await set.searcher.screen(screenBy, limit, opts) : await set.searcher.none(screenBy, limit, opts);
      await match(candidates.slice(done));
      done = candidates.length;
      if (candidates.length < limit) break;
    }
    // Compounds without keys cannot be screened: the match decides on each.
    if (found.length < spec.maxRecords) await match(Array.from(set.keyless));
    return found.slice(0, spec.maxRecords).sort((a, b) => a - b);
  }

  private async identity(gen: CompoundGen, spec: SearchSpec): Promise<number[]> {
    let key: string | undefined;
    if (spec.input === 'cid') {
      const cid = positive(spec.value);
      const row = (await gen.store.rows([cid], ['props'])).get(cid);
      if (!row) throw pcErrors.noCid(`No CID found that matches the given CID ${cid}`);
      key = String((JSON.parse(row.props) as { InChIKey?: string }).InChIKey ?? '');
    } else if (spec.input === 'smarts') {
      throw pcErrors.badRequest('Invalid search', 'identity search needs a structure, not SMARTS');
    } else {
      key = await this.structures.inchikey(spec.input === 'inchi' ? 'inchi' : spec.input === 'sdf' ? 'sdf' : 'smiles', spec.value);
      if (!key) throw pcErrors.badStructure(spec.input.toUpperCase(), spec.value);
    }
    if (!key) return [];
    const cids = spec.identityType === 'same_connectivity' ? await gen.store.byConnectivity(key.slice(0, 14)) : await gen.store.byInchikey(key);
    return cids.slice(0, spec.maxRecords);
  }

  /** The text the matching threads parse (checked there) and the query's keys for the screen. */
  private async query(gen: CompoundGen, spec: SearchSpec, deadline: Deadline): Promise<Query> {
    if (spec.input === 'cid' || spec.input === 'inchi') {
      const cid = await this.loadedCid(gen, spec);
      const smiles = (await gen.store.smiles([cid])).get(cid);
      if (!smiles) throw pcErrors.noCid(`CID ${cid} has no structure to search with`);
      const stored = await gen.store.keysOf(cid);
      if (stored) return { text: smiles, smarts: false, keys: new Uint8Array(bytes(stored)) };
      return { text: smiles, smarts: false, ...(await this.screenable('smiles', smiles)) };
    }
    const smarts = spec.input === 'smarts';
    let text = spec.value;
    if (spec.input === 'sdf') {
      const block = molblockOfSdf(spec.value);
      if (!block) throw pcErrors.badStructure('SDF', spec.value);
      text = block;
    }
    if (text.length > MAX_QUERY_CHARS) throw pcErrors.badStructure(spec.input.toUpperCase(), text);
    let reply;
    try {
      reply = await this.pool.run({ op: 'prepare', text, smarts }, deadline.at);
      deadline.at += reply.waited ?? 0;
    } catch (err) {
      if (err instanceof SearchTimeout) throw pcErrors.timeout(`reading the ${spec.input.toUpperCase()} query took longer than the search may run`);
      throw err;
    }
    if (reply.invalid) throw pcErrors.badStructure(smarts ? 'SMARTS' : spec.input.toUpperCase(), spec.value);
    if (smarts) return { text, smarts };
    return { text, smarts, ...(await this.screenable(spec.input === 'sdf' ? 'sdf' : 'smiles', spec.value)) };
  }

  /**
   * The keys of a substructure query, for the screen. Keys that cannot be had (not computable, or
   * their thread past its budget) only cost the screen: every compound goes to the exact match.
   */
  private async screenable(kind: 'smiles' | 'sdf', text: string): Promise<{ keys?: Uint8Array }> {
    try {
      const r = await this.structures.subskeys(kind, text);
      return 'keys' in r ? { keys: r.keys } : {};
    } catch {
      return {};
    }
  }

  /**
   * The substructure keys of a similarity query: a loaded compound's (by CID, or by InChI, which
   * must be loaded) from the index; a SMILES or SD record's computed in a structure thread. A query
   * without keys answers 400 saying why.
   */
  private async queryKeys(gen: CompoundGen, spec: SearchSpec): Promise<Uint8Array> {
    if (spec.input === 'smarts') throw pcErrors.badRequest('Invalid search', 'similarity search needs a structure (SMILES, SDF, InChI or CID), not SMARTS');
    if (spec.input === 'cid' || spec.input === 'inchi') {
      const cid = await this.loadedCid(gen, spec);
      const stored = await gen.store.keysOf(cid);
      if (stored === undefined) throw pcErrors.noCid(`No CID found that matches the given CID ${cid}`);
      if (stored !== null) return new Uint8Array(bytes(stored));
      const legacy = (await gen.keys()).legacy;
      throw pcErrors.noKeys(
        legacy
          ? `CID ${cid} has no substructure keys to search with: the compounds were loaded by an earlier version of biomirror, which kept none; load them again`
          : `CID ${cid} has no substructure keys to search with: its SD record carried no valid ${SUBSKEYS_TAG} and they were not computed at load`,
      );
    }
    if (spec.value.length > MAX_QUERY_CHARS) throw pcErrors.badStructure(spec.input.toUpperCase(), spec.value);
    const r = await this.structures.subskeys(spec.input === 'sdf' ? 'sdf' : 'smiles', spec.value);
    if ('invalid' in r) throw pcErrors.badStructure(spec.input.toUpperCase(), spec.value);
    if ('unavailable' in r) throw pcErrors.noKeys(`the substructure keys of the ${spec.input.toUpperCase()} query cannot be computed: ${r.unavailable}`);
    return r.keys;
  }

  /** The CID a CID or InChI query names (an InChI's must be loaded). */
  private async loadedCid(gen: CompoundGen, spec: SearchSpec): Promise<number> {
    let cid: number;
    if (spec.input === 'cid') cid = positive(spec.value);
    else {
      const key = await this.structures.inchikey('inchi', spec.value);
      if (!key) throw pcErrors.badStructure('InChI', spec.value);
      const found = await gen.store.byInchikey(key);
      if (!found.length) throw pcErrors.noCid('No CID found that matches the given InChI; structure searches by InChI need the structure to be in the database');
      cid = found[0] as number;
    }
    return cid;
  }
}

function positive(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) throw pcErrors.badCid(value);
  return n;
}

/** A search failure as the fault it answers with. */
export function asFault(err: unknown, log: Logger): { status: number; body: FaultBody } {
  if (err instanceof ServiceError) return { status: err.status, body: err.body as FaultBody };
  if (err instanceof SearchTimeout) {
    const e = pcErrors.timeout('The search ran past its time limit; narrow it (a more specific query, MaxRecords) or raise MaxSeconds');
    return { status: e.status, body: e.body as FaultBody };
  }
  log.error({ err }, 'structure search failed');
  return { status: 500, body: { Fault: { Code: 'PUGREST.ServerError', Message: 'Server error', Details: ['The search failed; the error is logged'] } } };
}

async function mapped(job: Promise<number[]>): Promise<number[]> {
  try {
    return await job;
  } catch (err) {
    if (err instanceof SearchTimeout) {
      throw pcErrors.timeout('The search ran past its time limit; narrow it (a more specific query, MaxRecords) or raise MaxSeconds');
    }
    throw err;
  }
}
