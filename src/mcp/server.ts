/**
 * The MCP server: every tool, resource and prompt over one in-process app. Built once per
 * connection (stdio) or once per app and shared by every request (Streamable HTTP at /mcp, see
 * http.ts): who calls is read per request, never kept in the server.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LOCAL_CALLER, ToolError, call, getJson, type Caller, type McpContext } from './context.js';
import { OUTPUT, fit, sourceOf } from './result.js';
import { TOOLS } from './tools/index.js';

export const MCP_VERSION = '0.1.0';

const ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;

/**
 * The caller of one request: set by the `/mcp` transport on the request's info object; a request
 * without one (stdio, in memory) is the local user's.
 */
const callers = new WeakMap<object, Caller>();

export function setCaller(info: NonNullable<MessageExtraInfo['requestInfo']>, caller: Caller): void {
  callers.set(info, caller);
}

// A UTF-16 surrogate without its pair: JSON can carry one (`"\ud800"`), UTF-8 and URLs cannot.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The name of the first argument holding text no URL or UTF-8 can carry, or undefined. */
function malformedArgument(args: Record<string, unknown>): string | undefined {
  const bad = (v: unknown): boolean => (typeof v === 'string' ? LONE_SURROGATE.test(v) : Array.isArray(v) ? v.some(bad) : false);
  return Object.keys(args).find((k) => bad(args[k]));
}

function callerOf(extra: { requestInfo?: object | undefined }): Caller {
  return (extra.requestInfo && callers.get(extra.requestInfo)) ?? LOCAL_CALLER;
}

export function registerTools(server: McpServer, base: McpContext): void {
  for (const t of TOOLS) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, outputSchema: OUTPUT, annotations: { ...ANNOTATIONS, ...t.annotations, title: t.title } },
      async (args: Record<string, unknown>, extra) => {
        const pulled = new Set<string>();
        const ctx: McpContext = { ...base, caller: callerOf(extra), pulled };
        try {
          const malformed = malformedArgument(args);
          if (malformed) throw new ToolError(`${malformed}: not well-formed text (a lone UTF-16 surrogate, which no URL or UTF-8 can carry)`);
          const { resume, ...page } = await t.run(ctx, args);
          const loaded = await sourceOf(ctx, t.service);
          // An answer pulled through from the upstream (serve --pull-through, or kept) says so.
          const source = pulled.size ? { ...loaded, upstream: [...pulled].sort() } : loaded;
          // Some services answer an empty list when nothing is loaded: say so, not "no matches".
          if (page.items.length === 0 && source.datasets.length === 0 && !pulled.size && t.needsData !== false) {
            throw new ToolError(
              `the service ${t.service} has no data loaded on this server, so this answer would be empty: load it with \`biomirror fetch ${t.service}\` or \`biomirror demo ${t.service}\``,
            );
          }
          const { answer, text } = fit({ total: null, next_cursor: null, ...page, truncated: false, source }, resume);
          return { content: [{ type: 'text' as const, text }], structuredContent: answer };
        } catch (err) {
          // A ToolError is the agent's to act on; anything else is logged and answered in general terms.
          if (err instanceof ToolError) return { isError: true, content: [{ type: 'text' as const, text: err.message }] };
          ctx.app.log.error({ err, tool: t.name }, 'tool failed');
          return { isError: true, content: [{ type: 'text' as const, text: `${t.name} failed inside the server; see its log` }] };
        }
      },
    );
  }
}

/** A value as an answer repeats it: a long one cut, so that an error stays short. */
const shown = (v: string) => (v.length > 80 ? `${v.slice(0, 80)}…` : v);

/**
 * A URI template variable as the record is named: percent-decoded, as RFC 6570 expands it
 * (`pdb://file/4hhb%2Ecif` is 4hhb.cif); the template matcher hands it over as written.
 */
function variable(v: string | string[] | undefined, what: string): string {
  const raw = Array.isArray(v) ? v.join(',') : String(v ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ToolError(`${what} ${shown(raw)}: not well-formed percent-encoding`);
  }
}

/** Records as resources: the service's own JSON for a record, by URI. */
function registerResources(server: McpServer, ctx: McpContext): void {
  const as = (extra: { requestInfo?: object | undefined }): McpContext => ({ ...ctx, caller: callerOf(extra) });
  const json = (uri: URL, body: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] });
  server.registerResource(
    'pdb-entry',
    new ResourceTemplate('pdb://entry/{id}', { list: undefined }),
    { title: 'PDB entry', description: 'An RCSB PDB entry as the Data API serves it', mimeType: 'application/json' },
    async (uri, vars, extra) => {
      const id = variable(vars.id, 'entry');
      return json(uri, await getJson(as(extra), `/rcsb/data/rest/v1/core/entry/${encodeURIComponent(id.toUpperCase())}`, { record: `entry ${shown(id)}`, dataset: 'rcsb-data/archive' }));
    },
  );
  server.registerResource(
    'pdb-file',
    new ResourceTemplate('pdb://file/{name}', { list: undefined }),
    { title: 'PDB file', description: 'A file of the PDB file host (e.g. pdb://file/4hhb.cif)', mimeType: 'application/octet-stream' },
    async (uri, vars, extra) => {
      const name = variable(vars.name, 'file');
      const u = await call(as(extra), 'GET', `/rcsb/files/download/${encodeURIComponent(name)}`);
      if (u.status !== 200) throw new ToolError(`file ${shown(name)} is not in the loaded data (the dataset rcsb-data/archive would hold it)`);
      return { contents: [{ uri: uri.href, mimeType: 'application/octet-stream', blob: u.raw.toString('base64') }] };
    },
  );
  server.registerResource(
    'pubchem-compound',
    new ResourceTemplate('pubchem://compound/{cid}', { list: undefined }),
    { title: 'PubChem compound', description: 'A PubChem compound record (PUG REST JSON)', mimeType: 'application/json' },
    async (uri, vars, extra) => {
      const cid = variable(vars.cid, 'CID');
      return json(uri, await getJson(as(extra), `/pubchem/rest/pug/compound/cid/${encodeURIComponent(cid)}/JSON`, { record: `CID ${shown(cid)}`, dataset: 'pubchem/compounds' }));
    },
  );
  server.registerResource(
    'clinicaltrials-study',
    new ResourceTemplate('clinicaltrials://study/{nct}', { list: undefined }),
    { title: 'ClinicalTrials.gov study', description: 'A study as the ClinicalTrials.gov API v2 serves it', mimeType: 'application/json' },
    async (uri, vars, extra) => {
      const nct = variable(vars.nct, 'study');
      return json(uri, await getJson(as(extra), `/clinicaltrials/api/v2/studies/${encodeURIComponent(nct)}`, { record: `study ${shown(nct)}`, dataset: 'clinicaltrials/studies' }));
    },
  );
}

interface SkillRecord {
  name: string;
  description?: string;
  body?: string;
}

// The execution service reads its skills once, at start: one list per app serves every request.
const skillLists = new WeakMap<McpContext['app'], Promise<SkillRecord[]>>();

function skillsOf(ctx: McpContext): Promise<SkillRecord[]> {
  let p = skillLists.get(ctx.app);
  if (!p) {
    p = call(ctx, 'GET', '/exec/api/skills').then((u) => (u.status === 200 ? ((u.json as { skills?: SkillRecord[] }).skills ?? []) : []));
    // A failed read (exec still starting) is asked again next time.
    void p.then((l) => l.length || skillLists.delete(ctx.app));
    skillLists.set(ctx.app, p);
  }
  return p;
}

/** A prompt per skill: its SKILL.md, so an agent can follow a skill's steps with the tools. */
async function registerPrompts(server: McpServer, ctx: McpContext): Promise<void> {
  const skills = (await skillsOf(ctx)).filter((s) => /^[a-z0-9-]+$/.test(s.name));
  for (const s of skills) {
    server.registerPrompt(
      `skill-${s.name}`,
      { title: s.name, description: String(s.description ?? '').slice(0, 500), argsSchema: { question: z.string().max(2000).optional() } },
      async ({ question }) => {
        const d = (await getJson(ctx, `/exec/api/skills/${s.name}`, { record: `skill ${s.name}`, dataset: 'the skills folders' })) as SkillRecord;
        const ask = question ? `\n\nQuestion: ${question}` : '';
        return {
          description: s.description,
          messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Follow this skill, using the biomirror tools for its data.\n\n${d.body ?? ''}${ask}` } }],
        };
      },
    );
  }
}

export async function createMcpServer(ctx: McpContext): Promise<McpServer> {
  const server = new McpServer(
    { name: 'biomirror', version: MCP_VERSION },
    { instructions: "Biomedical reference data served from a local, release-pinned mirror. Every answer names its records' ids and its source release; page with next_cursor." },
  );
  registerTools(server, ctx);
  registerResources(server, ctx);
  await registerPrompts(server, ctx);
  return server;
}
