import { readFileSync, statSync, utimesSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../src/core/ingest/errors.js';
import { STORES, tempDir } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import { copyArchive, DATA, DEMO_DIR, get, graphql, loadArchive, pdbApp, withDemoPdb, writeFile } from './helpers/pdb.js';
import { directAnswers } from '../src/services/pdb/data/graphql/direct.js';

const REST = `${DATA}/rest/v1/core`;

type Json = Record<string, unknown>;
/** JSON with each number replaced by `#I:<text>` (written whole) or `#F:<text>` (with a fraction or exponent). */
function numberForms(text: string): unknown {
  return JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (m) => (m.startsWith('"') ? m : JSON.stringify(`${/^-?\d+$/.test(m) ? '#I' : '#F'}:${m}`))));
}

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Data API on %s', (_name, target) => {
  let t: TestApp;

  withDemoPdb(target, (app) => (t = app));

  describe('REST core objects', () => {
    it('writes numbers as the real service does: number-typed fields with a fractional part, integers without', async () => {
      const r = await t.app.inject(`${REST}/entry/4HHB`);
      expect(r.body).toContain('"angle_alpha":90.0');
      expect(r.body).toMatch(/"Z_PDB":4[,}]/);
      // Every number of the recorded real entry that ours has at the same place is written the same way (whole or with a fraction).
      const real = numberForms(readFileSync(new URL('../../shared/reference/pdb/recorded/data-rest-core/entry_4HHB.json', import.meta.url), 'utf8'));
      const ours = numberForms(r.body);
      const compared: string[] = [];
      const walk = (a: unknown, b: unknown, at: string): void => {
        if (typeof a === 'string' && typeof b === 'string' && /^#[IF]:/.test(a) && /^#[IF]:/.test(b)) {
          compared.push(`${at} ${a.slice(0, 2)} ${b.slice(0, 2)}`);
          expect(b.slice(0, 2), `${at}: real ${a.slice(3)}, ours ${b.slice(3)}`).toBe(a.slice(0, 2));
        } else if (Array.isArray(a) && Array.isArray(b)) a.forEach((x, i) => walk(x, b[i], `${at}[${i}]`));
        else if (a && b && typeof a === 'object' && typeof b === 'object') for (const k of Object.keys(a)) if (k in b) walk((a as Json)[k], (b as Json)[k], `${at}.${k}`);
      };
      walk(real, ours, '');
      expect(compared.length).toBeGreaterThan(300);
      expect(compared.filter((c) => c.endsWith('#F #F')).length).toBeGreaterThan(10);
      expect(compared).toContain('.cell.angle_alpha #F #F');
      // Parts, chemical components and lists of them the same way.
      const entity = await t.app.inject(`${REST}/polymer_entity/4HHB/1`);
      expect(entity.body).toMatch(/"formula_weight":\d+\.\d+/);
    });

    it('serves the 4HHB entry with the archive categories under their schema names and the RCSB summaries', async () => {
      const r = await get(t.app, `${REST}/entry/4HHB`);
      expect(r.status).toBe(200);
      expect(r.type).toMatch(/^application\/json/);
      const e = r.body;
      expect(e.rcsb_id).toBe('4HHB');
      expect(e.struct.title).toBe('THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION');
      expect(e.exptl).toEqual([{ method: 'X-RAY DIFFRACTION' }]);
      expect(e.cell).toMatchObject({ length_a: 63.15, length_b: 83.59, length_c: 53.8, angle_beta: 99.34, Z_PDB: 4 });
      expect(e.symmetry).toMatchObject({ space_group_name_H_M: 'P 1 21 1', Int_Tables_number: 4 });
      expect(e.refine[0].ls_d_res_high).toBe(1.74);
      // The values the live service reports for 4HHB.
      expect(e.rcsb_entry_info).toMatchObject({
        assembly_count: 1,
        deposited_atom_count: 4779,
        deposited_model_count: 1,
        deposited_polymer_monomer_count: 574,
        deposited_polymer_entity_instance_count: 4,
        deposited_nonpolymer_entity_instance_count: 6,
        deposited_solvent_atom_count: 221,
        entity_count: 5,
        experimental_method: 'X-ray',
        inter_mol_metalic_bond_count: 4,
        molecular_weight: 64.74,
        nonpolymer_bound_components: ['HEM'],
        polymer_composition: 'heteromeric protein',
        polymer_entity_count: 2,
        polymer_entity_count_protein: 2,
        polymer_entity_count_DNA: 0,
        polymer_entity_taxonomy_count: 2,
        polymer_molecular_weight_maximum: 15.89,
        polymer_molecular_weight_minimum: 15.15,
        resolution_combined: [1.74],
        selected_polymer_entity_types: 'Protein (only)',
      });
      expect(e.rcsb_accession_info).toEqual({
        deposit_date: '1984-03-07T00:00:00+0000',
        has_released_experimental_data: 'N',
        initial_release_date: '1984-07-17T00:00:00+0000',
        major_revision: 4,
        minor_revision: 1,
        revision_date: '2023-03-15T00:00:00+0000',
        status_code: 'REL',
      });
      expect(e.rcsb_entry_container_identifiers).toMatchObject({
        entry_id: '4HHB',
        entity_ids: ['1', '2', '3', '4', '5'],
        polymer_entity_ids: ['1', '2'],
        non_polymer_entity_ids: ['3', '4'],
        assembly_ids: ['1'],
        model_ids: [1],
        pubmed_id: 6726807,
      });
      expect(e.rcsb_primary_citation).toMatchObject({ id: 'primary', pdbx_database_id_PubMed: 6726807, rcsb_journal_abbrev: 'J Mol Biol', year: 1984 });
      expect(e.rcsb_primary_citation.rcsb_authors).toEqual(['Fermi, G.', 'Perutz, M.F.', 'Shaanan, B.', 'Fourme, R.']);
      // Absent values are left out, never null.
      expect(r.raw).not.toContain('null');
    });

    it('has every field the contract names, for every loaded entry and its entities and assemblies', async () => {
      const ids = (await get(t.app, `${DATA}/rest/v1/holdings/current/entry_ids`)).body as unknown as string[];
      expect(ids.length).toBeGreaterThanOrEqual(5);
      for (const id of ids) {
        const e = (await get(t.app, `${REST}/entry/${id}`)).body;
        expect(typeof e.struct?.title, id).toBe('string');
        expect(e.exptl?.[0]?.method, id).toEqual(expect.any(String));
        expect(e.rcsb_entry_info.deposited_atom_count, id).toBeGreaterThan(0);
        expect(e.rcsb_entry_info.polymer_entity_count, id).toBeGreaterThan(0);
        // Resolution is a property of diffraction and microscopy, absent for NMR as on the real service.
        if (e.rcsb_entry_info.experimental_method === 'NMR') expect(e.rcsb_entry_info.resolution_combined, id).toBeUndefined();
        else expect(e.rcsb_entry_info.resolution_combined?.[0], id).toBeGreaterThan(0);
        expect(e.rcsb_accession_info.deposit_date, id).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\+0000$/);
        expect(e.rcsb_accession_info.initial_release_date, id).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\+0000$/);
        for (const entity of e.rcsb_entry_container_identifiers.polymer_entity_ids) {
          const p = (await get(t.app, `${REST}/polymer_entity/${id}/${entity}`)).body;
          expect(p.entity_poly.pdbx_seq_one_letter_code, `${id}_${entity}`).toMatch(/^[A-Z()]+$/);
          expect(p.entity_poly.pdbx_strand_id, `${id}_${entity}`).toEqual(expect.any(String));
          expect(p.rcsb_polymer_entity.formula_weight, `${id}_${entity}`).toBeGreaterThan(0);
          expect(p.rcsb_polymer_entity.pdbx_description, `${id}_${entity}`).toEqual(expect.any(String));
          expect(p.rcsb_entity_source_organism?.[0]?.scientific_name, `${id}_${entity}`).toEqual(expect.any(String));
          expect(p.rcsb_entity_source_organism?.[0]?.ncbi_taxonomy_id, `${id}_${entity}`).toEqual(expect.any(Number));
        }
        for (const asm of e.rcsb_entry_container_identifiers.assembly_ids ?? []) {
          const a = (await get(t.app, `${REST}/assembly/${id}/${asm}`)).body;
          expect(a.rcsb_assembly_info, `${id}-${asm}`).toMatchObject({ assembly_id: asm, polymer_entity_count: expect.any(Number) });
        }
      }
    });

    it('finds entries in any letter case', async () => {
      const r = await get(t.app, `${REST}/entry/4hhb`);
      expect(r.status).toBe(200);
      expect(r.body.rcsb_id).toBe('4HHB');
    });

    it('serves polymer entities by the slash form and by entry_entity', async () => {
      const slash = await get(t.app, `${REST}/polymer_entity/4HHB/1`);
      const underscore = await get(t.app, `${REST}/polymer_entity/4hhb_1`);
      expect(slash.status).toBe(200);
      expect(underscore.body).toEqual(slash.body);
      const p = slash.body;
      expect(p.rcsb_id).toBe('4HHB_1');
      expect(p.rcsb_polymer_entity).toMatchObject({ pdbx_description: 'Hemoglobin subunit alpha', formula_weight: 15.15, pdbx_number_of_molecules: 2 });
      expect(p.entity_poly).toMatchObject({ type: 'polypeptide(L)', pdbx_strand_id: 'A,C', rcsb_entity_polymer_type: 'Protein', rcsb_sample_sequence_length: 141 });
      expect(p.entity_poly.pdbx_seq_one_letter_code_can).toMatch(/^VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF[A-Z]+KYR$/);
      expect(p.rcsb_entity_source_organism[0]).toMatchObject({ ncbi_taxonomy_id: 9606, scientific_name: 'Homo sapiens', source_type: 'genetically engineered' });
      expect(p.rcsb_polymer_entity_container_identifiers).toMatchObject({ asym_ids: ['A', 'C'], auth_asym_ids: ['A', 'C'], entity_id: '1', entry_id: '4HHB', uniprot_ids: ['P69905'] });
    });

    it('serves non-polymer and branched entities', async () => {
      const heme = await get(t.app, `${REST}/nonpolymer_entity/4HHB/3`);
      expect(heme.status).toBe(200);
      expect(heme.body.pdbx_entity_nonpoly).toMatchObject({ comp_id: 'HEM', entity_id: '3' });
      expect(heme.body.rcsb_nonpolymer_entity).toMatchObject({ formula_weight: 0.616, pdbx_number_of_molecules: 4 });
      expect(heme.body.rcsb_nonpolymer_entity_container_identifiers).toMatchObject({ nonpolymer_comp_id: 'HEM', rcsb_id: '4HHB_3' });
      const glycan = await get(t.app, `${DATA}/rest/v1/holdings/current/entry_ids`);
      expect(glycan.body).toEqual(expect.arrayContaining(['4HHB', '0GL1', '0NA1', '0NM1', '0BG1']));
      const entry = await get(t.app, `${REST}/entry/0GL1`);
      const branchedId = entry.body.rcsb_entry_container_identifiers.branched_entity_ids?.[0];
      expect(branchedId).toBeDefined();
      const b = await get(t.app, `${REST}/branched_entity/0GL1/${branchedId}`);
      expect(b.status).toBe(200);
      expect(b.body.pdbx_entity_branch.type).toBe('oligosaccharide');
      expect(b.body.rcsb_branched_entity_container_identifiers.chem_comp_monomers.length).toBeGreaterThan(0);
    });

    it('serves instances with case-sensitive chain ids', async () => {
      const a = await get(t.app, `${REST}/polymer_entity_instance/4HHB/A`);
      expect(a.status).toBe(200);
      expect(a.body.rcsb_polymer_entity_instance_container_identifiers).toMatchObject({ asym_id: 'A', auth_asym_id: 'A', entity_id: '1', entry_id: '4HHB', rcsb_id: '4HHB.A' });
      expect(a.body.rcsb_polymer_entity_instance_container_identifiers.auth_to_entity_poly_seq_mapping).toHaveLength(141);
      const lower = await get(t.app, `${REST}/polymer_entity_instance/4HHB/a`);
      expect(lower.status).toBe(404);
      const ligand = await get(t.app, `${REST}/nonpolymer_entity_instance/4HHB/E`);
      expect(ligand.status).toBe(200);
      expect(ligand.body.rcsb_nonpolymer_entity_instance_container_identifiers).toMatchObject({ asym_id: 'E', comp_id: expect.any(String), entity_id: expect.any(String) });
    });

    it('serves assemblies with generators, operators and what they hold', async () => {
      const r = await get(t.app, `${REST}/assembly/4HHB/1`);
      expect(r.status).toBe(200);
      expect(r.body.rcsb_id).toBe('4HHB-1');
      expect(r.body.pdbx_struct_assembly).toMatchObject({ id: '1', oligomeric_count: 4, oligomeric_details: 'tetrameric' });
      expect(r.body.pdbx_struct_assembly_gen[0].asym_id_list).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N']);
      expect(r.body.pdbx_struct_oper_list[0]).toMatchObject({ id: '1', matrix_1_1: 1, vector_1: 0 });
      expect(r.body.rcsb_assembly_info).toMatchObject({ atom_count: 4779, polymer_entity_instance_count: 4, polymer_entity_count: 2, polymer_composition: 'heteromeric protein' });
      const big = await get(t.app, `${REST}/entry/0BG1`);
      const asm = big.body.rcsb_entry_container_identifiers.assembly_ids[0];
      const expanded = await get(t.app, `${REST}/assembly/0BG1/${asm}`);
      expect(expanded.body.rcsb_assembly_info.atom_count).toBeGreaterThanOrEqual(big.body.rcsb_entry_info.deposited_atom_count);
    });

    it('serves chemical components from the dictionary, with descriptors', async () => {
      const r = await get(t.app, `${REST}/chemcomp/HEM`);
      expect(r.status).toBe(200);
      expect(r.body.chem_comp).toMatchObject({ id: 'HEM', type: 'non-polymer', formula: 'C34 H32 Fe N4 O4' });
      expect(r.body.rcsb_chem_comp_descriptor.InChIKey).toMatch(/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/);
      expect(r.body.rcsb_chem_comp_descriptor.SMILES).toBeTruthy();
      expect((await get(t.app, `${REST}/chemcomp/hem`)).status).toBe(200);
    });

    it('serves UniProt mappings from SIFTS as an array, and PubMed of the primary citation', async () => {
      const u = await get(t.app, `${REST}/uniprot/4HHB/2`);
      expect(u.status).toBe(200);
      expect(Array.isArray(u.body)).toBe(true);
      expect(u.body[0]).toMatchObject({ rcsb_id: 'P68871', rcsb_uniprot_accession: ['P68871'], rcsb_uniprot_container_identifiers: { uniprot_id: 'P68871' } });
      const p = await get(t.app, `${REST}/pubmed/4hhb`);
      expect(p.body).toEqual({ rcsb_id: '6726807', rcsb_pubmed_container_identifiers: { pubmed_id: 6726807 }, rcsb_pubmed_doi: '10.1016/0022-2836(84)90472-8' });
    });

    it('lists holdings and serves the published schemas', async () => {
      const ccd = await get(t.app, `${DATA}/rest/v1/holdings/current/ccd_ids`);
      expect(ccd.body).toEqual(expect.arrayContaining(['HEM', 'HOH', 'PO4']));
      const s = await get(t.app, `${DATA}/rest/v1/schema/entry`);
      expect(s.status).toBe(200);
      expect(s.body.title).toContain('pdbx_core_entry');
      expect((await get(t.app, `${DATA}/rest/v1/schema/nothing`)).status).toBe(404);
    });

    it('answers unknown ids, paths and forms with the Data API 404', async () => {
      for (const url of [
        `${REST}/entry/9ZZZ`,
        `${REST}/entry/%3Cscript%3E`,
        `${REST}/polymer_entity/4HHB/99`,
        `${REST}/polymer_entity/4HHB`,
        `${REST}/assembly/4HHB/7`,
        `${REST}/chemcomp/NOPE1`,
        `${REST}/uniprot/4HHB/3`,
        `${REST}/pubmed/9ZZZ`,
      ]) {
        const r = await get(t.app, url);
        expect(r.status, url).toBe(404);
        expect(r.body, url).toMatchObject({ status: 404, message: expect.stringContaining('No data found') });
      }
      const route = await get(t.app, `${REST}/chem_comp/HEM`);
      expect(route.status).toBe(404);
      expect(route.body).toEqual({ status: 404, message: 'HTTP 404 Not Found' });
    });
  });

  describe('GraphQL', () => {
    it('answers the full introspection query, as rcsbapi runs it at import', async () => {
      const r = await graphql(t.app, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.__schema.queryType.name).toBe('Query');
      expect(r.body.data.__schema.types.length).toBeGreaterThan(300);
      const roots = await graphql(t.app, '{ __schema { queryType { fields { name args { name type { name kind ofType { name kind } } } } } } }');
      const names = roots.body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
      expect(names).toEqual(expect.arrayContaining(['entry', 'entries', 'polymer_entity', 'polymer_entities', 'chem_comp', 'assemblies', 'uniprot', 'pubmed']));
    });

    it("answers a scalar's specification link by the real service's spelling and by today's", async () => {
      for (const field of ['specifiedByUrl', 'specifiedByURL']) {
        const r = await graphql(t.app, `{ __type(name: "Date") { name kind ${field} } }`);
        expect(r.body.errors, field).toBeUndefined();
        expect(r.body.data.__type).toEqual({ name: 'Date', kind: 'SCALAR', [field]: null });
      }
      // graphql-js 15's introspection query, which asks for the old spelling.
      const old = await graphql(t.app, '{ __schema { types { name specifiedByUrl } } }');
      expect(old.body.errors).toBeUndefined();
      expect(old.body.data.__schema.types.length).toBeGreaterThan(300);
    });

    it('runs the documentation query of RCSB unchanged', async () => {
      const r = await graphql(t.app, '{ entries(entry_ids: ["4HHB"]) { rcsb_id exptl { method_details method crystals_number details } } }');
      expect(r.body).toEqual({ data: { entries: [{ rcsb_id: '4HHB', exptl: [{ method_details: null, method: 'X-RAY DIFFRACTION', crystals_number: null, details: null }] }] } });
    });

    it('answers queries of document fields as the general executor does', async () => {
      // `@include(if: true)` changes nothing in the answer, but sends a query down the general path.
      const ids = (await get(t.app, `${DATA}/rest/v1/holdings/current/entry_ids`)).body as string[];
      const wanted = JSON.stringify([...ids, '9ZZZ', (ids[0] as string).toLowerCase(), ids[0]]);
      const fields = `rcsb_id __typename struct { title } exptl { method } rcsb_accession_info { initial_release_date deposit_date }
        rcsb_entry_info { resolution_combined deposited_atom_count polymer_entity_count molecular_weight experimental_method }
        rcsb_primary_citation { title pdbx_database_id_PubMed } citation { id title journal_volume } struct_keywords { pdbx_keywords }
        id: rcsb_id cell { length_a angle_beta Z_PDB }`;
      const pairs = [
        [`{ entries(entry_ids: ${wanted}) { ${fields} } }`, `{ entries(entry_ids: ${wanted}) @include(if: true) { ${fields} } }`],
        [`{ one: entry(entry_id: "4hhb") { ${fields} } }`, `{ one: entry(entry_id: "4hhb") @include(if: true) { ${fields} } }`],
        ['{ entry(entry_id: "9ZZZ") { rcsb_id } }', '{ entry(entry_id: "9ZZZ") @include(if: true) { rcsb_id } }'],
      ];
      for (const [direct, general] of pairs) {
        const before = directAnswers.count;
        const a = await graphql(t.app, direct as string);
        expect(directAnswers.count, direct).toBe(before + 1);
        const b = await graphql(t.app, general as string);
        expect(directAnswers.count, general).toBe(before + 1);
        expect(a.body.errors).toBeUndefined();
        expect(JSON.stringify(a.body)).toBe(JSON.stringify(b.body));
      }
      const named = await t.app.inject({ method: 'POST', url: `${DATA}/graphql`, payload: { query: 'query Q { entry(entry_id: "4HHB") { rcsb_id } }', operationName: 'Other' } });
      expect(named.json().errors[0].message).toMatch(/Other/);
    });

    it('answers every root field, null for unknown ids on singular fields and dropping them on plural ones', async () => {
      const q = `{
        entry(entry_id: "4hhb") { rcsb_id rcsb_accession_info { deposit_date } }
        missing: entry(entry_id: "9ZZZ") { rcsb_id }
        entries(entry_ids: ["4HHB", "9ZZZ", "0NA1"]) { rcsb_id }
        polymer_entity(entry_id: "4HHB", entity_id: "2") { rcsb_id }
        polymer_entities(entity_ids: ["4HHB_1", "4HHB_9"]) { rcsb_id }
        nonpolymer_entity(entry_id: "4HHB", entity_id: "4") { rcsb_id }
        nonpolymer_entities(entity_ids: ["4HHB_3"]) { rcsb_id }
        polymer_entity_instance(entry_id: "4HHB", asym_id: "B") { rcsb_id }
        polymer_entity_instances(instance_ids: ["4HHB.A", "4HHB.Z"]) { rcsb_id }
        nonpolymer_entity_instance(entry_id: "4HHB", asym_id: "E") { rcsb_id }
        nonpolymer_entity_instances(instance_ids: ["4HHB.E"]) { rcsb_id }
        assembly(entry_id: "4HHB", assembly_id: "1") { rcsb_id }
        assemblies(assembly_ids: ["4HHB-1"]) { rcsb_id }
        chem_comp(comp_id: "HEM") { chem_comp { id name } rcsb_chem_comp_descriptor { InChIKey } }
        chem_comps(comp_ids: ["HEM", "NOPE1"]) { rcsb_id }
        uniprot(uniprot_id: "P69905") { rcsb_id }
        pubmed(pubmed_id: 6726807) { rcsb_id rcsb_pubmed_doi }
        interfaces(interface_ids: ["4HHB-1.1"]) { rcsb_id }
      }`;
      const r = await graphql(t.app, q);
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      const d = r.body.data;
      expect(d.entry).toEqual({ rcsb_id: '4HHB', rcsb_accession_info: { deposit_date: '1984-03-07T00:00:00Z' } });
      expect(d.missing).toBeNull();
      expect(d.entries.map((e: { rcsb_id: string }) => e.rcsb_id)).toEqual(['4HHB', '0NA1']);
      expect(d.polymer_entity.rcsb_id).toBe('4HHB_2');
      expect(d.polymer_entities).toEqual([{ rcsb_id: '4HHB_1' }]);
      expect(d.nonpolymer_entity.rcsb_id).toBe('4HHB_4');
      expect(d.nonpolymer_entities).toEqual([{ rcsb_id: '4HHB_3' }]);
      expect(d.polymer_entity_instance.rcsb_id).toBe('4HHB.B');
      expect(d.polymer_entity_instances).toEqual([{ rcsb_id: '4HHB.A' }]);
      expect(d.nonpolymer_entity_instance.rcsb_id).toBe('4HHB.E');
      expect(d.nonpolymer_entity_instances).toEqual([{ rcsb_id: '4HHB.E' }]);
      expect(d.assembly.rcsb_id).toBe('4HHB-1');
      expect(d.assemblies).toEqual([{ rcsb_id: '4HHB-1' }]);
      expect(d.chem_comp.chem_comp.id).toBe('HEM');
      expect(d.chem_comps).toEqual([{ rcsb_id: 'HEM' }]);
      expect(d.uniprot.rcsb_id).toBe('P69905');
      expect(d.pubmed).toEqual({ rcsb_id: '6726807', rcsb_pubmed_doi: '10.1016/0022-2836(84)90472-8' });
      expect(d.interfaces).toEqual([]);
    });

    it('follows the links between objects', async () => {
      const q = `query Q($id: String!) { entry(entry_id: $id) {
        polymer_entities { rcsb_id uniprots { rcsb_id } entry { rcsb_id }
          polymer_entity_instances { rcsb_id polymer_entity { rcsb_polymer_entity { pdbx_description } } } }
        nonpolymer_entities { rcsb_id nonpolymer_comp { chem_comp { id } } nonpolymer_entity_instances { rcsb_id } }
        assemblies { rcsb_id entry { rcsb_id } polymer_entity_instances { rcsb_id } nonpolymer_entity_instances { rcsb_id } }
        branched_entities { rcsb_id }
        pubmed { rcsb_id }
      } }`;
      const r = await graphql(t.app, q, { id: '4HHB' });
      expect(r.body.errors).toBeUndefined();
      const e = r.body.data.entry;
      expect(e.polymer_entities.map((p: { rcsb_id: string }) => p.rcsb_id)).toEqual(['4HHB_1', '4HHB_2']);
      expect(e.polymer_entities[0].uniprots).toEqual([{ rcsb_id: 'P69905' }]);
      expect(e.polymer_entities[0].entry).toEqual({ rcsb_id: '4HHB' });
      expect(e.polymer_entities[0].polymer_entity_instances.map((i: { rcsb_id: string }) => i.rcsb_id)).toEqual(['4HHB.A', '4HHB.C']);
      expect(e.polymer_entities[1].polymer_entity_instances[0].polymer_entity.rcsb_polymer_entity.pdbx_description).toBe('Hemoglobin subunit beta');
      expect(e.nonpolymer_entities.find((n: { rcsb_id: string }) => n.rcsb_id === '4HHB_3').nonpolymer_comp.chem_comp.id).toBe('HEM');
      expect(e.assemblies[0].polymer_entity_instances).toHaveLength(4);
      expect(e.assemblies[0].nonpolymer_entity_instances).toHaveLength(6);
      expect(e.branched_entities).toBeNull();
      expect(e.pubmed).toEqual({ rcsb_id: '6726807' });
      const glycan = await graphql(
        t.app,
        '{ entry(entry_id: "0GL1") { branched_entities { rcsb_id chem_comp_monomers { rcsb_id } branched_entity_instances { rcsb_id branched_entity { rcsb_id } } } } }',
      );
      expect(glycan.body.errors).toBeUndefined();
      expect(glycan.body.data.entry.branched_entities[0].branched_entity_instances[0].branched_entity.rcsb_id).toBe(glycan.body.data.entry.branched_entities[0].rcsb_id);
    });

    it('takes GET ?query= as well as POST', async () => {
      const r = await t.app.inject({ method: 'GET', url: `${DATA}/graphql?query=${encodeURIComponent('{ entry(entry_id: "4HHB") { rcsb_id } }')}` });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ data: { entry: { rcsb_id: '4HHB' } } });
    });

    it('answers malformed, unknown, deep and costly queries with 200 and errors', async () => {
      const cases: [string, RegExp][] = [
        ['{ entry(entry_id: "4HHB") { nope } }', /Cannot query field "nope"/],
        ['{ entry(entry_id: "4HHB") { rcsb_id ', /Syntax Error/],
        ['{ entry { rcsb_id } }', /argument "entry_id"/],
        [`{ entry(entry_id: "4HHB") { ${'polymer_entities { entry { '.repeat(14)} rcsb_id ${'} } '.repeat(14)} } }`, /levels deep/],
        [
          `{ entries(entry_ids: [${Array.from({ length: 3000 }, (_, i) => `"${i}"`).join(',')}]) { polymer_entities { polymer_entity_instances { polymer_entity { polymer_entity_instances { rcsb_id } } } } } }`,
          /too expensive/,
        ],
      ];
      for (const [q, message] of cases) {
        const r = await graphql(t.app, q);
        expect(r.status, q.slice(0, 60)).toBe(200);
        expect(r.body.data, q.slice(0, 60)).toBeNull();
        expect(r.body.errors[0].message, q.slice(0, 60)).toMatch(message);
        expect(r.body.errors[0].extensions.classification).toMatch(/ValidationError|InvalidSyntax/);
      }
      const noQuery = await t.app.inject({ method: 'POST', url: `${DATA}/graphql`, payload: { variables: {} } });
      expect(noQuery.statusCode).toBe(200);
      expect(noQuery.json().errors[0].message).toMatch(/query/);
      const after = await graphql(t.app, '{ entry(entry_id: "4HHB") { rcsb_id } }');
      expect(after.body).toEqual({ data: { entry: { rcsb_id: '4HHB' } } });
    });
  });

  // Each load also builds the search engines' indexes (MMseqs2 databases and clusters, the motif index).
  describe('loads', { timeout: 300_000 }, () => {
    it('re-reads only changed entries on an update run and removes entries no longer in the archive', async () => {
      const s = await target.open();
      try {
        const app = await pdbApp(s);
        const dir = copyArchive();
        const first = await loadArchive(s, app.generations, dir);
        expect(first.records).toBeGreaterThanOrEqual(5);
        const file = join(dir, 'hh', '4hhb.cif.gz');
        // Same size and time, other bytes: an update run must not read it again.
        const st = statSync(file);
        const bytes = readFileSync(file);
        const tampered = Buffer.from(bytes);
        tampered[tampered.length - 20] = (tampered[tampered.length - 20] ?? 0) ^ 0xff;
        writeFileSync(file, tampered);
        utimesSync(file, st.atime, st.mtime);
        // A changed entry: a new title, a new time.
        const na = join(dir, 'na', '0na1.cif.gz');
        const { gunzipSync } = await import('node:zlib');
        const text = gunzipSync(readFileSync(na))
          .toString('utf8')
          .replace(/_struct\.title\s+(.+)/, "_struct.title 'UPDATED TITLE'");
        writeFileSync(na, gzipSync(text));
        utimesSync(na, new Date(), new Date(Date.now() + 5000));
        // A removed entry.
        rmSync(join(dir, 'nm', '0nm1.cif.gz'));
        const second = await loadArchive(s, app.generations, dir);
        expect(second.skipped, JSON.stringify(second)).toBe(0);
        expect((await get(app.app, `${REST}/entry/4HHB`)).body.rcsb_entry_info.deposited_atom_count).toBe(4779);
        expect((await get(app.app, `${REST}/entry/0NA1`)).body.struct.title).toBe('UPDATED TITLE');
        expect((await get(app.app, `${REST}/entry/0NM1`)).status).toBe(404);
        await app.close();
      } finally {
        await s.cleanup();
      }
    });

    it('skips and reports a truncated entry file, loads the rest, and keeps serving after a failed load', async () => {
      const s = await target.open();
      try {
        const app = await pdbApp(s);
        const dir = copyArchive();
        const good = readFileSync(join(dir, 'hh', '4hhb.cif.gz'));
        writeFile(dir, 'zz/1zzz.cif.gz', good.subarray(0, Math.floor(good.length / 2)));
        writeFile(dir, 'yy/2yyy.cif', 'data_2YYY\n_entry.id 2YYY\nloop_\n_atom_site.id\n');
        writeFile(dir, 'xx/3xxx.cif', 'this is not CIF at all {{{');
        const r = await loadArchive(s, app.generations, dir);
        expect(r.skipped).toBeGreaterThanOrEqual(2);
        expect((await get(app.app, `${REST}/entry/4HHB`)).status).toBe(200);
        expect((await get(app.app, `${REST}/entry/1ZZZ`)).status).toBe(404);
        const empty = tempDir();
        writeFile(empty, 'readme.txt', 'no entries here');
        await expect(loadArchive(s, app.generations, empty)).rejects.toBeInstanceOf(FormatError);
        expect((await get(app.app, `${REST}/entry/4HHB`)).status).toBe(200);
        await app.close();
      } finally {
        await s.cleanup();
      }
    });

    it('reads a list of files', async () => {
      const s = await target.open();
      try {
        const app = await pdbApp(s);
        const list = writeFile(tempDir(), 'entries.txt', `# two entries\n${join(DEMO_DIR, 'archive', 'hh', '4hhb.cif.gz')}\n${join(DEMO_DIR, 'archive', 'na', '0na1.cif.gz')}\n`);
        const r = await loadArchive(s, app.generations, list);
        expect(r.records).toBe(2);
        expect((await get(app.app, `${DATA}/rest/v1/holdings/current/entry_ids`)).body).toEqual(['0NA1', '4HHB']);
        await app.close();
      } finally {
        await s.cleanup();
      }
    });
  });
});
