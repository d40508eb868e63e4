/**
 * Every Data API document the demo archive gives is valid against its official JSON schema (the
 * RCSB's own, vendored in src/services/pdb/documents/schemas): entries, entities, instances, assemblies,
 * chemical components, UniProt and PubMed objects, over REST and the same objects through GraphQL.
 *
 * Formats (`date`, `date-time`) are not checked: the Data API writes offsets as `+0000`, which is
 * not RFC 3339, so a format check would fail the real service's own documents too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rcsbData } from '../src/services/pdb/data/index.js';
import type { TestApp } from './helpers/app.js';
import { DATA, get, graphql, loadDemo, pdbApp, type Json } from './helpers/pdb.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const SCHEMAS = join(import.meta.dirname, '../src/services/pdb/documents/schemas');
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

/** The schema's validator; draft-04 and draft-07 read alike here (no keyword of theirs differs in these schemas). */
function validator(object: string): ValidateFunction {
  let v = validators.get(object);
  if (!v) {
    const schema = JSON.parse(readFileSync(join(SCHEMAS, `${object}.json`), 'utf8')) as Json;
    delete schema.$schema;
    v = ajv.compile(schema);
    validators.set(object, v);
  }
  return v;
}

const problems = (object: string, doc: unknown): string[] => {
  const v = validator(object);
  return v(doc) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
};

const ENTITY_KINDS = [
  ['polymer_entity', 'polymer_entity_ids'],
  ['branched_entity', 'branched_entity_ids'],
  ['nonpolymer_entity', 'non_polymer_entity_ids'],
] as const;

describe.each(STORES.map((s) => [s.name, s] as const))('Data API documents against the official schemas on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  /** Object type → each document's failures, by its URL. */
  const served = new Map<string, Map<string, string[]>>();
  const check = (object: string, url: string, doc: unknown) => {
    let m = served.get(object);
    if (!m) served.set(object, (m = new Map()));
    m.set(url, problems(object, doc));
  };
  const fetch = async (url: string) => {
    const r = await get(t.app, `${DATA}${url}`);
    return r.status === 200 ? r.body : undefined;
  };

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData]);
    await loadDemo(store, t.generations);
    const entries = (await get(t.app, `${DATA}/rest/v1/holdings/current/entry_ids`)).body as unknown as string[];
    for (const id of entries) {
      const entry = (await fetch(`/rest/v1/core/entry/${id}`)) as Json;
      check('entry', `entry/${id}`, entry);
      const ids = entry.rcsb_entry_container_identifiers as Json;
      for (const [kind, list] of ENTITY_KINDS) {
        for (const e of (ids[list] ?? []) as string[]) {
          const doc = (await fetch(`/rest/v1/core/${kind}/${id}/${e}`)) as Json;
          check(kind, `${kind}/${id}/${e}`, doc);
          const c = doc[`rcsb_${kind}_container_identifiers`] as Json;
          for (const asym of (c.asym_ids ?? []) as string[]) {
            const inst = `${kind}_instance`;
            check(inst, `${inst}/${id}/${asym}`, await fetch(`/rest/v1/core/${inst}/${id}/${asym}`));
          }
          if (kind === 'polymer_entity') {
            const uniprot = await fetch(`/rest/v1/core/uniprot/${id}/${e}`);
            for (const u of (uniprot ?? []) as unknown as Json[]) check('uniprot', `uniprot/${id}/${e}`, u);
          }
        }
      }
      for (const a of (ids.assembly_ids ?? []) as string[]) check('assembly', `assembly/${id}/${a}`, await fetch(`/rest/v1/core/assembly/${id}/${a}`));
      const pubmed = await fetch(`/rest/v1/core/pubmed/${id}`);
      if (pubmed) check('pubmed', `pubmed/${id}`, pubmed);
    }
    const comps = (await get(t.app, `${DATA}/rest/v1/holdings/current/ccd_ids`)).body as unknown as string[];
    for (const c of comps) check('chem_comp', `chemcomp/${c}`, await fetch(`/rest/v1/core/chemcomp/${c}`));
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('serves every kind of document from the demo archive', () => {
    const kinds = [...served.keys()].sort();
    expect(kinds).toEqual([
      'assembly',
      'branched_entity',
      'branched_entity_instance',
      'chem_comp',
      'entry',
      'nonpolymer_entity',
      'nonpolymer_entity_instance',
      'polymer_entity',
      'polymer_entity_instance',
      'pubmed',
      'uniprot',
    ]);
    for (const k of kinds) expect(served.get(k)?.size, k).toBeGreaterThan(0);
  });

  it.each([
    'entry',
    'polymer_entity',
    'branched_entity',
    'nonpolymer_entity',
    'polymer_entity_instance',
    'branched_entity_instance',
    'nonpolymer_entity_instance',
    'assembly',
    'chem_comp',
    'uniprot',
    'pubmed',
  ])('every %s document is valid against its schema', (object) => {
    const invalid = [...(served.get(object) ?? [])].filter(([, p]) => p.length > 0).map(([url, p]) => `${url}: ${p.slice(0, 5).join('; ')}`);
    expect(invalid).toEqual([]);
  });

  it('gives UniProt alignments through GraphQL without errors', async () => {
    const q = `{ polymer_entity(entry_id: "4HHB", entity_id: "1") {
      rcsb_polymer_entity_align { reference_database_accession reference_database_name provenance_source aligned_regions { entity_beg_seq_id ref_beg_seq_id length } }
      uniprots { rcsb_id rcsb_uniprot_alignments { core_entity_alignments { aligned_regions { query_begin target_begin length } scores { query_length } } } }
    } }`;
    const r = await graphql(t.app, q);
    expect(r.body.errors).toBeUndefined();
    const pe = r.body.data.polymer_entity as Json;
    expect(pe.rcsb_polymer_entity_align).toEqual([
      { reference_database_accession: 'P69905', reference_database_name: 'UniProt', provenance_source: 'SIFTS', aligned_regions: [{ entity_beg_seq_id: 1, ref_beg_seq_id: 2, length: 141 }] },
    ]);
    // SIFTS gives no UniProt sequence length, which the alignment's required scores need.
    expect(pe.uniprots).toEqual([{ rcsb_id: 'P69905', rcsb_uniprot_alignments: null }]);
    expect(problems('polymer_entity', (await fetch('/rest/v1/core/polymer_entity/4HHB/1')) as Json)).toEqual([]);
  });
});
