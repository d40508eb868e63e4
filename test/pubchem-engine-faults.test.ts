/**
 * A molecule deep enough to overflow RDKit's WASM stack ("memory access out of bounds") leaves that
 * engine instance unusable. The request that hits it gets PubChem's own error; every request after
 * it is served by a fresh engine, on the main thread and in the matching threads alike.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rdkitBudget } from '../src/services/pubchem/chem/rdkit.js';
import { threadBudget } from '../src/services/pubchem/search/pool.js';
import { B, V, demoSuite, fault, req } from './helpers/pubchem.js';
import { STORES } from './helpers/stores.js';

const CHAIN = 'C'.repeat(1200);
const ASPIRIN = 'CC(=O)OC1=CC=CC=C1C(=O)O';

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
    const h = await req(suite.t.app, '/health');
    const engines = (h.body.engines as Record<string, Record<string, { state: string; replacements: number }>>).pubchem;
    expect(engines?.rdkit?.state).toBe('ok');
    expect(engines?.rdkit?.replacements).toBeGreaterThanOrEqual(1);
    expect(engines?.matchers?.state).toBe('ok');
  });
});

describe.each(STORES)('RDKit work budgets on $name', (target) => {
  const suite = demoSuite(target);
  const saved = { uses: rdkitBudget.uses, tasks: threadBudget.tasks };
  afterAll(() => {
    rdkitBudget.uses = saved.uses;
    threadBudget.tasks = saved.tasks;
  });

  it('renews the engines after their budget of work, answering the same throughout', async () => {
    rdkitBudget.uses = 3;
    threadBudget.tasks = 2;
    const health = async () => ((await req(suite.t.app, '/health')).body.engines as Record<string, Record<string, { renewals: number }>>).pubchem;
    const before = await health();
    for (let i = 0; i < 8; i++) {
      const r = await req(suite.t.app, `${B}/compound/smiles/${encodeURIComponent(ASPIRIN)}/cids/JSON`);
      expect(r.body).toEqual({ IdentifierList: { CID: [2244] } });
      const f = await req(suite.t.app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('C(=O)O')}/cids/JSON`);
      expect((f.body.IdentifierList as { CID: number[] }).CID).toContain(2244);
    }
    const after = await health();
    expect(after?.rdkit?.renewals).toBeGreaterThan(before?.rdkit?.renewals ?? 0);
    expect(after?.matchers?.renewals).toBeGreaterThan(before?.matchers?.renewals ?? 0);
  });
});
