/**
 * The MCP tools of the GWAS summary statistics, PharmGKB, the PDB's entities, assemblies and
 * searches, the protocol service and script runs: the demo records' real values, the services'
 * own refusals, and the protocol service's rule that private content needs the caller's own token.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT } from '../src/mcp/result.js';
import { connectedClient } from './helpers/mcp.js';
import { BUILTIN_SKILLS } from '../src/services/exec/settings.js';
import { SERVICES } from '../src/services/registry.js';
import type { TestApp } from './helpers/app.js';
import { TEST_TOKEN, mirrorApp, missingSandbox } from './helpers/exec.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const Output = z.object(OUTPUT);
type Item = Record<string, unknown>;
const skip = missingSandbox();
const HBA = 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR';
const WANT = new Set(['gwas', 'pgx', 'rcsb-data', 'rcsb-search', 'protocols']);

describe.each(STORES)('MCP tools of GWAS summary statistics, PharmGKB, the PDB, protocols and skills on $name', (target) => {
  let store: OpenedStore;
  let t: TestApp;
  let client: Client;

  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    const text = (r.content as { text: string }[])[0]?.text ?? '';
    expect(r.isError, `${name}: ${text}`).toBeFalsy();
    expect(Buffer.byteLength(text), name).toBeLessThan(8 * 1024);
    return Output.parse(r.structuredContent);
  };
  const fails = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    expect(r.isError, name).toBe(true);
    return (r.content as { text: string }[])[0]?.text ?? '';
  };

  beforeAll(async () => {
    store = await target.open();
    t = await mirrorApp(
      store,
      SERVICES.filter((s) => WANT.has(s.id)),
      { skillDirs: [BUILTIN_SKILLS] },
    );
    client = await connectedClient({ app: t.app, generations: t.generations, execToken: async () => TEST_TOKEN }, 'test-tools');
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await store?.cleanup();
  });

  describe('gwas_sumstats_region', () => {
    it('answers the demo region with the rows of the loaded studies, and names the sumstats release', async () => {
      const out = await ok('gwas_sumstats_region', { chromosome: '1', start: 99_534_000, end: 99_536_000 });
      // Study, then position, as the service orders them.
      expect(out.ids).toEqual(['GCST005038:rs10875231', 'GCST005038:rs6678176', 'GCST005353:rs10875231']);
      expect(out.items[0]).toMatchObject({ chromosome: 1, base_pair_location: 99534456, effect_allele: 'T', other_allele: 'G', beta: -0.0072, p_value: '2.826e-1', study_accession: 'GCST005038' });
      expect(out.source.datasets.map((d) => d.dataset)).toContain('sumstats');
      expect(out.next_cursor).toBeNull();
    });

    it('pages a region by cursor, every row once, resuming after rows the 8 KB budget dropped', async () => {
      // 100 rows do not fit 8 KB: the answer is cut, and its cursor leads to the first row dropped.
      const all = await ok('gwas_sumstats_region', { chromosome: '1', start: 0, end: 300_000_000, limit: 100 });
      expect(all.truncated).toBe(true);
      const after = await ok('gwas_sumstats_region', { chromosome: '1', start: 0, end: 300_000_000, limit: 100, cursor: all.next_cursor });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: z.infer<typeof Output> = await ok('gwas_sumstats_region', { chromosome: '1', start: 0, end: 300_000_000, limit: 7, ...(cursor ? { cursor } : {}) });
        seen.push(...page.ids);
        cursor = page.next_cursor;
      } while (cursor && seen.length < 500);
      expect(seen.length).toBeGreaterThan(100);
      expect(seen.slice(0, all.ids.length + after.ids.length)).toEqual([...all.ids, ...after.ids]);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('keeps only rows under a p-value bound, one study, across pages', async () => {
      const bound = 0.05;
      const out = await ok('gwas_sumstats_region', { chromosome: '1', start: 0, end: 300_000_000, study: 'GCST005353', p_upper: bound, limit: 100 });
      expect(out.items.length).toBeGreaterThan(0);
      for (const row of out.items) {
        expect(Number(row.p_value)).toBeLessThanOrEqual(bound);
        expect(row.study_accession).toBe('GCST005353');
      }
      // The same rows, paged three at a time.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: z.infer<typeof Output> = await ok('gwas_sumstats_region', {
          chromosome: '1',
          start: 0,
          end: 300_000_000,
          study: 'GCST005353',
          p_upper: bound,
          limit: 3,
          ...(cursor ? { cursor } : {}),
        });
        paged.push(...page.ids);
        cursor = page.next_cursor;
      } while (cursor);
      expect(paged).toEqual(out.ids);
    });

    it('answers bad arguments and unknown studies with isError naming what was wrong', async () => {
      expect(await fails('gwas_sumstats_region', { chromosome: '99', start: 1, end: 2 })).toContain('chromosome');
      expect(await fails('gwas_sumstats_region', { chromosome: '1', start: 'one', end: 2 })).toContain('start');
      expect(await fails('gwas_sumstats_region', { chromosome: '1', start: 500, end: 100 })).toMatch(/Lower limit \(500\) is bigger than upper limit \(100\)/);
      expect(await fails('gwas_sumstats_region', { chromosome: '1', start: 1, end: 2, study: 'GCST999999' })).toMatch(/study GCST999999 is not in the loaded data/);
    });
  });

  describe('PharmGKB', () => {
    it('gives the clinical annotations of CYP2D6 with their evidence', async () => {
      const out = await ok('pharmgkb_clinical_annotations', { gene: 'CYP2D6' });
      expect(out.items.map((i) => i.drug)).toEqual(['codeine', 'tramadol']);
      expect(out.items[0]).toMatchObject({ id: '990000001', evidence_level: '1A', phenotype: 'Pain', variant: 'CYP2D6*1, CYP2D6*1xN, CYP2D6*4' });
      expect(out.source.datasets.map((d) => d.dataset)).toContain('pharmgkb');
    });

    it('gives the guidelines, drug labels and gene-drug pairs of a gene or a drug', async () => {
      const g = await ok('pharmgkb_guidelines', { gene: 'CYP2D6', drug: 'codeine' });
      expect(g.items.map((i) => i.source)).toEqual(['CPIC', 'DPWG']);
      expect(g.items[0]).toMatchObject({ id: 'PA990010001', strength: 'Strong', drugs: ['codeine'] });
      const byDrug = await ok('pharmgkb_drug_labels', { drug: 'codeine' });
      expect(byDrug.ids).toEqual(['PA990020001', 'PA990020007']);
      expect(byDrug.items[0]).toMatchObject({ source: 'FDA', testing_level: 'Actionable PGx', biomarkers: ['CYP2D6'] });
      const byGene = await ok('pharmgkb_drug_labels', { gene: 'CYP2D6' });
      expect(byGene.ids).toEqual(expect.arrayContaining(['PA990020001']));
      const pairs = await ok('pharmgkb_gene_drug_pairs', { gene: 'CYP2D6' });
      expect(pairs.ids).toEqual(['CYP2D6/codeine', 'CYP2D6/tramadol']);
      expect(pairs.items[0]).toMatchObject({ cpic_level: 'A', evidence_level: '1A', has_guideline: true });
      const first = await ok('pharmgkb_gene_drug_pairs', { gene: 'CYP2D6', limit: 1 });
      expect(first.total).toBe(2);
      const second = await ok('pharmgkb_gene_drug_pairs', { gene: 'CYP2D6', limit: 1, cursor: first.next_cursor });
      expect(second.ids).toEqual(['CYP2D6/tramadol']);
      expect(second.next_cursor).toBeNull();
    });

    it('answers bad arguments and unknown genes with the service message', async () => {
      expect(await fails('pharmgkb_guidelines', {})).toContain('gene or drug');
      expect(await fails('pharmgkb_clinical_annotations', { gene: 'CYP2D6', evidence_level: '9Z' })).toContain('evidence_level');
      expect(await fails('pharmgkb_guidelines', { gene: 'NOPE' })).toContain('Gene "NOPE" not found');
    });
  });

  describe('PDB entities, assemblies and searches', () => {
    it('says 4HHB entity 1 is hemoglobin alpha, UniProt P69905, chains A and C', async () => {
      const out = await ok('pdb_entity', { entry_id: '4hhb', entity_id: '1' });
      expect(out.ids).toEqual(['4HHB_1']);
      expect(out.items[0]).toMatchObject({ description: 'Hemoglobin subunit alpha', uniprot_ids: ['P69905'], chains: ['A', 'C'], length: 141, sequence: HBA });
      expect((out.items[0]?.organisms as Item[])[0]).toMatchObject({ name: 'Homo sapiens', taxonomy_id: 9606, genes: ['HBA1', 'HBA2'] });
      const heme = await ok('pdb_entity', { entry_id: '4HHB', entity_id: '3', kind: 'nonpolymer' });
      expect(heme.items[0]).toMatchObject({ comp_id: 'HEM', molecules: 4 });
      expect(heme.source.datasets.length).toBeGreaterThan(0);
    });

    it('gives the assembly of 4HHB: a tetramer of 14 asym units', async () => {
      const out = await ok('pdb_assembly', { entry_id: '4HHB', assembly_id: '1' });
      expect(out.ids).toEqual(['4HHB-1']);
      expect(out.items[0]).toMatchObject({ oligomeric_details: 'tetrameric', oligomeric_count: 4, method: 'PISA', composition: 'heteromeric protein', polymer_entity_instances: 4 });
      expect((out.items[0]?.generation as Item[])[0]?.asym_ids).toHaveLength(14);
    });

    it('runs attribute, sequence, structure and chemical queries', async () => {
      const xray = await ok('pdb_attribute_search', { attribute: 'exptl.method', value: 'X-RAY DIFFRACTION', limit: 10 });
      expect(xray.ids).toContain('4HHB');
      expect(xray.ids).not.toContain('0NM1');
      const seq = await ok('pdb_sequence_search', { sequence: HBA, identity_cutoff: 0.9 });
      expect(seq.ids).toEqual(['4HHB_1']);
      const shape = await ok('pdb_structure_search', { entry_id: '4HHB' });
      expect(shape.ids).toContain('4HHB-1');
      const gly = await ok('pdb_chemical_search', { descriptor: 'NCC(=O)O', match_type: 'graph-exact' });
      expect(gly.ids).toEqual(['GLY']);
      const entries = await ok('pdb_chemical_search', { descriptor: 'NCC(=O)O', match_type: 'graph-exact', return_type: 'entry', limit: 2 });
      expect(entries.total).toBeGreaterThan(2);
      expect(entries.ids).toHaveLength(2);
      const rest = await ok('pdb_chemical_search', { descriptor: 'NCC(=O)O', match_type: 'graph-exact', return_type: 'entry', limit: 2, cursor: entries.next_cursor });
      expect(rest.ids.some((id) => entries.ids.includes(id))).toBe(false);
      // No hits is an empty page, not an error.
      const none = await ok('pdb_attribute_search', { attribute: 'exptl.method', value: 'NEUTRON DIFFRACTION' });
      expect(none).toMatchObject({ ids: [], total: 0, next_cursor: null });
    });

    it('answers bad arguments and unknown records with the service message', async () => {
      expect(await fails('pdb_entity', { entry_id: '4HHB', entity_id: '9' })).toMatch(/not in the loaded data.*No data found for polymer_entity with id: 4HHB_9/);
      expect(await fails('pdb_entity', { entry_id: 'nope', entity_id: '1' })).toContain('entry_id');
      expect(await fails('pdb_assembly', { entry_id: '4HHB', assembly_id: '7' })).toContain('not in the loaded data');
      expect(await fails('pdb_attribute_search', { attribute: 'nope', value: 'x' })).toContain('Attribute nope is not a searchable attribute');
      expect(await fails('pdb_sequence_search', { sequence: 'MK' })).toContain('sequence');
      expect(await fails('pdb_chemical_search', { descriptor: 'C1CC(' })).toContain('Not a readable SMILES descriptor');
      expect(await fails('pdb_structure_search', { entry_id: '9ZZZ' })).toMatch(/9ZZZ/);
    });
  });

  describe('protocols with the caller token', () => {
    it('sees no private content without a token, and says how to give one', async () => {
      for (const filter of ['public', 'user_private']) {
        const text = await fails('protocols_search', { filter });
        expect(text).toContain('access_token');
        expect(text).toContain('access token is missing');
        expect(text).not.toContain('lab draft');
      }
      expect(await fails('protocols_get', { protocol: '90006' })).not.toContain('Ethanol');
      expect(await fails('protocols_search', { filter: 'public', access_token: 'not-a-token' })).toContain('access token is invalid');
    });

    it('lists public protocols, and private ones only to the token that owns them', async () => {
      const pub = await ok('protocols_search', { filter: 'public', access_token: 'demo-client-token', limit: 50 });
      expect(pub.items.every((i) => i.public === true)).toBe(true);
      expect(pub.ids).toContain('90001');
      expect(pub.ids).not.toContain('90006');
      const mine = await ok('protocols_search', { filter: 'user_private', access_token: 'demo-client-token' });
      expect(mine.ids).toContain('90006');
      expect(mine.items.every((i) => i.public === false && i.creator === 'biomirror-demo')).toBe(true);
      expect(mine.ids.some((id) => pub.ids.includes(id))).toBe(false);
      expect(mine.items.find((i) => i.id === 90006)).toMatchObject({ title: 'Ethanol precipitation of DNA (lab draft)' });
      expect(mine.source.datasets.map((d) => d.dataset)).toContain('protocols');
    });

    it('reads a protocol with its steps as text, paged under the budget', async () => {
      const out = await ok('protocols_get', { protocol: '90001', access_token: 'demo-client-token' });
      const p = out.items[0] as { title: string; step_texts: { step: number; text: string }[]; materials: string[] };
      expect(p.title).toBe('Phosphate-buffered saline (PBS), 1x, 1 L');
      expect(p.step_texts.map((s) => s.step)).toEqual([1, 2, 3, 4]);
      expect(p.step_texts[1]?.text).toBe('Adjust the pH to **7.4** with HCl.');
      expect(p.materials).toContain('Sodium chloride (NaCl)');
    });

    it('does not forward the Authorization header of a /mcp request, and takes X-Protocols-Authorization', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const url = new URL(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/mcp`);
      const asIs = new Client({ name: 'http-auth', version: '1' });
      await asIs.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer demo-client-token' } } }));
      const viaHeader = new Client({ name: 'http-protocols', version: '1' });
      await viaHeader.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-protocols-authorization': 'Bearer demo-client-token' } } }));
      try {
        const r = await asIs.callTool({ name: 'protocols_search', arguments: { filter: 'user_private' } });
        expect(r.isError).toBe(true);
        expect(JSON.stringify(r.content)).not.toContain('lab draft');
        const mine = await viaHeader.callTool({ name: 'protocols_search', arguments: { filter: 'user_private' } });
        expect(mine.isError, JSON.stringify(mine.content)).toBeFalsy();
        expect(Output.parse(mine.structuredContent).ids).toContain('90006');
      } finally {
        await asIs.close();
        await viaHeader.close();
      }
    });
  });

  describe('skills_run', () => {
    it.skipIf(skip !== '')(`runs a built-in skill script in the sandbox on the demo data${skip}`, async () => {
      const out = await ok('skills_run', { skill: 'pharmgkb', script: 'gene_drug_pairs', args: ['CYP2D6'] });
      const run = out.items[0] as { success: boolean; returncode: number; stdout: string; command: string };
      expect(run).toMatchObject({ success: true, returncode: 0 });
      expect((JSON.parse(run.stdout) as { pairs: { drug: string }[] }).pairs.map((p) => p.drug)).toEqual(['codeine', 'tramadol']);
      // A failing script is its answer, not a tool error: the exit status and stderr say why.
      const usage = await ok('skills_run', { skill: 'pharmgkb', script: 'gene_drug_pairs', args: [] });
      expect(usage.items[0]).toMatchObject({ success: false, returncode: 1 });
      expect(String(usage.items[0]?.stderr)).toContain('usage');
    });

    it('refuses unknown skills and scripts in the service words, and bad arguments by name', async () => {
      expect(await fails('skills_run', { skill: 'nope', script: 'x' })).toContain('no skill named "nope"');
      expect(await fails('skills_run', { skill: 'pharmgkb', script: 'nope' })).toContain('has no script named "nope"');
      expect(await fails('skills_run', { skill: 'pharmgkb', script: 'guidelines', args: [1] })).toContain('args');
      expect(await fails('skills_run', { skill: 'Bad Name', script: 'x' })).toContain('skill');
    });

    it('is annotated as running code that changes nothing outside this server', async () => {
      const tool = (await client.listTools()).tools.find((x) => x.name === 'skills_run');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: false, idempotentHint: false });
    });
  });
});
