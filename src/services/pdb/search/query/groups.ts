/**
 * `group_by`: hits partitioned by a shared key, as the live service groups them: entries by
 * deposition group, polymer entities by UniProt accession or by sequence cluster, non-polymer
 * entities by chemical component. Groups are ranked by their best hit; a hit without a key counts
 * as ungrouped.
 *
 * Sequence clusters are of protein entities, as the RCSB's: at 100 % the identical sequences, at
 * the lower cutoffs the MMseqs2 clusters built with the archive's engine indexes. A group is named
 * `<cluster number>_<cutoff>` as the RCSB names its own (numbers count from the largest cluster
 * of the loaded data, so they are this server's, not the RCSB's).
 */
import type { Ranked, SearchScope } from './engine.js';
import { attributeValues, perGeneration } from './engine.js';
import { clustersOf } from '../build/engine-indexes.js';
import { badQuery } from '../../errors.js';
import type { SearchRequest } from './request.js';
import { numberClusters } from '../build/seq-index.js';
import { sequencesOf, type Sequences } from '../sequences.js';

const KEY_ATTRIBUTE: Record<string, string> = {
  matching_deposit_group_id: 'pdbx_deposit_group.group_id',
  matching_uniprot_accession: 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.database_accession',
  matching_chemical_component_id: 'rcsb_nonpolymer_entity_container_identifiers.nonpolymer_comp_id',
};

export interface Grouped {
  groups: { key: string; score: number; hits: Ranked[] }[];
  ungrouped: number;
}

export async function groupResults(s: SearchScope, req: SearchRequest, ranked: Ranked[]): Promise<Grouped> {
  const g = req.group_by as Record<string, unknown>;
  const method = String(g.aggregation_method);
  const keys = new Map<string, string>();
  if (method === 'sequence_identity') {
    const cutoff = Number(g.similarity_cutoff);
    const numbers = cutoff === 100 ? await identical(s) : (await clustersOf(s)).get(cutoff);
    if (!numbers) throw badQuery(`group_by sequence_identity does not take similarity_cutoff ${cutoff}`);
    for (const r of ranked) {
      const n = numbers.get(r.id);
      if (n !== undefined) keys.set(r.id, `${n}_${cutoff}`);
    }
  } else {
    const attr = KEY_ATTRIBUTE[method];
    if (!attr) throw badQuery(`Unknown group_by aggregation_method ${method}`);
    for (const v of await attributeValues(s, attr, req.return_type)) if (v.str !== null && !keys.has(v.dst)) keys.set(v.dst, v.str);
  }
  const groups = new Map<string, { key: string; score: number; hits: Ranked[] }>();
  let ungrouped = 0;
  for (const r of ranked) {
    const k = keys.get(r.id);
    if (k === undefined) {
      ungrouped++;
      continue;
    }
    let grp = groups.get(k);
    if (!grp) groups.set(k, (grp = { key: k, score: r.score, hits: [] }));
    grp.hits.push(r);
  }
  return { groups: [...groups.values()], ungrouped };
}

const identicalCache = perGeneration<Map<string, number>>();

/** Protein entity → its number among the groups of identical sequences (largest first). */
function identical(s: SearchScope): Promise<Map<string, number>> {
  return identicalCache(s.db, `${s.archive?.sseq}:identical`, async () => {
    const seqs: Sequences = await sequencesOf(s);
    const pairs: [string, string][] = seqs.list.filter((e) => e.type === 'protein').map((e) => [e.cluster, e.entity]);
    return new Map(Object.entries(numberClusters(new Map([[100, pairs]]))['100'] ?? {}));
  });
}
