/**
 * The 3D side of compound operations: each CID's conformer, loaded from PubChem's Compound_3D
 * files or, where none was loaded and computing is on, computed here. Compounds without either
 * have no 3D values, as compounds PubChem has no conformer model for have none there.
 */
import type { Conformer } from '../chem/conformer3d.js';
import type { Props } from '../chem/properties.js';
import type { CompoundGen } from '../data.js';
import { pcErrors } from '../errors.js';
import type { Env } from '../resolve.js';
import { SearchTimeout } from '../../../core/chem/deadline.js';

/** Answer header naming the CIDs whose 3D values were computed here rather than loaded. */
export const COMPUTED_HEADER = 'X-Biomirror-Computed-3D';

export interface Conformers {
  byCid: Map<number, Conformer>;
  /** CIDs whose conformer was computed here. */
  computed: number[];
}

export async function conformersOf(env: Env, c: CompoundGen, cids: readonly number[]): Promise<Conformers> {
  const store = await env.data.conformers();
  const byCid = store ? await store.byCids(cids) : new Map<number, Conformer>();
  const computed: number[] = [];
  const missing = cids.filter((cid) => !byCid.has(cid));
  if (!missing.length || !env.conformers.opts.enabled) return { byCid, computed };
  const rows = await c.store.rows(missing, ['sdf', 'props']);
  const budget = env.conformers.opts.perRequestMs;
  const deadline = Date.now() + budget;
  for (const cid of missing) {
    const row = rows.get(cid);
    if (!row) continue;
    let made: Conformer | string;
    try {
      made = await env.conformers.compute(c.gen, cid, row.sdf, JSON.parse(row.props) as Props, deadline);
    } catch (err) {
      if (!(err instanceof SearchTimeout)) throw err;
      if (Date.now() >= deadline) throw pcErrors.timeout(`computing 3D conformers ran past ${budget / 1000} s for this request; ask for fewer compounds or load PubChem's Compound_3D files`);
      // One compound past its own budget has no conformer, as one PubChem could not model has none.
      env.log.warn({ cid }, `computing a 3D conformer ran past ${env.conformers.opts.perCompoundMs} ms`);
      continue;
    }
    if (typeof made === 'string') continue;
    byCid.set(cid, made);
    computed.push(cid);
  }
  return { byCid, computed };
}

export function computedHeaders(c: Conformers): Record<string, string> | undefined {
  return c.computed.length ? { [COMPUTED_HEADER]: c.computed.join(',') } : undefined;
}
