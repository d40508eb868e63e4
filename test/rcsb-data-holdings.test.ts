/**
 * The Data API's holdings status routes (BioJava's PDBStatus reads them) and the
 * routes this mirror has no data for (removed/unreleased entries, DrugBank, interfaces), which answer
 * the Data API's 404 body rather than the generic route-not-found one.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBlock } from '../src/core/mmcif/block-reader.js';
import { documentsOf } from '../src/services/pdb/documents/index.js';
import { STORES } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { DATA, get, graphql, withDemoPdb } from './helpers/pdb.js';

const REST = `${DATA}/rest/v1`;

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB holdings on %s', (_name, target) => {
  let t: TestApp;
  withDemoPdb(target, (app) => (t = app));

  const current = (id: string) => ({
    rcsb_id: id,
    rcsb_repository_holdings_combined: { status: 'CURRENT', status_code: 'REL' },
    rcsb_repository_holdings_combined_entry_container_identifiers: { entry_id: id },
  });

  it('answers holdings/status/{id} for a loaded entry, any case', async () => {
    const r = await get(t.app, `${REST}/holdings/status/4hhb`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body).toEqual(current('4HHB'));
  });

  it('answers holdings/status?ids= with the loaded ones in the order asked', async () => {
    const r = await get(t.app, `${REST}/holdings/status?ids=9XYZ,4hhb,4HHB`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([current('4HHB')]);
    expect((await get(t.app, `${REST}/holdings/status?ids=9XYZ`)).status).toBe(404);
    const missing = await get(t.app, `${REST}/holdings/status`);
    expect(missing.status).toBe(400);
    expect((await get(t.app, `${REST}/holdings/status?ids=${Array(1001).fill('1ABC').join(',')}`)).status).toBe(400);
  });

  it('answers 404 in the Data API body for unknown, malformed, removed, unreleased, DrugBank and interface ids', async () => {
    for (const url of [
      `${REST}/holdings/status/9XYZ`,
      `${REST}/holdings/status/%27%3B--`,
      `${REST}/holdings/removed/1HHB`,
      `${REST}/holdings/unreleased/9ZZZ`,
      `${REST}/core/drugbank/HEM`,
      `${REST}/core/interface/4HHB/1/1`,
    ]) {
      const r = await get(t.app, url);
      expect(r.status, url).toBe(404);
      expect(r.body, url).toMatchObject({ status: 404 });
      expect(String((r.body as { message: string }).message), url).toMatch(/^No data found for /);
    }
  });

  it('gives chem_comp.rcsb_chem_comp_info its required comp_id, over REST and GraphQL', async () => {
    const r = await get(t.app, `${REST}/core/chemcomp/HEM`);
    expect(r.body.rcsb_chem_comp_info.comp_id).toBe('HEM');
    const q = await graphql(t.app, '{ chem_comp(comp_id: "HEM") { rcsb_chem_comp_info { comp_id atom_count } } }');
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.chem_comp.rcsb_chem_comp_info.comp_id).toBe('HEM');
  });

  it('still lists current entry ids', async () => {
    const r = await get(t.app, `${REST}/holdings/current/entry_ids`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('4HHB');
  });
});

// Built in-process: the load's parse worker runs the compiled build (dist/), which `npm test` rebuilds first.
describe('assembly documents', () => {
  it("keep selected_polymer_entity_types within the assembly schema's enum for a glycoprotein (0GL1)", async () => {
    const text = gunzipSync(readFileSync(new URL('../src/services/pdb/demo/archive/gl/0gl1.cif.gz', import.meta.url))).toString('utf8');
    const docs = documentsOf(await readBlock(text), '0GL1', { structureFactors: false });
    const values = docs.parts.filter((p) => p.kind === 'assembly').map((p) => (p.doc.rcsb_assembly_info as Record<string, unknown>).selected_polymer_entity_types);
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) expect(['Nucleic acid (only)', 'Other', 'Protein (only)', 'Protein/NA']).toContain(v);
  });
});
