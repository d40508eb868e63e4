/**
 * Input namespaces to the records they name: a table from `<domain>:<namespace>` to a resolver.
 * Compound names, SMILES, InChI and InChIKeys are looked up on their indexes; searches run in
 * the searcher and may answer with a list key instead.
 */
import type { Logger } from 'pino';
import type { Conformers3d } from './chem/compute3d.js';
import type { Structures } from './chem/structures.js';
import type { CompoundGen, Data } from './data.js';
import { fault, pcErrors } from './errors.js';
import { identityType, listSlice, maxRecords, maxSeconds, nameType, threshold } from './options.js';
import type { Domain, Namespace, PugRequest } from './request.js';
import type { ListDomain, ListKeys } from './search/listkeys.js';
import type { Searcher } from './search/searcher.js';

export interface Env {
  data: Data;
  searcher: Searcher;
  listkeys: ListKeys;
  /** Conformers computed where no 3D file was loaded. */
  conformers: Conformers3d;
  /** The RDKit work on structures given in requests and on depictions, off the main thread. */
  structures: Structures;
  /** Who the request is from, for the running-time budget. */
  client: string;
  log: Logger;
}

/** A structure given in the request that is not in the database (PubChem computes such records). */
export interface Novel {
  kind: 'smiles' | 'sdf';
  text: string;
}

export type Subject = { domain: 'compound'; ids: number[]; novel?: Novel; search?: boolean } | { domain: 'substance'; ids: number[] } | { domain: 'assay'; ids: number[] };

export type Resolution = { subject: Subject } | { waiting: string };

type Resolver = (env: Env, req: PugRequest) => Promise<Resolution>;

export function positiveIds(values: readonly string[], what: string): number[] {
  const out: number[] = [];
  for (const v of values) {
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n <= 0) throw pcErrors.badCid(v, what);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

async function compounds(env: Env): Promise<CompoundGen> {
  const c = await env.data.compounds();
  if (!c) throw pcErrors.notFound('No records found', 'No compound data is loaded; load PubChem compound files with `biomirror ingest pubchem --dataset compounds`');
  return c;
}

const compound = (ids: number[], extra: Partial<Extract<Subject, { domain: 'compound' }>> = {}): Resolution => ({ subject: { domain: 'compound', ids, ...extra } });

async function byStructure(env: Env, kind: 'smiles' | 'sdf' | 'inchi', text: string): Promise<Resolution> {
  const key = await env.structures.inchikey(kind, text);
  if (!key) throw pcErrors.badStructure(kind === 'sdf' ? 'SDF' : kind === 'inchi' ? 'InChI' : 'SMILES', text);
  const c = await env.data.compounds();
  const cids = c ? await c.store.byInchikey(key) : [];
  if (cids.length) return compound(cids);
  if (kind === 'inchi') throw pcErrors.noCid('No CID found that matches the given InChI');
  return compound([], { novel: { kind, text } });
}

async function byFormula(c: CompoundGen, req: PugRequest): Promise<number[]> {
  const formula = (req.identifiers[0] ?? '').trim();
  if (!/^([A-Z][a-z]?\d*)+$/.test(formula)) throw pcErrors.badRequest('Invalid formula', `"${formula}" is not a molecular formula such as C9H8O4`);
  return (await c.store.byFormula(formula)).slice(0, maxRecords(req.options));
}

/** The bulk file that would answer each cross-reference search this mirror does not serve. */
const XREF_SOURCES: Record<string, string> = {
  PatentID: 'the CID-Patent file (compound to patent links)',
  PubMedID: 'the CID-PMID file (compound to PubMed links)',
};

/**
 * Registry numbers (CAS and the like) are among the synonyms of the synonym files, so `xref/RN`
 * is a whole-synonym lookup; other cross-references need files this mirror does not load.
 */
async function byXref(env: Env, req: PugRequest): Promise<number[]> {
  const ns = req.namespace as Extract<Namespace, { kind: 'xref' }>;
  const value = (req.identifiers[0] ?? '').trim();
  if (ns.xref !== 'RN') {
    const source = XREF_SOURCES[ns.xref] ?? "the depositors' cross-references of the Substance ASN.1 or XML records";
    throw pcErrors.unimplemented(`xref/${ns.xref} searches (they need ${source}, which this mirror does not load)`);
  }
  if (!/^\d{2,7}-\d{2}-\d$/.test(value)) throw pcErrors.badRequest('Invalid registry number', `"${value}" is not a CAS registry number such as 50-78-2`);
  if (req.domain === 'substance') {
    const s = await env.data.substances();
    return s ? s.byName(value) : [];
  }
  return (await compounds(env)).store.byName(value);
}

const GONE = 30_000;

async function fromListKey(env: Env, req: PugRequest, domain: ListDomain): Promise<Resolution> {
  const key = (req.identifiers[0] ?? '').trim();
  const state = await env.listkeys.get(key);
  if (!state) throw pcErrors.notFound('Invalid ListKey', `ListKey ${key} is unknown or has expired`);
  if (state.domain !== domain) throw pcErrors.badRequest('Invalid ListKey', `ListKey ${key} holds ${state.domain} identifiers, not ${domain} ones`);
  if (state.state === 'running') {
    // A search whose process died never finishes; after its deadline it has timed out.
    if (Date.now() > state.deadline + GONE) throw pcErrors.timeout(`The search of ListKey ${key} did not finish in time`);
    return { waiting: key };
  }
  if (state.state === 'failed') throw fault(state.status, state.fault.Fault.Code, state.fault.Fault.Message, state.fault.Fault.Details);
  const { start, count } = listSlice(req.options);
  const ids = state.ids.slice(start, start + count);
  if (!state.ids.length && domain === 'compound') throw pcErrors.noCid(`The search of ListKey ${key} found no compounds`);
  if (!ids.length) throw pcErrors.notFound('No records found', `ListKey ${key} holds no identifiers${start ? ` from position ${start}` : ''}`);
  if (domain === 'compound') return compound(ids, { search: true });
  return { subject: { domain, ids } } as Resolution;
}

function searchResult(outcome: { cids: number[] } | { listkey: string }): Resolution {
  if ('listkey' in outcome) return { waiting: outcome.listkey };
  if (!outcome.cids.length) throw pcErrors.noCid('No CID found that matches the given structure search');
  return compound(outcome.cids, { search: true });
}

const RESOLVERS: Record<string, Resolver> = {
  'compound:cid': async (_env, req) => compound(positiveIds(req.identifiers, 'CID')),
  'compound:name': async (env, req) => {
    if (nameType(req.options) === 'word') throw pcErrors.unimplemented('name_type=word (matching single words of names)');
    const c = await compounds(env);
    const cids = await c.store.byName(req.identifiers[0] ?? '');
    if (!cids.length) throw pcErrors.noCid('No CID found that matches the given name');
    return compound(cids);
  },
  'compound:smiles': (env, req) => byStructure(env, 'smiles', req.identifiers[0] ?? ''),
  'compound:sdf': (env, req) => byStructure(env, 'sdf', req.identifiers[0] ?? ''),
  'compound:inchi': (env, req) => byStructure(env, 'inchi', req.identifiers[0] ?? ''),
  'compound:inchikey': async (env, req) => {
    const c = await compounds(env);
    const cids: number[] = [];
    for (const key of req.identifiers) {
      if (!/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(key.trim())) throw pcErrors.badRequest('Invalid InChIKey', `"${key}" is not a standard InChIKey (14-10-1 upper-case letters)`);
      for (const cid of await c.store.byInchikey(key.trim())) if (!cids.includes(cid)) cids.push(cid);
    }
    if (!cids.length) throw pcErrors.noCid('No CID found that matches the given InChI key');
    return compound(cids);
  },
  // PubChem answers a formula search with a list key, a fastformula search at once.
  'compound:formula': async (env, req) => {
    const c = await compounds(env);
    const job = byFormula(c, req);
    return searchResult(await env.searcher.background(job, { at: Date.now() + maxSeconds(req.options) * 1000 }, env.client));
  },
  'compound:fastformula': async (env, req) => {
    const cids = await byFormula(await compounds(env), req);
    if (!cids.length) throw pcErrors.noCid(`No CID found that matches the given formula ${(req.identifiers[0] ?? '').trim()}`);
    return compound(cids, { search: true });
  },
  'compound:mass': async (env, req) => {
    const ns = req.namespace as Extract<Namespace, { kind: 'mass' }>;
    const c = await compounds(env);
    // "equals" compares at the precision PubChem gives the values (strings of 2 or 8 decimals).
    const eps = ns.low === ns.high ? (ns.column === 'mw' ? 0.005 : 0.000000005) : 0;
    const cids = await c.store.byMass(ns.column, ns.low - eps, ns.high + eps);
    if (!cids.length) throw pcErrors.noCid('No CID found in the given mass range');
    return compound(cids, { search: true });
  },
  'compound:listkey': (env, req) => fromListKey(env, req, 'compound'),
  'compound:search': async (env, req) => {
    const ns = req.namespace as Extract<Namespace, { kind: 'search' }>;
    const c = await compounds(env);
    const value = req.identifiers[0] ?? '';
    const outcome = await env.searcher.run(
      c,
      {
        kind: ns.search,
        input: ns.input,
        value,
        fast: ns.fast,
        threshold: threshold(req.options) / 100,
        maxRecords: maxRecords(req.options),
        maxMs: maxSeconds(req.options) * 1000,
        identityType: identityType(req.options),
      },
      env.client,
    );
    return searchResult(outcome);
  },
  'compound:xref': async (env, req) => {
    const cids = await byXref(env, req);
    if (!cids.length) throw pcErrors.noCid('No CID found that matches the given registry number');
    return compound(cids, { search: true });
  },
  'substance:xref': async (env, req) => {
    const sids = await byXref(env, req);
    if (!sids.length) throw pcErrors.notFound('No SID found', 'No SID found that matches the given registry number');
    return { subject: { domain: 'substance', ids: sids } };
  },
  'substance:sid': async (_env, req) => ({ subject: { domain: 'substance', ids: positiveIds(req.identifiers, 'SID') } }),
  'substance:name': async (env, req) => {
    const s = await env.data.substances();
    const sids = s ? await s.byName(req.identifiers[0] ?? '') : [];
    if (!sids.length) throw pcErrors.notFound('No SID found', 'No SID found that matches the given name');
    return { subject: { domain: 'substance', ids: sids } };
  },
  'substance:sourceid': async (env, req) => {
    const ns = req.namespace as Extract<Namespace, { kind: 'sourceid' }>;
    const s = await env.data.substances();
    const sids = s ? await s.bySource(ns.source, req.identifiers[0] ?? '') : [];
    if (!sids.length) throw pcErrors.notFound('No SID found', `No SID found for source ${ns.source} and id ${req.identifiers[0] ?? ''}`);
    return { subject: { domain: 'substance', ids: sids } };
  },
  'substance:listkey': (env, req) => fromListKey(env, req, 'substance'),
  'assay:aid': async (_env, req) => ({ subject: { domain: 'assay', ids: positiveIds(req.identifiers, 'AID') } }),
  'assay:listkey': (env, req) => fromListKey(env, req, 'assay'),
};

export function resolverKey(domain: Domain, ns: Namespace): string {
  return `${domain}:${ns.kind}`;
}

export async function resolve(env: Env, req: PugRequest): Promise<Resolution> {
  const r = RESOLVERS[resolverKey(req.domain, req.namespace)];
  if (!r) throw pcErrors.badNamespace(req.namespace.kind, req.domain, []);
  return r(env, req);
}
