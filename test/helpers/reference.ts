/**
 * The services whose API reference is described or vendored here (E-utilities, PubChem, bioRxiv,
 * PharmGKB, the AlphaFold DB, the RCSB PDB's file and site hosts over its Data API's demo archive), in one app with their demo data, and the request Swagger UI's "Try it
 * out" makes of a described operation: each parameter at its example (or default), path parameters
 * percent-encoded, Accept the first content type answered.
 */
import { runLoad } from '../../src/core/ingest/load.js';
import { alphafold } from '../../src/services/alphafold/index.js';
import { biorxiv } from '../../src/services/biorxiv/index.js';
import { eutils } from '../../src/services/eutils/index.js';
import { rcsbData } from '../../src/services/pdb/data/index.js';
import { rcsbFiles } from '../../src/services/pdb/files/index.js';
import { rcsbSite } from '../../src/services/pdb/www/index.js';
import { pgx } from '../../src/services/pgx/index.js';
import type { OperationDoc, ServiceModule } from '../../src/services/types.js';
import { makeApp, type TestApp } from './app.js';
import { pubchemModule } from './pubchem.js';
import { STORES, type OpenedStore } from './stores.js';

export interface ReferenceApp {
  store: OpenedStore;
  t: TestApp;
  services: ServiceModule[];
  close(): Promise<void>;
}

export async function referenceApp(): Promise<ReferenceApp> {
  const store = await (STORES[0] as (typeof STORES)[number]).open();
  const services = [eutils, pubchemModule(), biorxiv, pgx, alphafold, rcsbFiles, rcsbSite];
  // The file and site hosts serve the entries the Data API host loads.
  const t = await makeApp(store, { services: [...services, rcsbData] });
  for (const s of [...services, rcsbData]) for (const ds of s.datasets) if (ds.demo) await runLoad(store.db, t.generations, ds, ds.demo);
  return {
    store,
    t,
    services,
    async close() {
      await t.close();
      await store.cleanup();
    },
  };
}

/** What "Try it out" then "Execute" asks, below the service's mount. */
export function tryItOut(op: OperationDoc): { url: string; accept: string } {
  const value = (name: string) => {
    const p = op.params?.find((x) => x.name === name);
    return p?.example ?? p?.default;
  };
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(value(name))));
  const query = (op.params ?? [])
    .filter((p) => p.in === 'query' && (p.example ?? p.default) !== undefined)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example ?? p.default))}`);
  return { url: `${path}${query.length ? `?${query.join('&')}` : ''}`, accept: (op.answers[0] ?? '*/*').split(';')[0] as string };
}
