import { describe, expect, it } from 'vitest';
import { B, demoSuite, fault, req } from './helpers/pubchem.js';
import { STORES } from './helpers/stores.js';

describe.each(STORES)('PubChem option values on $name', (target) => {
  const suite = demoSuite(target);

  it('refuses a cids_type PubChem does not know as a bad request naming the values', async () => {
    const r = await req(suite.t.app, `${B}/compound/cid/2244/cids/JSON?cids_type=bogus`);
    expect(r.status).toBe(400);
    expect(fault(r).Code).toBe('PUGREST.BadRequest');
    expect(fault(r).Details?.join(' ')).toMatch(/"bogus" is not valid for cids_type: original, parent/);
  });

  it('answers a relationship PubChem has but this mirror does not compute as unimplemented', async () => {
    const r = await req(suite.t.app, `${B}/compound/cid/2244/cids/JSON?cids_type=same_parent_tautomer`);
    expect(r.status).toBe(501);
    expect(fault(r).Code).toBe('PUGREST.Unimplemented');
  });

  it('still answers the relationships it computes', async () => {
    const r = await req(suite.t.app, `${B}/compound/cid/2244/cids/JSON?cids_type=same_connectivity`);
    expect(r.status).toBe(200);
    expect((r.body.IdentifierList as { CID: number[] }).CID).toContain(2244);
  });
});
