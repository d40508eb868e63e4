/**
 * The MCP server through the SDK's own client: in memory (the stdio server's wiring without the
 * process) and over Streamable HTTP at /mcp, on every service's demo data.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT } from '../src/mcp/result.js';
import { connectedClient } from './helpers/mcp.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { newToken, secret } from '../src/services/exec/secrets.js';
import { BUILTIN_SKILLS } from '../src/services/exec/settings.js';
import { SERVICES } from '../src/services/registry.js';
import type { TestApp } from './helpers/app.js';
import { mirrorApp } from './helpers/exec.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

/** One call per tool, on records the demo data holds. */
export const DEMO_CALLS: Record<string, Record<string, unknown>> = {
  trials_search: { condition: 'melanoma', limit: 3 },
  trials_get: { nct_id: 'NCT02513394' },
  gene_search: { query: 'BRCA1', limit: 3 },
  gene_get: { gene_id: '672' },
  clinvar_variants: { gene: 'BRCA1', limit: 3 },
  pubchem_compound: { name: 'aspirin' },
  pubchem_similarity: { smiles: 'CC(=O)OC1=CC=CC=C1C(=O)O', threshold: 80, limit: 3 },
  pubchem_substructure: { smiles: 'c1ccccc1', limit: 3 },
  gwas_associations: { variant: 'rs7903146', limit: 3 },
  pdb_entry: { entry_id: '4HHB' },
  pdb_search: { text: 'hemoglobin', limit: 3 },
  alphafold_prediction: { uniprot: 'P69905' },
  alphafold_confidence: { uniprot: 'P69905' },
  preprints: { from: '2024-01-01', to: '2024-01-31' },
  pharmgkb_gene: { symbol: 'CYP2D6' },
  skills_list: {},
  skills_describe: { skill: 'ncbi-gene' },
  gwas_sumstats_region: { chromosome: '1', start: 99_500_000, end: 99_600_000, limit: 5 },
  pdb_entity: { entry_id: '4HHB', entity_id: '1' },
  pdb_assembly: { entry_id: '4HHB' },
  pdb_attribute_search: { attribute: 'exptl.method', value: 'X-RAY DIFFRACTION', limit: 3 },
  pdb_sequence_search: { sequence: 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR' },
  pdb_structure_search: { entry_id: '4HHB', assembly_id: '1' },
  pdb_chemical_search: { descriptor: 'NCC(=O)O', match_type: 'graph-exact' },
  pharmgkb_clinical_annotations: { gene: 'CYP2D6' },
  pharmgkb_guidelines: { gene: 'CYP2D6' },
  pharmgkb_drug_labels: { drug: 'codeine' },
  pharmgkb_gene_drug_pairs: { gene: 'CYP2D6' },
  // The demo application's client token, as a caller who holds it would pass it.
  protocols_search: { filter: 'public', access_token: 'demo-client-token', limit: 3 },
  protocols_get: { protocol: '90001', access_token: 'demo-client-token' },
};

/** Tools that run scripts: they need the sandbox, and are tested where it is checked for (mcp-tools). */
export const SANDBOXED = new Set(['skills_run']);

const Output = z.object(OUTPUT);

/** Every data service plus the execution service with the built-in skills, demo data loaded. */
export async function demoMirror(store: OpenedStore): Promise<TestApp> {
  return mirrorApp(
    store,
    SERVICES.filter((s) => s.id !== 'exec'),
    { skillDirs: [BUILTIN_SKILLS] },
  );
}

describe.each(STORES)('MCP on $name', (target) => {
  let store: OpenedStore;
  let t: TestApp;
  let client: Client;

  beforeAll(async () => {
    store = await target.open();
    t = await demoMirror(store);
    client = await connectedClient({ app: t.app, generations: t.generations }, 'test');
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await store?.cleanup();
  });

  it('lists every tool with its schemas and read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(TOOLS.map((x) => x.name));
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      if (SANDBOXED.has(tool.name)) expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
      else expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    }
    expect(Object.keys(DEMO_CALLS).sort()).toEqual(
      tools
        .map((x) => x.name)
        .filter((n) => !SANDBOXED.has(n))
        .sort(),
    );
  });

  it('lists resource templates and a prompt per built-in skill', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(expect.arrayContaining(['pdb://entry/{id}', 'pubchem://compound/{cid}', 'clinicaltrials://study/{nct}', 'pdb://file/{name}']));
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('skill-ncbi-gene');
    const p = await client.getPrompt({ name: 'skill-ncbi-gene', arguments: { question: 'What is BRCA1?' } });
    const text = (p.messages[0]?.content as { text: string }).text;
    expect(text).toContain('What is BRCA1?');
    expect(text).toContain('esearch');
  });

  it('reads records as resources', async () => {
    const study = await client.readResource({ uri: 'clinicaltrials://study/NCT02513394' });
    expect((study.contents[0] as { text: string }).text).toContain('NCT02513394');
    const entry = await client.readResource({ uri: 'pdb://entry/4HHB' });
    expect((entry.contents[0] as { text: string }).text).toContain('4HHB');
    const cpd = await client.readResource({ uri: 'pubchem://compound/2244' });
    expect((cpd.contents[0] as { text: string }).text).toContain('2244');
    const file = await client.readResource({ uri: 'pdb://file/4hhb.cif' });
    expect(Buffer.from((file.contents[0] as { blob: string }).blob, 'base64').toString('utf8')).toMatch(/^data_4HHB/);
  });

  it('reads a resource whose URI percent-encodes its name as the record of that name', async () => {
    const file = await client.readResource({ uri: 'pdb://file/4hhb%2Ecif' });
    expect(Buffer.from((file.contents[0] as { blob: string }).blob, 'base64').toString('utf8')).toMatch(/^data_4HHB/);
    const cpd = await client.readResource({ uri: 'pubchem://compound/%32%32%34%34' });
    expect(JSON.parse((cpd.contents[0] as { text: string }).text).PC_Compounds[0].id.id.cid).toBe(2244);
    const study = await client.readResource({ uri: 'clinicaltrials://study/NCT0251339%34' });
    expect((study.contents[0] as { text: string }).text).toContain('NCT02513394');
  });

  it('refuses a resource name that is not well-formed percent-encoding, and echoes a long name cut short', async () => {
    await expect(client.readResource({ uri: 'pdb://entry/%E0%A4%A' })).rejects.toThrow(/entry %E0%A4%A: not well-formed percent-encoding/);
    const long = `x${'y'.repeat(5000)}.cif`;
    const err = await client.readResource({ uri: `pdb://file/${long}` }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/file xy+…/);
    expect(err?.message.length).toBeLessThan(400);
  });

  it.each(Object.entries(DEMO_CALLS))('%s answers on the demo data, within its output schema and 8 KB', async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    const text = (r.content as { text: string }[])[0]?.text ?? '';
    expect(r.isError, text).toBeFalsy();
    const out = Output.parse(r.structuredContent);
    expect(out.items.length, name).toBeGreaterThan(0);
    expect(out.ids.length).toBe(out.items.length);
    // Skills are files, not a load: their answers name the service only.
    if (!name.startsWith('skills_')) expect(out.source.datasets.length, `${name} names its source`).toBeGreaterThan(0);
    expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
  });

  it('summarises AlphaFold confidence and PAE from the loaded files', async () => {
    const out = Output.parse((await client.callTool({ name: 'alphafold_confidence', arguments: { uniprot: 'P69905' } })).structuredContent);
    const item = out.items[0] as { residues: number; mean_plddt: number; pae: { size: number; max: number } };
    expect(item.residues).toBeGreaterThan(100);
    expect(item.mean_plddt).toBeGreaterThan(0);
    expect(item.pae.size).toBe(item.residues);
  });

  it('pages by cursor', async () => {
    const first = Output.parse((await client.callTool({ name: 'trials_search', arguments: { limit: 1 } })).structuredContent);
    expect(first.next_cursor).not.toBeNull();
    const second = Output.parse((await client.callTool({ name: 'trials_search', arguments: { limit: 1, cursor: first.next_cursor } })).structuredContent);
    expect(second.ids[0]).not.toBe(first.ids[0]);
  });

  it('answers bad arguments with isError naming the argument', async () => {
    const bad = await client.callTool({ name: 'trials_get', arguments: { nct_id: 'nope' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toContain('nct_id');
    const range = await client.callTool({ name: 'trials_search', arguments: { limit: 5000 } });
    expect(range.isError).toBe(true);
    expect((range.content as { text: string }[])[0]?.text).toContain('limit');
    const cursor = await client.callTool({ name: 'trials_search', arguments: { cursor: '!!' } });
    expect(cursor.isError).toBe(true);
    expect((cursor.content as { text: string }[])[0]?.text).toContain('cursor');
    const none = await client.callTool({ name: 'pubchem_compound', arguments: {} });
    expect((none.content as { text: string }[])[0]?.text).toContain('name, cid or smiles');
  });

  it('says an unknown record is not in the loaded data and which dataset would hold it', async () => {
    const r = await client.callTool({ name: 'trials_get', arguments: { nct_id: 'NCT99999998' } });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]?.text).toMatch(/not in the loaded data.*clinicaltrials\/studies/);
    const pdb = await client.callTool({ name: 'pdb_entry', arguments: { entry_id: '9ZZZ' } });
    expect((pdb.content as { text: string }[])[0]?.text).toMatch(/not in the loaded data.*rcsb-data/);
  });

  describe('over Streamable HTTP at /mcp', () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

    // Not listening, the app cannot see a loopback address: as off loopback (see the exec tests).
    it('refuses a missing or wrong token off loopback, and accepts the right one', async () => {
      const none = await t.app.inject({ method: 'POST', url: '/mcp', headers, payload: init });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toContain('Bearer');
      const wrong = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...headers, authorization: 'Bearer nope' }, payload: init });
      expect(wrong.statusCode).toBe(401);
      const token = await secret(store.db, 'token', newToken);
      const ok = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...headers, authorization: `Bearer ${token}` }, payload: init });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().result.serverInfo.name).toBe('biomirror');
    });

    it('serves the same tools to the SDK client on loopback', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as AddressInfo).port;
      const http = new Client({ name: 'test-http', version: '1' });
      await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      try {
        const { tools } = await http.listTools();
        expect(tools.length).toBe(TOOLS.length);
        // The server is built once and shared: the answer of a second listing is the same.
        expect((await http.listTools()).tools.map((x) => x.name)).toEqual(tools.map((x) => x.name));
        for (const [name, args] of Object.entries(DEMO_CALLS)) {
          const r = await http.callTool({ name, arguments: args });
          expect(r.isError, name).toBeFalsy();
          Output.parse(r.structuredContent);
        }
        const bad = await http.callTool({ name: 'gene_get', arguments: { gene_id: 'x' } });
        expect(bad.isError).toBe(true);
        expect((bad.content as { text: string }[])[0]?.text).toContain('gene_id');
        expect((await http.listPrompts()).prompts.length).toBeGreaterThan(5);
      } finally {
        await http.close();
      }
    });
  });
});
