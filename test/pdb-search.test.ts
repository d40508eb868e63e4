import { afterAll, beforeAll, describe, it } from 'vitest';
import { rcsbData } from '../src/services/pdb/index.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import type { TestApp } from './helpers/app.js';
import { loadDemo, pdbApp, type Json } from './helpers/pdb.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const Q = '/rcsb/search/rcsbsearch/v2/query';

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Search API on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const post = async (body: unknown) => {
    const r = await t.app.inject({ method: 'POST', url: Q, payload: body as Json });
    let json: Json = {};
    try {
      json = r.json();
    } catch {
      /* 204 */
    }
    return { status: r.statusCode, body: json, raw: r.body };
  };

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch]);
    await loadDemo(store, t.generations);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('smoke', async () => {
    const r = await post({ query: { type: 'terminal', service: 'text', parameters: { attribute: 'exptl.method', operator: 'exact_match', value: 'X-RAY DIFFRACTION' } }, return_type: 'entry' });
    console.log(r.status, r.raw);
    for (const rt of ['polymer_entity', 'polymer_instance', 'assembly', 'non_polymer_entity', 'mol_definition']) {
      const x = await post({ query: { type: 'terminal', service: 'text', parameters: { attribute: 'exptl.method', operator: 'exact_match', value: 'X-RAY DIFFRACTION' } }, return_type: rt, request_options: { return_all_hits: true, results_verbosity: 'compact' } });
      console.log(rt, x.status, x.raw);
    }
    const f = await post({ query: { type: 'terminal', service: 'full_text', parameters: { value: 'deoxyhaemoglobin' } }, return_type: 'polymer_entity', request_options: { results_verbosity: 'verbose', facets: [{ name: 'm', aggregation_type: 'terms', attribute: 'rcsb_entity_source_organism.scientific_name' }] } });
    console.log(f.status, f.raw);
    const m = await post({ query: { type: 'terminal', service: 'seqmotif', parameters: { value: 'C-x(2,4)-C', pattern_type: 'prosite', sequence_type: 'protein' } }, return_type: 'polymer_entity', request_options: { results_verbosity: 'verbose' } });
    console.log(m.status, m.raw);
    const s = await post({ query: { type: 'terminal', service: 'sequence', parameters: { value: 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF', sequence_type: 'protein', evalue_cutoff: 1 } }, return_type: 'polymer_entity', request_options: { results_verbosity: 'verbose' } });
    console.log(s.status, s.raw);
    const c = await post({ query: { type: 'terminal', service: 'text_chem', parameters: { attribute: 'chem_comp.formula_weight', operator: 'greater', value: 500 } }, return_type: 'mol_definition', request_options: { return_all_hits: true } });
    console.log(c.status, c.raw);
    const md = await t.app.inject({ method: 'GET', url: '/rcsb/search/rcsbsearch/v2/metadata/schema' });
    console.log(md.statusCode, md.body.length);
  });
});
