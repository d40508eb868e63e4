/**
 * UniProt accessions (from the SIFTS mapping) as Search API attributes and groups: the demo's
 * 4HHB chains A and C map to P69905 (haemoglobin alpha), B and D to P68871 (beta); 0GL1 is a beta
 * variant (P68871), 0NM1 and 0BG1 are ubiquitin (P0CG48); 0NA1 (RNA) has no mapping. The demo
 * loads SIFTS after the archive, as a weekly SIFTS update would.
 */
import { describe, expect, it } from 'vitest';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import type { TestApp } from './helpers/app.js';
import { type Json, SEARCH_QUERY, withDemoPdb } from './helpers/pdb.js';
import { STORES } from './helpers/stores.js';

const IDS = 'rcsb_polymer_entity_container_identifiers';
const ACCESSION = `${IDS}.reference_sequence_identifiers.database_accession`;
const DB_NAME = `${IDS}.reference_sequence_identifiers.database_name`;
const UNIPROT_IDS = `${IDS}.uniprot_ids`;

const text = (attribute: string, operator: string, value?: unknown) => ({
  type: 'terminal',
  service: 'text',
  parameters: { attribute, operator, ...(value === undefined ? {} : { value }) },
});
const and = (...nodes: unknown[]) => ({ type: 'group', logical_operator: 'and', nodes });

describe.each(STORES.map((s) => [s.name, s] as const))('UniProt accessions in the Search API on %s', (_name, target) => {
  let t: TestApp;
  const post = async (body: Json) => {
    const r = await t.app.inject({ method: 'POST', url: SEARCH_QUERY, payload: body });
    return { status: r.statusCode, body: (r.statusCode === 200 ? r.json() : {}) as Json, raw: r.body };
  };
  /** Every identifier a query returns, sorted; [] for 204. */
  const ids = async (query: unknown, return_type = 'polymer_entity') => {
    const r = await post({ query, return_type, request_options: { return_all_hits: true, results_verbosity: 'compact' } });
    if (r.status === 204) return [];
    expect(r.status, r.raw).toBe(200);
    return (r.body.result_set as string[]).sort();
  };

  withDemoPdb(target, (app) => (t = app), [rcsbData, rcsbSearch]);

  it('finds the alpha and beta chains of 4HHB by reference sequence accession', async () => {
    expect(await ids(text(ACCESSION, 'exact_match', 'P69905'))).toEqual(['4HHB_1']);
    expect(await ids(text(ACCESSION, 'exact_match', 'P68871'))).toEqual(['0GL1_1', '4HHB_2']);
    expect(await ids(text(ACCESSION, 'exact_match', 'P69905'), 'entry')).toEqual(['4HHB']);
    expect(await ids(text(ACCESSION, 'exact_match', 'P69905'), 'polymer_instance')).toEqual(['4HHB.A', '4HHB.C']);
    expect(await ids(text(ACCESSION, 'in', ['P69905', 'P68871']))).toEqual(['0GL1_1', '4HHB_1', '4HHB_2']);
  });

  it('matches accession and database name on the same reference record', async () => {
    expect(await ids(and(text(DB_NAME, 'exact_match', 'UniProt'), text(ACCESSION, 'exact_match', 'P69905')))).toEqual(['4HHB_1']);
    expect(await ids(and(text(DB_NAME, 'exact_match', 'GenBank'), text(ACCESSION, 'exact_match', 'P69905')))).toEqual([]);
  });

  it('finds the same entities by uniprot_ids, and every mapped entity with exists', async () => {
    expect(await ids(text(UNIPROT_IDS, 'exact_match', 'P69905'))).toEqual(['4HHB_1']);
    expect(await ids(text(UNIPROT_IDS, 'exact_match', 'P68871'))).toEqual(['0GL1_1', '4HHB_2']);
    expect(await ids(text(UNIPROT_IDS, 'in', ['P0CG48']))).toEqual(['0BG1_1', '0NM1_1']);
    expect(await ids(text(UNIPROT_IDS, 'exists'))).toEqual(['0BG1_1', '0GL1_1', '0NM1_1', '4HHB_1', '4HHB_2']);
  });

  it('answers 204 for an accession that is not loaded', async () => {
    for (const attribute of [ACCESSION, UNIPROT_IDS]) {
      const r = await post({ query: text(attribute, 'exact_match', 'P01308'), return_type: 'polymer_entity' });
      expect(r.status).toBe(204);
    }
  });

  it('groups polymer entities by UniProt accession, with the group shape of the response schema', async () => {
    const r = await post({
      query: text('rcsb_entry_container_identifiers.entry_id', 'exists'),
      return_type: 'polymer_entity',
      request_options: { group_by: { aggregation_method: 'matching_uniprot_accession' }, group_by_return_type: 'groups', return_all_hits: true },
    });
    expect(r.status, r.raw).toBe(200);
    const groups = Object.fromEntries((r.body.group_set as Json[]).map((g) => [g.identifier, (g.result_set as Json[]).map((h) => h.identifier as string).sort()]));
    expect(groups).toEqual({ P69905: ['4HHB_1'], P68871: ['0GL1_1', '4HHB_2'], P0CG48: ['0BG1_1', '0NM1_1'] });
    expect(r.body.group_by_count).toBe(3);
    // The RNA entity of 0NA1 has no accession.
    expect(r.body.ungrouped_count).toBe(1);
    for (const g of r.body.group_set as Json[]) {
      expect(Object.keys(g).sort()).toEqual(['count', 'identifier', 'representative', 'result_set', 'score']);
      expect(g.count).toBe((g.result_set as Json[]).length);
      expect(g.representative).toEqual((g.result_set as Json[])[0]);
      expect(typeof g.score).toBe('number');
    }
    const rep = await post({
      query: text(ACCESSION, 'exists'),
      return_type: 'polymer_entity',
      request_options: { group_by: { aggregation_method: 'matching_uniprot_accession' }, return_all_hits: true, results_verbosity: 'compact' },
    });
    expect(rep.status, rep.raw).toBe(200);
    expect(rep.body.result_set).toHaveLength(3);
  });

  it('counts entities per accession in a terms facet', async () => {
    const r = await post({
      query: text(UNIPROT_IDS, 'exists'),
      return_type: 'polymer_entity',
      request_options: { return_counts: true, facets: [{ name: 'acc', aggregation_type: 'terms', attribute: ACCESSION }] },
    });
    expect(r.status, r.raw).toBe(200);
    const buckets = (r.body.facets as Json[])[0]?.buckets as Json[];
    expect(Object.fromEntries(buckets.map((b) => [b.label, b.population]))).toEqual({ P0CG48: 2, P68871: 2, P69905: 1 });
  });

  it('lists the UniProt attributes in the metadata schema', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/rcsb/search/rcsbsearch/v2/metadata/schema' });
    const ids = r.json().properties[IDS].properties;
    expect(Object.keys(ids)).toEqual(expect.arrayContaining(['uniprot_ids', 'reference_sequence_identifiers']));
    expect(Object.keys(ids.reference_sequence_identifiers.items.properties).sort()).toEqual(['database_accession', 'database_name', 'provenance_source']);
  });
});
