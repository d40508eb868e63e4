/**
 * The MCP benchmark: a tool call beside the same request through the HTTP API, in one run, on the
 * demo data of every service.
 * - in process: the SDK's client over an in-memory transport calling a tool, beside `app.inject`
 *   of the HTTP request the tool makes (what an in-process HTTP client would pay);
 * - over stdio: `biomirror mcp` started as an agent starts it (a subprocess on the same data
 *   folder, reading beside this server), called through the SDK's stdio client;
 * - over a socket: `POST /mcp` tools/call through the SDK's Streamable HTTP client, and the same
 *   JSON-RPC request by a plain `fetch` (the server's part alone, without the SDK client's own
 *   parsing), beside `fetch` of the same HTTP API URL on the same server (the goal: a tool call
 *   within 10 % of that request);
 * - the ways that cross processes twice: alternating call by call (each call finds its process
 *   asleep and the others' work in the caches), and in rounds of `--block` calls of each way (warm);
 *   the in-process ways are timed in rounds of their own, so that their work (a whole app in this
 *   process) does not sit between the calls of the others;
 * - the floor any tool call over `/mcp` pays: the same PubChem request by GET and by a form POST
 *   (what a request body costs the client and the server, before any MCP), and a JSON-RPC `ping`
 *   at `/mcp` (the transport with no tool);
 * - answer sizes: the mean bytes of each tool's answer (its text content) on its demo call.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/mcp.js [--runs 300] [--warmup 300] [--block 100]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { CLI, ROOT, log, machine, round, runMain, writeResults } from './lib/harness.js';
import { startAndWait, stop } from './lib/proc.js';

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

const { values } = parseArgs({ options: { runs: { type: 'string' }, warmup: { type: 'string' }, block: { type: 'string' } } });
const RUNS = Number(values.runs ?? 300);
// Calls before timing: each process's code is compiled by then (20 left the servers' paths half
// compiled: the same tool over stdio took 1.0 ms in its first 3,000 calls, 0.5 ms later).
const WARMUP = Number(values.warmup ?? 300);
/** Calls of one way in a row in the warm rounds. */
const BLOCK = Number(values.block ?? 100);

/** Each tool's call and the one HTTP request that answers the same question. */
const PAIRS: { tool: string; args: Record<string, unknown>; url: string }[] = [
  { tool: 'trials_get', args: { nct_id: 'NCT02513394' }, url: '/clinicaltrials/api/v2/studies/NCT02513394' },
  { tool: 'trials_search', args: { condition: 'melanoma', limit: 10 }, url: '/clinicaltrials/api/v2/studies?query.cond=melanoma&pageSize=10&countTotal=true&format=json' },
  { tool: 'gene_get', args: { gene_id: '672' }, url: '/datasets/v2alpha/gene/id/672' },
  { tool: 'pdb_entry', args: { entry_id: '4HHB' }, url: '/rcsb/data/rest/v1/core/entry/4HHB' },
  { tool: 'gwas_associations', args: { variant: 'rs7903146', limit: 10 }, url: '/gwas/rest/api/v2/associations?sort=p_value&direction=asc&size=10&page=0&rs_id=rs7903146' },
  { tool: 'alphafold_prediction', args: { uniprot: 'P69905' }, url: '/alphafold/api/prediction/P69905' },
  {
    tool: 'gwas_sumstats_region',
    args: { chromosome: '1', start: 99_500_000, end: 99_600_000, limit: 20 },
    url: '/gwas/summary-statistics/api/chromosomes/1/associations?start=99500000&end=99600000&size=20&page=0',
  },
  { tool: 'pdb_entity', args: { entry_id: '4HHB', entity_id: '1' }, url: '/rcsb/data/rest/v1/core/polymer_entity/4HHB/1' },
  { tool: 'pharmgkb_gene_drug_pairs', args: { gene: 'CYP2D6' }, url: '/pgx/v1/geneDrugPair?gene=CYP2D6' },
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
  pdb_assembly: { entry_id: '4HHB' },
  pdb_attribute_search: { attribute: 'exptl.method', value: 'X-RAY DIFFRACTION' },
  pdb_sequence_search: { sequence: 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR' },
  pdb_structure_search: { entry_id: '4HHB' },
  pdb_chemical_search: { descriptor: 'NCC(=O)O', match_type: 'graph-exact' },
  pharmgkb_clinical_annotations: { gene: 'CYP2D6' },
  pharmgkb_guidelines: { gene: 'CYP2D6' },
  pharmgkb_drug_labels: { drug: 'codeine' },
  protocols_search: { filter: 'public', access_token: 'demo-client-token' },
  protocols_get: { protocol: '90001', access_token: 'demo-client-token' },
};

type Stat = { mean: number; p50: number };

const RPC_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' };

/**
 * Times each function `n` times after WARMUP calls each, in rounds of `block` calls of each in
 * turn (the order rotating by round), so that a change of the machine's load weighs on all of them
 * alike. `block` 1 alternates call by call: every call then finds the other processes' work in the
 * caches and its own process woken from sleep; a larger block measures each way warm, as a run of
 * calls pays it.
 */
async function timeTogether(n: number, fs: (() => Promise<unknown>)[], block = 1): Promise<Stat[]> {
  // A turn of the event loop between calls, as between requests: an in-process request
  // (app.inject) leaves work for it (setImmediate), which piles up in a loop of promises alone.
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < WARMUP; i++) {
    for (const f of fs) {
      await f();
      await turn();
    }
  }
  const xs: number[][] = fs.map(() => []);
  for (let i = 0; i < n / block; i++) {
    for (let k = 0; k < fs.length; k++) {
      const j = (i + k) % fs.length;
      const f = fs[j] as () => Promise<unknown>;
      for (let b = 0; b < block; b++) {
        const t0 = process.hrtime.bigint();
        await f();
        (xs[j] as number[]).push(Number(process.hrtime.bigint() - t0) / 1e6);
        await turn();
      }
    }
  }
  return xs.map((x) => {
    x.sort((a, b) => a - b);
    return { mean: round(x.reduce((a, b) => a + b, 0) / x.length), p50: round(x[Math.floor(x.length / 2)] ?? 0) };
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'biomirror-bench-mcp-'));
  const config = resolveConfig({ dataDir: dir, port: '0' });
  const quiet = pino({ level: 'error' });
  const runtime = await openRuntime(config, SERVICES, quiet);
  log('loading the demo data of every service');
  await loadDemoData(runtime, SERVICES);
  const app = await buildApp({ ...runtime, config }, SERVICES, true);
  await app.ready();
  // The HTTP API and /mcp as a user runs them: `biomirror serve` in a process of its own on the
  // folder just loaded, so that a request crosses processes as a stdio tool call does.
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', BIOMIRROR_LIMITS: 'off' };
  delete env.DATABASE_URL;
  const served = await startAndWait(process.execPath, [CLI, 'serve', '--data-dir', dir, '--no-demo'], { ...env, PORT: '0' }, /serving on (http:\/\/[\d.:]+)/);
  const base = served.match[1] as string;

  const server = await createMcpServer({ app, generations: runtime.generations });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const mem = new Client({ name: 'bench', version: '1' });
  await mem.connect(b);
  const http = new Client({ name: 'bench-http', version: '1' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  // As an agent starts it: a subprocess reading the same folder beside the server.
  const stdio = new Client({ name: 'bench-stdio', version: '1' });
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--data-dir', dir, '--no-demo'], env: env as Record<string, string>, stderr: 'inherit' }));

  const rows = [];
  for (const p of PAIRS) {
    log(p.tool);
    const call = (c: Client) => async () => {
      const r = await c.callTool({ name: p.tool, arguments: p.args });
      if (r.isError) throw new Error(`${p.tool}: ${JSON.stringify(r.content)}`);
    };
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: p.tool, arguments: p.args } });
    const post = async () => {
      const r = (await (await fetch(`${base}/mcp`, { method: 'POST', headers: RPC_HEADERS, body: rpc })).json()) as { result?: { isError?: boolean } };
      if (!r.result || r.result.isError) throw new Error(`${p.tool} over POST /mcp: ${JSON.stringify(r)}`);
    };
    // In this process (the request and the tool without a pipe or socket), timed apart from the
    // ways that cross processes: timed together, their work sat in this process's caches and heap
    // between every call of the others.
    const [inject, tool] = (await timeTogether(RUNS, [async () => JSON.parse((await app.inject({ method: 'GET', url: p.url })).body) as unknown, call(mem)])) as [Stat, Stat];
    const crossing = [call(stdio), async () => (await fetch(`${base}${p.url}`)).json(), call(http), post];
    const [overStdio, fetched, overHttp, posted] = (await timeTogether(RUNS, crossing)) as [Stat, Stat, Stat, Stat];
    const [warmStdio, warmFetch, warmHttp, warmPost] = (await timeTogether(RUNS, crossing, BLOCK)) as [Stat, Stat, Stat, Stat];
    rows.push({
      tool: p.tool,
      inject,
      tool_in_memory: tool,
      tool_stdio: overStdio,
      fetch: fetched,
      tool_over_http: overHttp,
      post_mcp: posted,
      warm: { tool_stdio: warmStdio, fetch: warmFetch, tool_over_http: warmHttp, post_mcp: warmPost },
    });
  }
  log('the floor: GET, a form POST of the same request, and ping at /mcp and over stdio');
  const property = '/pubchem/rest/pug/compound/cid/2244/property/MolecularWeight/JSON';
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const ok = async (r: Response) => {
    if (!r.ok) throw new Error(`${r.url}: ${r.status}`);
    return r.json();
  };
  const [getFloor, postFloor, pingFloor, sdkPing, stdioPing] = (await timeTogether(RUNS, [
    async () => ok(await fetch(`${base}${property}`)),
    async () =>
      ok(await fetch(`${base}/pubchem/rest/pug/compound/cid/property/MolecularWeight/JSON`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'cid=2244' })),
    async () => ok(await fetch(`${base}/mcp`, { method: 'POST', headers: RPC_HEADERS, body: ping })),
    () => http.ping(),
    () => stdio.ping(),
  ])) as [Stat, Stat, Stat, Stat, Stat];
  const floor = { get: getFloor, formPost: postFloor, mcpPing: pingFloor, sdkPing, stdioPing };
  console.table({
    'GET (PubChem property)': getFloor,
    'the same as a form POST': postFloor,
    'ping at /mcp (fetch)': pingFloor,
    'ping at /mcp (SDK client)': sdkPing,
    'ping over stdio (SDK client)': stdioPing,
  });
  const sizes: Record<string, number> = {};
  for (const [tool, args] of [...PAIRS.map((p) => [p.tool, p.args] as const), ...Object.entries(SIZES)]) {
    const r = await mem.callTool({ name: tool, arguments: args });
    sizes[tool] = Buffer.byteLength((r.content as { text: string }[])[0]?.text ?? '');
  }
  console.table(
    rows.map((r) => ({
      tool: r.tool,
      inject: r.inject.mean,
      'tool in memory': r.tool_in_memory.mean,
      'tool stdio': r.tool_stdio.mean,
      fetch: r.fetch.mean,
      'tool /mcp (SDK)': r.tool_over_http.mean,
      'POST /mcp': r.post_mcp.mean,
      'stdio ÷ fetch': round(r.tool_stdio.mean / r.fetch.mean),
      'SDK ÷ fetch': round(r.tool_over_http.mean / r.fetch.mean),
      'POST ÷ fetch': round(r.post_mcp.mean / r.fetch.mean),
    })),
  );
  console.table(
    rows.map((r) => ({
      tool: r.tool,
      [`stdio, ${BLOCK} calls at a time`]: r.warm.tool_stdio.mean,
      fetch: r.warm.fetch.mean,
      '/mcp (SDK)': r.warm.tool_over_http.mean,
      'POST /mcp': r.warm.post_mcp.mean,
      'stdio ÷ fetch': round(r.warm.tool_stdio.mean / r.warm.fetch.mean),
      'SDK ÷ fetch': round(r.warm.tool_over_http.mean / r.warm.fetch.mean),
      'POST ÷ fetch': round(r.warm.post_mcp.mean / r.warm.fetch.mean),
    })),
  );
  writeResults('mcp', { machine: machine(), runs: RUNS, block: BLOCK, rows, floor, sizes });
  await mem.close();
  await stdio.close();
  await http.close();
  await stop(served.child);
  await app.close();
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
}

runMain(main);
