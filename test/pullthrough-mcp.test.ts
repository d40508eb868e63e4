/**
 * Agents' tools under pull-through: an empty biomirror whose upstream is a biomirror with the demo
 * data answers MCP tool calls from the upstream, says so in the answer's source, keeps the answers
 * and gives them again with the upstream gone.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OUTPUT } from '../src/mcp/result.js';
import { SERVICES } from '../src/services/registry.js';
import { connectedClient } from './helpers/mcp.js';
import { serveOn, type Running } from './helpers/pullthrough.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const Output = z.object(OUTPUT);
const services = SERVICES.filter((s) => ['clinicaltrials', 'eutils', 'datasets'].includes(s.id));

describe.each(STORES)('MCP tools pulling through on $name', (target) => {
  let storeA: OpenedStore;
  let storeB: OpenedStore;
  let a: Running;
  let b: Running;
  let onA: Client;
  let onB: Client;
  let aClosed = false;

  const answer = async (client: Client, name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    const text = (r.content as { text: string }[])[0]?.text ?? '';
    expect(r.isError, `${name}: ${text}`).toBeFalsy();
    return Output.parse(r.structuredContent);
  };

  beforeAll(async () => {
    storeA = await target.open();
    storeB = await target.open();
    a = await serveOn(storeA, services, { demo: true });
    b = await serveOn(storeB, services, { pullThrough: { enabled: true, upstream: a.url } });
    onA = await connectedClient({ app: a.app, generations: a.generations }, 'upstream');
    onB = await connectedClient({ app: b.app, generations: b.generations }, 'pulling');
  }, 120_000);
  afterAll(async () => {
    await onA?.close();
    await onB?.close();
    if (!aClosed) await a?.close();
    await b?.close();
    await storeA?.cleanup();
    await storeB?.cleanup();
  });

  it('answers a tool from the upstream, naming it as the source, and again with the upstream gone', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['trials_get', { nct_id: 'NCT02513394' }],
      ['gene_get', { gene_id: '672' }],
    ];
    const upstream = [];
    for (const [name, args] of calls) upstream.push(await answer(onA, name, args));
    // Loaded data on the upstream: no upstream of its own named.
    expect(upstream.map((u) => u.source.upstream)).toEqual([undefined, undefined]);

    const pulled = [];
    for (const [name, args] of calls) pulled.push(await answer(onB, name, args));
    for (const [i, p] of pulled.entries()) {
      const u = upstream[i] as z.infer<typeof Output>;
      expect(p.ids).toEqual(u.ids);
      expect(p.items).toEqual(u.items);
      // Nothing is loaded here; the answer names where it came from and when that was fetched.
      expect(p.source.datasets).toEqual([]);
      expect(p.source.upstream?.length).toBeGreaterThan(0);
    }
    // The upstream biomirror answered from its loaded data: it is the host named (docs/pull-through.md).
    const host = new URL(a.url).host.replace(/\./g, '\\.');
    for (const p of pulled) expect(p.source.upstream).toEqual([expect.stringMatching(new RegExp(`^upstream ${host} \\d{4}-\\d\\d-\\d\\dT`))]);

    // A record the upstream lacks is the tool's "not in the loaded data" error, not an answer.
    const missing = await onB.callTool({ name: 'trials_get', arguments: { nct_id: 'NCT99999999' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]?.text).toMatch(/NCT99999999 is not in the loaded data/);

    // Kept: the same answers with the upstream stopped.
    await a.close();
    aClosed = true;
    for (const [i, [name, args]] of calls.entries()) expect(await answer(onB, name, args)).toEqual(pulled[i]);
  });
});
