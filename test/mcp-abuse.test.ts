/**
 * The MCP server under abuse and faults: oversized and mistyped arguments, unknown tools, malformed
 * JSON-RPC, bursts of thousands of calls, a service with no data and one not mounted. Each gets an
 * MCP error or an isError result, never a crash, and the next request is answered. Also: each
 * caller is rate-limited as the one client it is.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT } from '../src/mcp/result.js';
import { connectedClient } from './helpers/mcp.js';
import { loadDemoData, type Runtime } from '../src/server/serve.js';
import { biorxiv } from '../src/services/biorxiv/index.js';
import { clinicaltrials } from '../src/services/clinicaltrials/index.js';
import { newToken, secret } from '../src/services/exec/secrets.js';
import { pgx } from '../src/services/pgx/index.js';
import { makeApp, silent, type TestApp } from './helpers/app.js';
import { execService } from './helpers/exec.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const Output = z.object(OUTPUT);
const text = (r: unknown) => (((r as { content?: unknown }).content ?? []) as { text?: string }[])[0]?.text ?? '';

describe.each(STORES)('MCP under abuse and faults on $name', (target) => {
  let store: OpenedStore;
  let t: TestApp;
  let client: Client;
  let token: string;

  /** A raw JSON-RPC POST to /mcp, as a client at `ip` (the app does not listen: a token is needed). */
  const post = (body: unknown, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}`, ...opts.headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      ...(opts.ip ? { remoteAddress: opts.ip } : {}),
    });
  const callOver = (name: string, args: Record<string, unknown>, ip?: string, id: number | string = 1) =>
    post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, ip ? { ip } : {});
  /** The server still answers: a tool call that works. */
  const stillServes = async () => {
    const r = await client.callTool({ name: 'trials_get', arguments: { nct_id: 'NCT02513394' } });
    expect(r.isError, text(r)).toBeFalsy();
    const h = await callOver('trials_get', { nct_id: 'NCT02513394' });
    expect(h.statusCode, h.body).toBe(200);
    expect(h.json().result.structuredContent.ids).toEqual(['NCT02513394']);
  };

  beforeAll(async () => {
    store = await target.open();
    // The trials and PharmGKB loaded; the preprint service mounted with nothing loaded; PharmGKB's
    // rate limit (2 a second per client) on, every other off.
    t = await makeApp(store, { services: [clinicaltrials, pgx, biorxiv, execService()], config: { services: { pgx: { limits: 'on' } } } });
    await loadDemoData({ db: store.db, generations: t.generations, log: silent } as unknown as Runtime, [clinicaltrials, pgx]);
    token = await secret(store.db, 'token', newToken);
    client = await connectedClient({ app: t.app, generations: t.generations }, 'abuse');
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await store?.cleanup();
  });

  it('answers oversized and mistyped arguments with isError naming the argument', async () => {
    const huge = await client.callTool({ name: 'trials_search', arguments: { condition: 'x'.repeat(1_000_000) } });
    expect(huge.isError).toBe(true);
    expect(text(huge)).toContain('condition');
    const typed = await client.callTool({ name: 'trials_get', arguments: { nct_id: 12345678 } });
    expect(typed.isError).toBe(true);
    expect(text(typed)).toContain('nct_id');
    const limit = await client.callTool({ name: 'trials_search', arguments: { limit: 'ten' } });
    expect(text(limit)).toContain('limit');
    const nested = await client.callTool({ name: 'pharmgkb_gene', arguments: { symbol: { $gt: '' } } });
    expect(text(nested)).toContain('symbol');
    await stillServes();
  });

  it('answers text with a lone surrogate, which JSON carries and no URL can, with isError naming the argument', async () => {
    // Sent as JSON-RPC text ("\ud800"), as an agent's client would; before, a tool that put such
    // an argument in a path failed inside the server (encodeURIComponent throws on it).
    const wire = await callOver('trials_search', { condition: 'melanoma \ud800' });
    expect(wire.statusCode).toBe(200);
    const result = wire.json().result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^condition: not well-formed text/);
    for (const [name, args, arg] of [
      ['pharmgkb_clinical_annotations', { drug: '\udc00codeine' }, 'drug'],
      ['trials_search', { condition: 'melanoma', intervention: 'x\ud83d' }, 'intervention'],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError, name).toBe(true);
      expect(text(r)).toContain(`${arg}: not well-formed text`);
    }
    // A pair is a character like any other.
    const pair = await client.callTool({ name: 'trials_search', arguments: { condition: 'melanoma \ud83d\ude00' } });
    expect(pair.isError, text(pair)).toBeFalsy();
    await stillServes();
  });

  it('answers an unknown tool with an MCP error', async () => {
    let message = '';
    try {
      const r = await client.callTool({ name: 'no_such_tool', arguments: {} });
      expect(r.isError).toBe(true);
      message = text(r);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('no_such_tool');
    const h = await callOver('no_such_tool', {});
    expect(h.statusCode).toBe(200);
    expect(JSON.stringify(h.json())).toContain('no_such_tool');
    await stillServes();
  });

  it('refuses malformed requests at /mcp in JSON-RPC, and keeps answering', async () => {
    const bad = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe(-32700);
    const notRpc = await post({ hello: 'world' });
    expect(notRpc.statusCode).toBe(400);
    expect(notRpc.json().error.code).toBe(-32600);
    const empty = await post([]);
    expect(empty.statusCode).toBe(400);
    const type = await post('x=1', { headers: { 'content-type': 'text/plain' } });
    expect(type.statusCode).toBe(415);
    expect(type.json().jsonrpc).toBe('2.0');
    const version = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'mcp-protocol-version': '1999-01-01' } });
    expect(version.statusCode).toBe(400);
    expect(version.json().error.message).toContain('protocol version');
    const tooBig = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'trials_search', arguments: { term: 'x'.repeat(5 * 1024 * 1024) } } });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().jsonrpc).toBe('2.0');
    const argsNotObject = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'trials_get', arguments: [1, 2] } });
    expect(argsNotObject.json().error ?? argsNotObject.json().result?.isError).toBeTruthy();
    expect((await t.app.inject({ method: 'GET', url: '/mcp' })).statusCode).toBe(405);
    const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.statusCode).toBe(202);
    await stillServes();
  });

  it('answers a batch in order, with the ids the client gave even when they repeat', async () => {
    const r = await post([
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'trials_get', arguments: { nct_id: 'NCT02513394' } } },
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'trials_get', arguments: { nct_id: 'bad' } } },
    ]);
    expect(r.statusCode).toBe(200);
    const [a, b, c] = r.json() as { id: unknown; result?: { isError?: boolean; structuredContent?: unknown } }[];
    expect(a?.id).toBe(7);
    expect(Output.parse(a?.result?.structuredContent).ids).toEqual(['NCT02513394']);
    expect(b).toMatchObject({ id: 7, result: {} });
    expect(c).toMatchObject({ id: 'x', result: { isError: true } });
  });

  it('survives thousands of calls in a burst, in memory and at /mcp', async () => {
    const calls = Array.from({ length: 2000 }, (_, i) =>
      client.callTool({ name: i % 2 ? 'trials_get' : 'trials_search', arguments: i % 2 ? { nct_id: 'NCT02513394' } : { condition: 'melanoma', limit: 2 } }),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.isError)).toEqual([]);
    // Every client numbers its requests from 1: the same id from many requests at once.
    const http = await Promise.all(Array.from({ length: 1000 }, (_, i) => callOver('trials_get', { nct_id: i % 3 ? 'NCT02513394' : 'nope' }, `10.9.${i % 200}.1`, 1)));
    expect(http.every((h) => h.statusCode === 200)).toBe(true);
    const answers = http.map((h) => h.json() as { id: number; result: { isError?: boolean } });
    expect(answers.every((a) => a.id === 1)).toBe(true);
    expect(answers.filter((a) => a.result.isError).length).toBe(334);
    await stillServes();
  }, 120_000);

  it('says a service has no data loaded, or is not enabled, as isError', async () => {
    const empty = await client.callTool({ name: 'preprints', arguments: { from: '2024-01-01', to: '2024-01-31' } });
    expect(empty.isError).toBe(true);
    expect(text(empty)).toMatch(/no data loaded.*biomirror demo biorxiv/);
    const absent = await client.callTool({ name: 'pdb_entry', arguments: { entry_id: '4HHB' } });
    expect(absent.isError).toBe(true);
    expect(text(absent)).toContain('not enabled');
    const skills = await client.callTool({ name: 'skills_run', arguments: { skill: 'anything', script: 'x' } });
    expect(skills.isError).toBe(true);
    await stillServes();
  });

  it('limits each caller as one client: the address at /mcp, the local user in process', async () => {
    const gene = (ip: string) => callOver('pharmgkb_gene', { symbol: 'CYP2D6' }, ip);
    const first = await Promise.all([gene('10.1.1.1'), gene('10.1.1.1'), gene('10.1.1.1')]);
    const refused = first.map((h) => h.json().result as { isError?: boolean; content: { text: string }[] }).filter((r) => r.isError);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.content[0]?.text).toMatch(/rate limited.*retry after/);
    // Another address has a budget of its own, and so has the local user.
    const other = await gene('10.1.1.2');
    expect(other.json().result.isError, other.body).toBeFalsy();
    const local = await client.callTool({ name: 'pharmgkb_gene', arguments: { symbol: 'CYP2D6' } });
    expect(local.isError, text(local)).toBeFalsy();
  });
});
