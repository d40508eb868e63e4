/**
 * Attributes the RCSB computes or integrates and this server never fills (symmetry, CATH and SCOP
 * annotations, DrugBank, group memberships): a search, facet or sort on one answers 400 naming it,
 * and the metadata schemas list none of them; every attribute they do list can be searched.
 */
import { describe, expect, it } from 'vitest';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import { unservedReason } from '../src/services/pdb/search/query/unserved.js';
import type { TestApp } from './helpers/app.js';
import { type Json, SEARCH_QUERY, withDemoPdb } from './helpers/pdb.js';
import { STORES } from './helpers/stores.js';

const METADATA = '/rcsb/search/rcsbsearch/v2/metadata';

const terminal = (service: string, attribute: string, operator: string, value?: unknown) => ({
  type: 'terminal',
  service,
  parameters: { attribute, operator, ...(value === undefined ? {} : { value }) },
});

/** Every leaf attribute path of a metadata schema. */
function leaves(node: Json, path: string[] = [], out: string[] = []): string[] {
  if (node.type === 'object' && node.properties) for (const [k, v] of Object.entries(node.properties as Json)) leaves(v as Json, [...path, k], out);
  else if (node.type === 'array' && node.items) leaves(node.items as Json, path, out);
  else if (path.length) out.push(path.join('.'));
  return out;
}

const UNSERVED: [string, string, string, unknown][] = [
  ['rcsb_struct_symmetry.symbol', 'assembly', 'exact_match', 'C2'],
  ['rcsb_polymer_instance_annotation.type', 'polymer_instance', 'exact_match', 'CATH'],
  ['rcsb_polymer_instance_feature.type', 'polymer_instance', 'exact_match', 'SCOP'],
  ['drugbank_info.drugbank_id', 'non_polymer_entity', 'exact_match', 'DB00001'],
  ['rcsb_polymer_entity_group_membership.group_id', 'polymer_entity', 'exact_match', 'P69905'],
];

describe.each(STORES.map((s) => [s.name, s] as const))('Attributes this mirror does not serve on %s', (_name, target) => {
  let t: TestApp;
  const post = async (body: Json) => {
    const r = await t.app.inject({ method: 'POST', url: SEARCH_QUERY, payload: body });
    return { status: r.statusCode, body: (r.body ? r.json() : {}) as Json, raw: r.body };
  };

  withDemoPdb(target, (app) => (t = app), [rcsbData, rcsbSearch]);

  it.each(UNSERVED)('answers 400 naming %s in a query, a facet and a sort', async (attribute, return_type, operator, value) => {
    const q = await post({ query: terminal('text', attribute, operator, value), return_type });
    expect(q.status, q.raw).toBe(400);
    expect(q.body.status).toBe(400);
    expect(q.body.message).toContain(attribute);
    expect(q.body.message).toContain('not served by this mirror');
    const every = terminal('text', 'rcsb_entry_container_identifiers.entry_id', 'exists');
    const f = await post({ query: every, return_type, request_options: { facets: [{ name: 'f', aggregation_type: 'terms', attribute }] } });
    expect(f.status, f.raw).toBe(400);
    expect(f.body.message).toContain(attribute);
    const s = await post({ query: every, return_type, request_options: { sort: [{ sort_by: attribute, direction: 'asc' }] } });
    expect(s.status, s.raw).toBe(400);
    expect(s.body.message).toContain(attribute);
  });

  it('answers 400 for an unserved attribute inside an and-group too', async () => {
    const r = await post({
      query: {
        type: 'group',
        logical_operator: 'and',
        nodes: [terminal('text', 'exptl.method', 'exact_match', 'X-RAY DIFFRACTION'), terminal('text', 'rcsb_struct_symmetry.kind', 'exact_match', 'Global Symmetry')],
      },
      return_type: 'entry',
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('rcsb_struct_symmetry.kind');
  });

  it('still answers 204 for a served attribute without a match', async () => {
    expect((await post({ query: terminal('text', 'exptl.method', 'exact_match', 'NEUTRON DIFFRACTION'), return_type: 'entry' })).status).toBe(204);
  });

  it.each([
    ['schema', 'text', 'entry'],
    ['chemical/schema', 'text_chem', 'mol_definition'],
  ])(
    'lists in metadata/%s only attributes that a search answers without 400',
    async (path, service, return_type) => {
      const r = await t.app.inject({ method: 'GET', url: `${METADATA}/${path}` });
      expect(r.statusCode).toBe(200);
      const listed = leaves(r.json() as Json);
      expect(listed.length).toBeGreaterThan(20);
      expect(listed.filter((p) => unservedReason(p) !== undefined)).toEqual([]);
      for (const name of ['rcsb_struct_symmetry', 'drugbank_info', 'rcsb_polymer_instance_annotation', 'rcsb_polymer_entity_group_membership']) {
        expect(
          listed.some((p) => p.startsWith(`${name}.`)),
          name,
        ).toBe(false);
      }
      const refused: string[] = [];
      for (const attribute of listed) {
        const q = await post({ query: terminal(service, attribute, 'exists'), return_type, request_options: { return_counts: true } });
        if (q.status !== 200) refused.push(`${attribute}: ${q.status} ${q.raw}`);
      }
      expect(refused).toEqual([]);
    },
    120_000,
  );
});
