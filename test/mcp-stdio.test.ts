/** `biomirror mcp` started as a subprocess over stdio, as an agent starts it. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT } from '../src/mcp/result.js';
import { SERVICES } from '../src/services/registry.js';
import { tempDir } from './helpers/stores.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: npm test builds it first (npm run build)');

describe('biomirror mcp over stdio', () => {
  let client: Client;
  let stderr = '';
  let cliArgs: string[] = [];
  let cliEnv: Record<string, string> = {};

  beforeAll(async () => {
    const dir = tempDir();
    // Only the trials and the skills: their demo data loads in a second.
    const config = join(dir, 'biomirror.config.json');
    const keep = new Set(['clinicaltrials', 'exec']);
    writeFileSync(config, JSON.stringify({ services: Object.fromEntries(SERVICES.filter((s) => !keep.has(s.id)).map((s) => [s.id, { enabled: false }])) }));
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'DATABASE_URL') env[k] = v;
    cliArgs = ['--data-dir', join(dir, 'data'), '--config', config];
    cliEnv = { ...env, LOG_LEVEL: 'warn' };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', join(dir, 'data'), '--config', config],
      env: { ...env, LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists tools and prompts, and answers a tool call from the data folder', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('trials_search');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('skill-clinical-trials');
    const r = await client.callTool({ name: 'trials_get', arguments: { nct_id: 'NCT02513394' } });
    expect(r.isError, `${JSON.stringify(r.content)}\n${stderr}`).toBeFalsy();
    const out = z.object(OUTPUT).parse(r.structuredContent);
    expect(out.ids).toEqual(['NCT02513394']);
    expect(out.source.datasets[0]?.source).toMatch(/^demo:/);
  });

  it('answers a service that is not enabled with isError, and keeps serving', async () => {
    const r = await client.callTool({ name: 'pdb_entry', arguments: { entry_id: '4HHB' } });
    expect(r.isError).toBe(true);
    const again = await client.callTool({ name: 'trials_search', arguments: { condition: 'melanoma' } });
    expect(again.isError).toBeFalsy();
  });

  it('sees a load made beside it without a restart', async () => {
    const source = async () => {
      const r = await client.callTool({ name: 'trials_get', arguments: { nct_id: 'NCT02513394' } });
      return z.object(OUTPUT).parse(r.structuredContent).source.datasets[0]?.loaded_at;
    };
    const before = await source();
    const load = spawnSync(process.execPath, [CLI, 'demo', 'clinicaltrials', ...cliArgs], { env: cliEnv, encoding: 'utf8', timeout: 60_000 });
    expect(load.status, load.stderr).toBe(0);
    // Sources are read at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await source()).not.toBe(before);
  });

  it('logs nothing to stdout (it carries the protocol)', () => {
    // A stray line on stdout would have broken the client's parsing above.
    expect(stderr).not.toContain('"jsonrpc"');
  });
});
