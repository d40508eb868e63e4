/** Reading what every utility shares: the database, the output mode, the UIDs of the request. */
import type { ServiceContext } from '../../types.js';
import { isDbName, type Backend, type DbName } from '../data.js';
import { recall } from '../history.js';
import { ParamError, idGroups, type Params } from '../params.js';
import { errorReply, errorThrow, type Mode, type Reply, type Tool } from '../replies.js';
import { runSearch } from '../search.js';

export const SERVED = 'this mirror serves db=gene and db=clinvar';

/** `retmode`, among those the utility writes; anything else is a 400 naming the allowed ones. */
export function readMode(p: Params, tool: Tool, allowed: readonly string[] = ['xml', 'json']): string {
  const v = p.lower('retmode');
  if (v === undefined || v === '') return allowed[0] as string;
  if (!allowed.includes(v)) throw errorThrow(tool, 'xml', `Invalid retmode "${v}": ${tool} writes ${allowed.join(' or ')}`);
  return v;
}

export function asMode(m: string): Mode {
  return m === 'json' ? 'json' : 'xml';
}

/** The database named by `name` (db, dbfrom), or the real service's error when it is not served. */
export function readDb(p: Params, tool: Tool, mode: Mode, name = 'db'): DbName | Reply {
  const v = p.lower(name);
  if (v === undefined || v === '') return errorReply(tool, mode, `Missing ${name}: ${SERVED}`, 400);
  if (!isDbName(v)) return errorReply(tool, mode, `Invalid ${name} name specified: ${v} (${SERVED})`);
  return v;
}

/** Number parameters; a malformed one is a 400 in the utility's envelope. */
export function intParam(p: Params, tool: Tool, mode: Mode, name: string, def: number, min: number, max: number): number {
  try {
    return p.int(name, def, min, max);
  } catch (err) {
    if (err instanceof ParamError) throw errorThrow(tool, mode, err.message);
    throw err;
  }
}

export type IdInput = { kind: 'ids'; tokens: string[]; groups: string[][] } | { kind: 'reply'; reply: Reply };

/**
 * The UIDs a request names: `id` (comma-separated, possibly repeated), or a history entry
 * (`WebEnv` + `query_key`, with `retstart`/`retmax`).
 */
export async function inputIds(ctx: ServiceContext, p: Params, tool: Tool, mode: Mode, db: DbName, b: Backend | undefined, defaultRetmax: number): Promise<IdInput> {
  if (p.has('id')) {
    const groups = idGroups(p);
    const tokens = groups.flat();
    if (!tokens.length) return { kind: 'reply', reply: errorReply(tool, mode, 'Empty id list - nothing todo') };
    return { kind: 'ids', tokens, groups };
  }
  const key = p.str('query_key');
  const webenv = p.str('webenv');
  if (!key || !webenv) return { kind: 'reply', reply: errorReply(tool, mode, 'Neither query_key nor id specified') };
  const qk = intParam(p, tool, mode, 'query_key', 1, 1, 1_000_000);
  const entry = await recall(ctx.db, webenv, qk);
  if (!entry || entry.db !== db) return { kind: 'reply', reply: errorReply(tool, mode, `Unable to obtain query #${qk}`) };
  const retstart = intParam(p, tool, mode, 'retstart', 0, 0, 100_000_000);
  const retmax = intParam(p, tool, mode, 'retmax', defaultRetmax, 0, 10_000);
  const r = await runSearch(ctx, db, b, entry.term, { webenv, retstart, retmax });
  const tokens = r.ids.map(String);
  if (!tokens.length) return { kind: 'reply', reply: errorReply(tool, mode, 'Empty id list - nothing todo') };
  return { kind: 'ids', tokens, groups: [tokens] };
}
