/**
 * The MCP benchmark: a tool call beside the same request through the HTTP API, in one run, on the
 * demo data of every service.
 * - in process: the SDK's client over an in-memory transport calling a tool, beside `app.inject`
 *   of the HTTP request the tool makes (what an in-process HTTP client would pay);
 * - over a socket: `POST /mcp` tools/call through the SDK's Streamable HTTP client, beside `fetch`
 *   of the same HTTP API URL on the same server;
 * - answer sizes: the mean bytes of each tool's answer (its text content) on its demo call.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/mcp.js [--runs 300]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';

// The built server (dist/), as the other benchmarks run it; typed by what is used here.
type Runtime = { generations: unknown; close(): Promise<void> };
const dist = (p: string) => import(join(ROOT, 'dist', p));
const { createMcpServer } = (await dist('mcp/server.js')) as { createMcpServer(ctx: { app: FastifyInstance; generations: unknown }): Promise<McpServer> };
const { buildApp } = (await dist('server/app.js')) as { buildApp(deps: unknown, services: unknown, prefixed: boolean): Promise<FastifyInstance> };
const { resolveConfig } = (await dist('server/config.js')) as { resolveConfig(o: Record<string, string>): unknown };
const { loadDemoData, openRuntime } = (await dist('server/serve.js')) as {
  loadDemoData(rt: Runtime, services: unknown): Promise<void>;
  openRuntime(config: unknown, services: unknown, log: Logger): Promise<Runtime>;
};
const { SERVICES } = (await dist('services/registry.js')) as { SERVICES: unknown };

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 300);

/** Each tool's call and the one HTTP request that answers the same question. */
const PAIRS: { tool: string; args: Record<string, unknown>; url: string }[] = [
  { tool: 'trials_get', args: { nct_id: 'NCT02513394' }, url: '/clinicaltrials/api/v2/studies/NCT02513394' },
  { tool: 'trials_search', args: { condition: 'melanoma', limit: 10 }, url: '/clinicaltrials/api/v2/studies?query.cond=melanoma&pageSize=10&countTotal=true&format=json' },
  { tool: 'gene_get', args: { gene_id: '672' }, url: '/datasets/v2alpha/gene/id/672' },
  { tool: 'pdb_entry', args: { entry_id: '4HHB' }, url: '/rcsb/data/rest/v1/core/entry/4HHB' },
  { tool: 'gwas_associations', args: { variant: 'rs7903146', limit: 10 }, url: '/gwas/rest/api/v2/associations?sort=p_value&direction=asc&size=10&page=0&rs_id=rs7903146' },
  { tool: 'alphafold_prediction', args: { uniprot: 'P69905' }, url: '/alphafold/api/prediction/P69905' },
];

/** The remaining tools, for answer sizes only. */
const SIZES: Record<string, Record<string, unknown>> = {
  gene_search: { query: 'BRCA1' },
  clinvar_variants: { gene: 'BRCA1' },
  pubchem_compound: { name: 'aspirin' },
  pubchem_similarity: { smiles: 'CC(=O)OC1=CC=CC=C1C(=O)O', threshold: 80 },
  pubchem_substructure: { smiles: 'c1ccccc1' },
  preprints: { from: '2024-01-01', to: '2024-01-31' },
  pharmgkb_gene: { symbol: 'CYP2D6' },
  skills_list: {},
  skills_describe: { skill: 'ncbi-gene' },
  pdb_search: { text: 'hemoglobin' },
  alphafold_confidence: { uniprot: 'P69905' },
};

async function time(n: number, f: () => Promise<unknown>): Promise<{ mean: number; p50: number }> {
  for (let i = 0; i < 20; i++) await f();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await f();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  xs.sort((a, b) => a - b);
  return { mean: round(xs.reduce((a, b) => a + b, 0) / n), p50: round(xs[Math.floor(n / 2)] ?? 0) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'biomirror-bench-mcp-'));
  const config = resolveConfig({ dataDir: dir, port: '0' });
  const quiet = pino({ level: 'error' });
  const runtime = await openRuntime(config, SERVICES, quiet);
  log('loading the demo data of every service');
  await loadDemoData(runtime, SERVICES);
  const app = await buildApp({ ...runtime, config }, SERVICES, true);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const server = await createMcpServer({ app, generations: runtime.generations });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const mem = new Client({ name: 'bench', version: '1' });
  await mem.connect(b);
  const http = new Client({ name: 'bench-http', version: '1' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));

  const rows = [];
  for (const p of PAIRS) {
    log(p.tool);
    const call = (c: Client) => async () => {
      const r = await c.callTool({ name: p.tool, arguments: p.args });
      if (r.isError) throw new Error(`${p.tool}: ${JSON.stringify(r.content)}`);
    };
    const inject = await time(RUNS, async () => JSON.parse((await app.inject({ method: 'GET', url: p.url })).body) as unknown);
    const tool = await time(RUNS, call(mem));
    const fetched = await time(RUNS, async () => (await fetch(`${base}${p.url}`)).json());
    const overHttp = await time(RUNS, call(http));
    rows.push({ tool: p.tool, inject, tool_in_memory: tool, fetch: fetched, tool_over_http: overHttp });
  }
  const sizes: Record<string, number> = {};
  for (const [tool, args] of [...PAIRS.map((p) => [p.tool, p.args] as const), ...Object.entries(SIZES)]) {
    const r = await mem.callTool({ name: tool, arguments: args });
    sizes[tool] = Buffer.byteLength((r.content as { text: string }[])[0]?.text ?? '');
  }
  console.table(rows.map((r) => ({ tool: r.tool, inject: r.inject.mean, 'tool in memory': r.tool_in_memory.mean, fetch: r.fetch.mean, 'tool /mcp': r.tool_over_http.mean })));
  writeResults('mcp', { machine: machine(), runs: RUNS, rows, sizes });
  await mem.close();
  await http.close();
  await app.close();
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
}

runMain(main);
