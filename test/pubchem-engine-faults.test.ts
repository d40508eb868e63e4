/**
 * A molecule deep enough to overflow RDKit's WASM stack ("memory access out of bounds") leaves that
 * engine instance unusable. The request that hits it gets PubChem's own error; every request after
 * it is served by a fresh engine, in the structure threads and the matching threads alike, and the
 * main thread, which runs no RDKit for requests, answers other requests meanwhile.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { threadBudget } from '../src/core/chem/match-pool.js';
import { B, V, demoSuite, fault, post, req, type Res } from './helpers/pubchem.js';
import { STORES } from './helpers/stores.js';

const CHAIN = 'C'.repeat(1200);
const ASPIRIN = 'CC(=O)OC1=CC=CC=C1C(=O)O';
/** A readable structure whose InChI takes RDKit far longer than the short budget below. */
const LONG = 'C'.repeat(800);

type Engines = Record<string, { state: string; replacements: number; renewals: number; lastFault?: string; threads?: number }>;
const engines = async (app: Parameters<typeof req>[0]): Promise<Engines> => ((await req(app, '/health')).body.engines as Record<string, Engines>).pubchem as Engines;

describe.each(STORES)('RDKit faults on $name', (target) => {
  const suite = demoSuite(target);

  async function stillHealthy(): Promise<void> {
    const app = suite.t.app;
    const byName = await req(app, `${B}/compound/smiles/${encodeURIComponent(ASPIRIN)}/cids/JSON`);
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual({ IdentifierList: { CID: [2244] } });
    const png = await req(app, `${B}/compound/cid/2244/PNG`);
    expect(png.status).toBe(200);
    const view = await req(app, `${V}/data/compound/2244/JSON`);
    expect(view.status).toBe(200);
    const fast = await req(app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('C(=O)O')}/cids/JSON`);
    expect(fast.status).toBe(200);
    expect((fast.body.IdentifierList as { CID: number[] }).CID).toContain(2244);
  }

  it('answers a chain of 1,200 atoms in a lookup with a bad request, then serves as before', async () => {
    const r = await req(suite.t.app, `${B}/compound/smiles/${CHAIN}/cids/JSON`);
    expect(r.status).toBe(400);
    expect(fault(r).Code).toBe('PUGREST.BadRequest');
    await stillHealthy();
    // The same in a POST body, as an SD record, and in an identity search.
    const posted = await post(suite.t.app, `${B}/compound/smiles/cids/JSON`, { smiles: CHAIN });
    expect(posted.status).toBe(400);
    expect(fault(posted).Code).toBe('PUGREST.BadRequest');
    const identity = await req(suite.t.app, `${B}/compound/fastidentity/smiles/${CHAIN}/cids/JSON`);
    expect(identity.status).toBe(400);
    const record = await req(suite.t.app, `${B}/compound/smiles/${CHAIN}/PNG`);
    expect(record.status).toBe(400);
    await stillHealthy();
  });

  it('answers other requests while a faulted structure thread is replaced', async () => {
    const app = suite.t.app;
    const order: string[] = [];
    const track = (name: string, p: Promise<Res>) => p.then((r) => (order.push(name), r));
    // The chain ends its thread; the lookup after it waits for a fresh one to load RDKit.
    const chain = track('chain', req(app, `${B}/compound/smiles/${CHAIN}/cids/JSON`));
    const after = track('after', req(app, `${B}/compound/smiles/${encodeURIComponent(ASPIRIN)}/cids/JSON`));
    const health = await track('health', req(app, '/health'));
    const formula = await track('formula', req(app, `${B}/compound/cid/2244/property/MolecularFormula/JSON`));
    expect(health.status).toBe(200);
    expect(formula.body).toEqual({ PropertyTable: { Properties: [{ CID: 2244, MolecularFormula: 'C9H8O4' }] } });
    expect((await chain).status).toBe(400);
    expect((await after).body).toEqual({ IdentifierList: { CID: [2244] } });
    expect(order.indexOf('health')).toBeLessThan(order.indexOf('after'));
    expect(order.indexOf('formula')).toBeLessThan(order.indexOf('after'));
  });

  it('answers the chain in a fast search, then serves as before', async () => {
    const r = await req(suite.t.app, `${B}/compound/fastsubstructure/smiles/${CHAIN}/cids/JSON`);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    await stillHealthy();
  });

  it('answers a long SMARTS in a superstructure search, then searches as before', async () => {
    const smarts = encodeURIComponent('[#6]'.repeat(1200));
    const r = await req(suite.t.app, `${B}/compound/superstructure/smarts/${smarts}/cids/JSON`);
    expect(r.status).toBeLessThan(500);
    const sub = await req(suite.t.app, `${B}/compound/substructure/smiles/${encodeURIComponent('c1ccccc1')}/cids/JSON`);
    expect([200, 202]).toContain(sub.status);
    await stillHealthy();
  });

  it('reports the engines and how often they were replaced on /health', async () => {
    const e = await engines(suite.t.app);
    expect(e.structures).toMatchObject({ state: 'ok', threads: 1 });
    expect(e.structures?.replacements).toBeGreaterThanOrEqual(1);
    expect(Date.parse(e.structures?.lastFault ?? '')).not.toBeNaN();
    expect(e.matchers?.state).toBe('ok');
    // The main thread's engine (loads only) never saw the faulting structures.
    expect(e.rdkit?.replacements).toBe(0);
  });
});

describe.each(STORES)('RDKit time budget on $name', (target) => {
  const suite = demoSuite(target, { structureMs: 20 });

  it('ends a structure call past its budget with a timeout, and other requests answer as before', async () => {
    const app = suite.t.app;
    const before = await engines(app);
    const r = await req(app, `${B}/compound/smiles/${LONG}/cids/JSON`);
    expect(r.status).toBe(504);
    expect(fault(r).Code).toBe('PUGREST.Timeout');
    const after = await engines(app);
    expect(after.structures?.replacements).toBeGreaterThan(before.structures?.replacements ?? 0);
    const formula = await req(app, `${B}/compound/cid/2244/property/MolecularFormula/JSON`);
    expect(formula.status).toBe(200);
    const fast = await req(app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('C(=O)O')}/cids/JSON`);
    expect((fast.body.IdentifierList as { CID: number[] }).CID).toContain(2244);
  });
});

describe.each(STORES)('RDKit work budgets on $name', (target) => {
  const suite = demoSuite(target);
  const saved = threadBudget.tasks;
  afterAll(() => {
    threadBudget.tasks = saved;
  });

  it('renews the engines after their budget of work, answering the same throughout', async () => {
    threadBudget.tasks = 2;
    const before = await engines(suite.t.app);
    for (let i = 0; i < 8; i++) {
      const r = await req(suite.t.app, `${B}/compound/smiles/${encodeURIComponent(ASPIRIN)}/cids/JSON`);
      expect(r.body).toEqual({ IdentifierList: { CID: [2244] } });
      const f = await req(suite.t.app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('C(=O)O')}/cids/JSON`);
      expect((f.body.IdentifierList as { CID: number[] }).CID).toContain(2244);
    }
    const after = await engines(suite.t.app);
    expect(after.structures?.renewals).toBeGreaterThan(before.structures?.renewals ?? 0);
    expect(after.matchers?.renewals).toBeGreaterThan(before.matchers?.renewals ?? 0);
  });
});
