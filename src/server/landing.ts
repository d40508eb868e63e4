/**
 * The page a browser gets at `/`: every service with its addresses, what is loaded, its API
 * reference, and examples to copy. Plain HTML and CSS, no script, so it works offline and in any
 * browser; the reference UI (Swagger UI, served from this server) is one click away.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { standsFor, type ServiceModule } from '../services/types.js';
import { ownPort, type Config } from './config.js';
import { listeningOwnPort } from '../core/http/local-apps.js';
import type { statusReport } from './status.js';

type Report = Awaited<ReturnType<typeof statusReport>>;

const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A base URL on the service's own port: the one it listens on, else the one it would take (`--port` + its offset, or configured). */
function ownUrl(config: Config, s: ServiceModule, host: string, path: string): string {
  const p = listeningOwnPort(s.id) ?? ownPort(config, s);
  return p === undefined ? 'none (past port 65535)' : p === 0 ? 'any free port' : `http://${host}:${p}${path}`;
}

function examples(origin: string): string {
  const blocks: [string, string][] = [
    [
      'curl',
      `curl '${origin}/clinicaltrials/api/v2/studies?query.cond=melanoma&pageSize=5'\ncurl '${origin}/eutils/esearch.fcgi?db=gene&term=BRCA1%5Bgene%5D+AND+human%5Borgn%5D&retmode=json'\ncurl '${origin}/pubchem/rest/pug/compound/name/aspirin/property/MolecularFormula,MolecularWeight/JSON'\ncurl '${origin}/rcsb/data/rest/v1/core/entry/4HHB'`,
    ],
    [
      "Biopython (Bio.Entrez builds NCBI's URLs; only their base changes)",
      `from Bio import Entrez\nNCBI = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils/'\nbuild = Entrez._build_request\nEntrez._build_request = lambda cgi, *a, **k: build(cgi.replace(NCBI, '${origin}/eutils/'), *a, **k)\nEntrez.email = 'you@example.org'\nprint(Entrez.read(Entrez.esearch(db='gene', term='BRCA1[gene] AND human[orgn]'))['IdList'])`,
    ],
    ['pubchempy', `import pubchempy\npubchempy.API_BASE = '${origin}/pubchem/rest/pug'\nprint(pubchempy.get_compounds('aspirin', 'name')[0].isomeric_smiles)`],
  ];
  return blocks.map(([title, code]) => `<h3>${esc(title)}</h3><pre><code>${esc(code)}</code></pre>`).join('\n');
}

/** What a service without datasets of its own serves: another's loads, or nothing loaded at all. */
function servesWhat(s: ServiceModule, services: readonly ServiceModule[]): string {
  const from = s.dataOf ? services.find((o) => o.id === s.dataOf) : undefined;
  if (s.dataOf) return `serves what ${from ? `${from.title} (${from.id})` : s.dataOf} loads`;
  return 'has no data of its own';
}

export function landingPage(report: Report, services: readonly ServiceModule[], config: Config, origin: string): string {
  const host = new URL(origin).hostname;
  const rows = services
    .map((s) => {
      const r = report.services.find((x) => x.id === s.id);
      const urls = Object.entries(s.baseUrls)
        .map(([k, v]) => {
          const own = ownUrl(config, s, host, v);
          return `<div><code>${esc(standsFor(s, k))}</code> → <a href="${esc(origin + s.mount + v)}">${esc(origin + s.mount + v)}</a><br><span class="own">own port${config.portPerService ? '' : ' (with --port-per-service)'}: ${esc(own)}</span></div>`;
        })
        .join('');
      const data = (r?.datasets ?? [])
        .map((d) =>
          'generation' in d && d.generation !== null
            ? `<div><b>${esc(d.dataset)}</b>: ${esc(Number(d.records).toLocaleString('en-US'))} records${'release' in d && d.release ? `, release ${esc(d.release)}` : ''}, loaded ${esc(
                String('loadedAt' in d ? d.loadedAt : '')
                  .slice(0, 19)
                  .replace('T', ' '),
              )}</div>`
            : `<div><b>${esc(d.dataset)}</b>: not loaded</div>`,
        )
        .join('');
      return `<tr><td><b>${esc(s.title)}</b><br><code>${esc(s.id)}</code></td><td>${urls}</td><td>${data || `<span class="own">${esc(servesWhat(s, services))}</span>`}</td><td><a href="${esc(s.mount)}/openapi">reference</a><br><a href="${esc(s.mount)}/openapi.json">openapi.json</a></td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>biomirror</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2430}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde3ea;padding:.5rem;vertical-align:top;text-align:left}
code{font-size:.9em}.own{color:#5a6675;font-size:.85em}pre{background:#f4f6f9;padding:.75rem;overflow:auto}
</style></head><body>
<h1>biomirror</h1>
<p>Biomedical reference services served from local data (${esc(report.database)}). Point a client at a base URL below instead of the public service.</p>
<table><thead><tr><th>Service</th><th>Base URLs</th><th>Loaded</th><th>API</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Examples</h2>
${examples(origin)}
<p class="own">Machine-readable: <a href="/status">/status</a>, <a href="/health">/health</a>.</p>
</body></html>
`;
}

/** The reference UI of one service's OpenAPI document (Swagger UI, from this server's own copy). */
/** The reference page of a service: Swagger UI over its documents, the first shown at start. */
export function referencePage(title: string, specs: readonly { name: string; url: string }[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}: API reference</title>
<link rel="stylesheet" href="/_biomirror/assets/swagger-ui.css"></head>
<body><div id="ui"><p style="font: 16px sans-serif; margin: 2em">Loading the API reference of ${esc(title)}…
The OpenAPI ${specs.length > 1 ? 'documents are' : 'document is'} at ${specs.map((s) => `<a href="${esc(s.url)}">${esc(s.url)}</a>`).join(', ')}.</p>
<noscript><p style="font: 16px sans-serif; margin: 2em">The interactive reference needs JavaScript; the documents above are plain JSON.</p></noscript></div>
<script src="/_biomirror/assets/swagger-ui-bundle.js"></script>
${specs.length > 1 ? '<script src="/_biomirror/assets/swagger-ui-standalone-preset.js"></script>\n' : ''}<script src="/_biomirror/assets/reference.js" data-specs="${esc(JSON.stringify(specs))}" id="reference"></script>
</body></html>
`;
}

// The page's own starter, a static file: no inline script, so a strict content policy can apply.
const STARTER = `const specs = JSON.parse(document.getElementById('reference').dataset.specs);
window.ui = SwaggerUIBundle(specs.length > 1
  ? { urls: specs, 'urls.primaryName': specs[0].name, dom_id: '#ui', deepLinking: true, layout: 'StandaloneLayout', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset] }
  : { url: specs[0].url, dom_id: '#ui', deepLinking: true });
`;

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

const cache = new Map<string, Buffer>();

/** Swagger UI's files from the installed package (read once), or the starter. */
export async function asset(name: string): Promise<{ body: Buffer | string; type: string } | undefined> {
  if (name === 'reference.js') return { body: STARTER, type: 'application/javascript; charset=utf-8' };
  const type = ASSETS[name];
  if (!type) return undefined;
  let body = cache.get(name);
  if (!body) {
    const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    body = await readFile(join(dir, name));
    cache.set(name, body);
  }
  return { body, type };
}
