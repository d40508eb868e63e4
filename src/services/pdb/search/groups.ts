/**
 * `group_by`: hits partitioned by a shared key, as the live service groups them: entries by
 * deposition group, polymer entities by UniProt accession or by sequence (identical sequences at
 * the 100% cutoff), non-polymer entities by chemical component. Groups are ranked by their best
 * hit; a hit without a key counts as ungrouped.
 */
import type { Ranked, SearchScope } from './engine.js';
import { attributeValues } from './engine.js';
import { bad } from './errors.js';
import type { SearchRequest } from './request.js';
import { sequencesOf } from './sequences.js';

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
    if (g.similarity_cutoff !== 100) throw bad(`group_by sequence_identity is served at similarity_cutoff 100 only on this server (identical sequences)`);
    const seqs = await sequencesOf(s);
    for (const r of ranked) {
      const e = seqs.byEntity.get(r.id);
      if (e) keys.set(r.id, e.cluster);
    }
  } else {
    const attr = KEY_ATTRIBUTE[method];
    if (!attr) throw bad(`Unknown group_by aggregation_method ${method}`);
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
