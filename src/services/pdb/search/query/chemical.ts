/**
 * `chemical`: the loaded chemical components by molecular formula (element counts, in JS), or by
 * a SMILES or InChI descriptor with the service's match types, computed with RDKit on the PubChem
 * service's matching pool (threads ended past their deadline). Whole-graph matches compare the
 * layers of standard InChI: the one RDKit computes for each component with the query's (given, or
 * computed from its SMILES). RDKit cannot read InChI, so an InChI query of the match types that
 * need a molecule (fingerprints, substructures) takes the component whose computed InChI is the
 * same, and is refused when there is none.
 */
import { randomUUID } from 'node:crypto';
import { MatchPool } from '../../../../core/chem/match-pool.js';
import { SearchTimeout } from '../../../../core/chem/deadline.js';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds, perGeneration } from './engine.js';
import { badQuery, engineUnavailable } from '../../errors.js';
import { attrKey } from '../build/indexer.js';
import type { ReturnType, Terminal } from './request.js';
import { sourceUrl } from '../../../../core/files/project.js';

const WORKER = sourceUrl('services/pdb/search/query/chem-worker.mjs');
/** Time one chemical query may take (settable, for tests); the first after a load also parses the dictionary. */
export const chemBudget = { ms: Number(process.env.BIOMIRROR_PDB_CHEM_TIMEOUT_MS ?? 30_000) };
const MAX_DESCRIPTOR = 2_000;

let pool: MatchPool | undefined;
function matchPool(): MatchPool {
  pool ??= new MatchPool(1, WORKER);
  return pool;
}

export interface Component {
  id: string;
  smiles: string | undefined;
  formula: string | undefined;
}

const DESCRIPTORS = ['rcsb_chem_comp_descriptor.SMILES_stereo', 'rcsb_chem_comp_descriptor.SMILES', 'chem_comp.formula'];
const components = perGeneration<Component[]>();
/** Names a component list for the matching thread, which parses one list and keeps it. */
const keys = new WeakMap<Component[], string>();

/** The dictionary's components with their descriptors, from the index (once per generation). */
function componentsOf(s: SearchScope): Promise<Component[]> {
  const n = s.ccd;
  if (!n) return Promise.resolve([]);
  return components(s.db, n.sattr, async () => {
    // The attribute column holds numbers (or paths, in tables of an earlier version).
    const pathOf = new Map<string, string>(DESCRIPTORS.map((d) => [String(attrKey(n, d)), d]));
    const rows = await s.db.query<{ obj: string; attr: string | number; str: string }>(
      `SELECT obj, attr, str FROM ${n.sattr} WHERE attr IN (${DESCRIPTORS.map(() => '?').join(',')}) ORDER BY obj`,
      DESCRIPTORS.map((d) => attrKey(n, d)),
    );
    const by = new Map<string, Component>();
    for (const r of rows) {
      const attr = pathOf.get(String(r.attr)) ?? '';
      let c = by.get(r.obj);
      if (!c) by.set(r.obj, (c = { id: r.obj, smiles: undefined, formula: undefined }));
      if (attr.endsWith('SMILES_stereo') || (attr.endsWith('SMILES') && c.smiles === undefined)) c.smiles = r.str;
      else if (attr === 'chem_comp.formula') c.formula = r.str;
    }
    return [...by.values()];
  });
}

/** `C8 H9 N O2`, `C8H9NO2`, `Fe` → element counts. */
export function parseFormula(f: string): Map<string, number> {
  const out = new Map<string, number>();
  const s = f.replace(/\s+/g, '');
  if (!/^([A-Z][a-z]?\d*)+$/.test(s)) throw badQuery(`Not a molecular formula: ${f}`);
  for (const m of s.matchAll(/([A-Z][a-z]?)(\d*)/g)) out.set(m[1] as string, (out.get(m[1] as string) ?? 0) + (m[2] ? Number(m[2]) : 1));
  return out;
}

/**
 * Formula match: the same count of every element; with match_subset, the query's elements at
 * their counts, other elements allowed.
 */
function formulaMatches(query: Map<string, number>, formula: string | undefined, subset: boolean): boolean {
  if (!formula) return false;
  let comp: Map<string, number>;
  try {
    comp = parseFormula(formula.replace(/[+-]\d*$/, ''));
  } catch {
    return false;
  }
  for (const [el, n] of query) if (comp.get(el) !== n) return false;
  return subset || comp.size === query.size;
}

export async function chemicalTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const comps = await componentsOf(s);
  const scores = new Map<string, number>();
  const value = String(p.value);
  if (p.type === 'formula') {
    const q = parseFormula(value);
    for (const c of comps) if (formulaMatches(q, c.formula, p.match_subset === true)) scores.set(c.id, 1);
    return mapIds(s, 'mol_definition', { scores }, rt);
  }
  if (value.length > MAX_DESCRIPTOR) throw badQuery(`A chemical descriptor takes at most ${MAX_DESCRIPTOR} characters`);
  const matchType = String(p.match_type ?? 'graph-relaxed');
  const inchi = p.descriptor_type === 'InChI';
  const items = comps.filter((c) => c.smiles).map((c) => ({ id: c.id, smiles: c.smiles as string }));
  if (items.length === 0) return { scores };
  let key = keys.get(comps);
  if (!key) keys.set(comps, (key = randomUUID()));
  let reply: { invalid?: boolean; unread?: boolean; hits?: [string, number][]; error?: string };
  try {
    const query = inchi ? { inchi: value } : { smiles: value };
    reply = (await matchPool().run({ key, items, ...query, match_type: matchType }, Date.now() + chemBudget.ms)) as typeof reply;
  } catch (err) {
    if (err instanceof SearchTimeout) throw engineUnavailable(`The chemical search ran past its time limit (${chemBudget.ms} ms)`);
    throw engineUnavailable(`The chemical search failed: ${(err as Error).message}`);
  }
  if (reply.invalid) throw badQuery(`Not a readable ${String(p.descriptor_type ?? 'SMILES')} descriptor: ${value.slice(0, 200)}`);
  if (reply.unread)
    throw badQuery(`An InChI descriptor is matched by ${matchType} through the loaded chemical component with the same InChI, and none has this one (use a SMILES descriptor, or a graph match type)`);
  for (const [id, score] of reply.hits ?? []) scores.set(id, score);
  return mapIds(s, 'mol_definition', { scores }, rt);
}

export async function closeChemistry(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p) await p.close();
}
