/**
 * The soak: a mixed load over every service for a fixed time, at 50 clients, on SQLite with one
 * process and on PostgreSQL with two processes sharing the database (half the clients each). It
 * reports requests, errors (any answer but 2xx, and any socket error), latency percentiles, and the
 * resident memory of each server process sampled every 5 seconds, with its growth after warm-up.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist-bench/bench/soak.js [--minutes 10] [--clients 50] [--postgres URL]
 *
 * It drives the built CLI with the demo data, rate limits off (as a private mirror serves).
 */
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startAndWait, stop } from './lib/proc.js';
import { CLI, log, machine, round, runMain, withSchema, writeResults } from './lib/harness.js';

const { values } = parseArgs({ options: { minutes: { type: 'string' }, clients: { type: 'string' }, postgres: { type: 'string' } } });
const SECONDS = Math.round(Number(values.minutes ?? 10) * 60);
const CLIENTS = Number(values.clients ?? 50);

interface Req {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const bearer = { authorization: 'Bearer demo-client-token' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const json = { 'content-type': 'application/json' };

/** What users of each service ask most, answered from the demo data. */
const MIX: Req[] = [
  { path: '/clinicaltrials/api/v2/studies?query.cond=melanoma&pageSize=5' },
  { path: '/clinicaltrials/api/v2/studies/NCT02513394' },
  { path: '/clinicaltrials/api/v2/studies?query.term=AREA[Phase]PHASE2&format=csv' },
  { path: '/eutils/entrez/eutils/esearch.fcgi?db=gene&term=BRCA1[gene]+AND+human[orgn]&retmode=json' },
  { path: '/eutils/entrez/eutils/esummary.fcgi?db=gene&id=672' },
  { path: '/eutils/entrez/eutils/efetch.fcgi?db=gene&id=672&retmode=xml' },
  { path: '/eutils/entrez/eutils/elink.fcgi?dbfrom=gene&db=clinvar&id=672' },
  { method: 'POST', path: '/eutils/entrez/eutils/esummary.fcgi', headers: form, body: 'db=gene&id=672,7157' },
  { path: '/datasets/v2alpha/gene/id/672' },
  { path: '/pubchem/rest/pug/compound/cid/2244/property/MolecularFormula,MolecularWeight,InChIKey/JSON' },
  { path: '/pubchem/rest/pug/compound/name/aspirin/cids/JSON' },
  { path: '/pubchem/rest/pug/compound/fastsimilarity_2d/smiles/CC(=O)OC1=CC=CC=C1C(=O)O/cids/JSON' },
  { path: '/pubchem/rest/pug/compound/cid/2244/PNG' },
  { path: '/pubchem/rest/pug_view/data/compound/2244/JSON' },
  { path: '/protocols/api/v3/protocols?filter=public&key=protein', headers: bearer },
  { path: '/protocols/api/v3/protocols/90001', headers: bearer },
  { path: '/gwas/rest/api/singleNucleotidePolymorphisms/rs7903146/associations' },
  { path: '/gwas/summary-statistics/api/associations?p_upper=1e-5' },
  { path: '/biorxiv/details/biorxiv/2024-01-01/2024-01-31' },
  { path: '/pgx/v1/gene/CYP2D6' },
  { path: '/rcsb/data/rest/v1/core/entry/4HHB' },
  { path: '/rcsb/data/rest/v1/core/polymer_entity/4HHB/1' },
  {
    method: 'POST',
    path: '/rcsb/data/graphql',
    headers: json,
    body: JSON.stringify({ query: '{ entry(entry_id: "4HHB") { rcsb_id struct { title } rcsb_entry_info { resolution_combined } polymer_entities { rcsb_id } } }' }),
  },
  { path: '/rcsb/files/download/4HHB.cif' },
  { path: '/rcsb/files/download/4hhb.pdb' },
  { path: '/rcsb/www/fasta/entry/4HHB' },
  {
    method: 'POST',
    path: '/rcsb/search/rcsbsearch/v2/query',
    headers: json,
    body: JSON.stringify({ query: { type: 'terminal', service: 'full_text', parameters: { value: 'hemoglobin' } }, return_type: 'entry' }),
  },
  { path: '/alphafold/api/prediction/P69905' },
  { path: '/alphafold/files/AF-P69905-F1-model_v4.cif' },
  { path: '/exec/api/skills' },
];

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

async function load(url: string, connections: number, seconds: number) {
  let i = 0;
  // What failed, by status and path, so that an error names its request.
  const failures: Record<string, number> = {};
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req, context) => {
          const q = MIX[i++ % MIX.length] as Req;
          (context as { path?: string }).path = q.path;
          return { ...req, method: q.method ?? 'GET', path: q.path, headers: { ...q.headers }, ...(q.body ? { body: q.body } : {}) };
        },
        onResponse: (status, _body, context) => {
          if (status >= 300) {
            const k = `${status} ${String((context as { path?: string }).path ?? '')}`;
            failures[k] = (failures[k] ?? 0) + 1;
          }
        },
      },
    ],
  });
  return {
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    rps: Math.round(r.requests.average),
    failures,
  };
}

async function soak(label: string, env: NodeJS.ProcessEnv, processes: number) {
  const servers = [];
  for (let p = 0; p < processes; p++) {
    servers.push(await startAndWait(process.execPath, [CLI, 'serve'], { ...env, PORT: '0' }, /serving on (http:\/\/[\d.:]+)/));
  }
  const urls = servers.map((s) => s.match[1] as string);
  // The demo application's token is made while the server prints its start notes: wait for it.
  for (const u of urls) {
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`${u}/protocols/api/v3/protocols/90001`, { headers: bearer });
      await r.arrayBuffer();
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const pids = servers.map((s) => s.child.pid as number);
  const samples: { t: number; rss: number[] }[] = [];
  const t0 = Date.now();
  const timer = setInterval(() => samples.push({ t: Math.round((Date.now() - t0) / 1000), rss: pids.map(rssMb) }), 5000);
  log(`${label}: ${CLIENTS} clients for ${SECONDS} s over ${processes} process(es)`);
  const parts = await Promise.all(urls.map((u) => load(u, Math.round(CLIENTS / processes), SECONDS)));
  clearInterval(timer);
  for (const s of servers) await stop(s.child);
  const warm = samples.find((s) => s.t >= Math.min(60, SECONDS / 5)) ?? samples[0];
  const last = samples[samples.length - 1];
  return {
    processes,
    clients: CLIENTS,
    seconds: SECONDS,
    requests: parts.reduce((a, p) => a + p.requests, 0),
    errors: parts.reduce((a, p) => a + p.non2xx + p.errors + p.timeouts, 0),
    requestsPerSecond: parts.reduce((a, p) => a + p.rps, 0),
    latencyMs: parts.map((p) => ({ p50: p.p50, p99: p.p99, max: p.max })),
    failures: parts.map((p) => p.failures),
    rssMb: {
      afterWarmup: warm?.rss,
      end: last?.rss,
      max: pids.map((_, i) => Math.max(...samples.map((s) => s.rss[i] ?? 0))),
      growthAfterWarmupPercent: pids.map((_, i) => round((((last?.rss[i] ?? 0) - (warm?.rss[i] ?? 0)) / Math.max(1, warm?.rss[i] ?? 1)) * 100)),
    },
    samples,
  };
}

runMain(async () => {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', BIOMIRROR_LIMITS: 'off' };
  delete base.DATABASE_URL;
  const results: Record<string, unknown> = { machine: machine(), command: process.argv.slice(2).join(' ') };
  results.sqlite = await soak('sqlite', { ...base, DATA_DIR: mkdtempSync(join(tmpdir(), 'biomirror-soak-')) }, 1);
  if (values.postgres) {
    results.postgres = await withSchema(values.postgres, async (url) => {
      // The first process loads the demo; the second starts once it is serving.
      return soak('postgres', { ...base, DATABASE_URL: url, DATA_DIR: mkdtempSync(join(tmpdir(), 'biomirror-soak-')) }, 2);
    });
  }
  writeResults('soak', results);
});
