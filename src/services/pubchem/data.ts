/**
 * The generations served now, as stores, and the key file of the compounds generation (opened on
 * first use, kept until a newer load replaces it).
 */
import { tableSet } from '../../core/ingest/dataset.js';
import type { ServiceContext } from '../types.js';
import { keyFilePath, openGenerationKeys, type KeySet } from './search/keys.js';
import { AssayStore, ASSAY_PREFIX } from './store/assays.js';
import { CONFORMER_PREFIX, ConformerStore } from './store/conformers.js';
import { COMPOUND_PREFIX, CompoundStore } from './store/compounds.js';
import { SUBSTANCE_PREFIX, SubstanceStore } from './store/substances.js';

export const SERVICE = 'pubchem';
export const DATASETS = { compounds: 'compounds', substances: 'substances', assays: 'assays', conformers: 'conformers' } as const;

export interface CompoundGen {
  gen: number;
  store: CompoundStore;
  keys(): Promise<KeySet>;
}

/**
 * Key files by database: the shared-port app and the service's own port (`--port-per-service`)
 * serve one database from one process, so they share one searcher (and its threads).
 */
const KEYSETS = new WeakMap<object, { users: number; sets: Map<number, Promise<KeySet>> }>();
/** A replaced generation's searcher stays open this long for the searches still running on it. */
const RETIRE_MS = 10 * 60_000;

export class Data {
  private readonly shared: { users: number; sets: Map<number, Promise<KeySet>> };
  /** Set when the app closes: a key file still being written then fails quietly. */
  closed = false;

  constructor(readonly ctx: ServiceContext) {
    let m = KEYSETS.get(ctx.db);
    if (!m) KEYSETS.set(ctx.db, (m = { users: 0, sets: new Map() }));
    m.users++;
    this.shared = m;
  }

  /** The last app of a database to close ends the scan threads. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (--this.shared.users > 0) return;
    const sets = [...this.shared.sets.values()];
    this.shared.sets.clear();
    KEYSETS.delete(this.ctx.db);
    await Promise.all(
      sets.map((p) =>
        p.then(
          (k) => k.searcher.close(),
          () => undefined,
        ),
      ),
    );
  }

  async compounds(): Promise<CompoundGen | undefined> {
    const gen = await this.ctx.generations.active(SERVICE, DATASETS.compounds);
    if (gen === undefined) return undefined;
    const t = tableSet(COMPOUND_PREFIX, gen);
    const store = new CompoundStore(this.ctx.db, t);
    return { gen, store, keys: () => this.keySet(gen, store, t.name('structures')) };
  }

  async substances(): Promise<SubstanceStore | undefined> {
    const gen = await this.ctx.generations.active(SERVICE, DATASETS.substances);
    return gen === undefined ? undefined : new SubstanceStore(this.ctx.db, tableSet(SUBSTANCE_PREFIX, gen));
  }

  async assays(): Promise<AssayStore | undefined> {
    const gen = await this.ctx.generations.active(SERVICE, DATASETS.assays);
    return gen === undefined ? undefined : new AssayStore(this.ctx.db, tableSet(ASSAY_PREFIX, gen));
  }

  /** The loaded 3D conformers (PubChem's Compound_3D files), if any. */
  async conformers(): Promise<ConformerStore | undefined> {
    const gen = await this.ctx.generations.active(SERVICE, DATASETS.conformers);
    return gen === undefined ? undefined : new ConformerStore(this.ctx.db, tableSet(CONFORMER_PREFIX, gen));
  }

  private keySet(gen: number, store: CompoundStore, table: string): Promise<KeySet> {
    const sets = this.shared.sets;
    let p = sets.get(gen);
    if (!p) {
      if (this.closed) return Promise.reject(new Error('the service is closing'));
      p = store.keystamp().then((stamp) => openGenerationKeys(store, keyFilePath(this.ctx.db, table, stamp), () => this.closed));
      // Older generations' searchers close once a newer one is asked for, after the searches that
      // may still run on them; a failed open is retried.
      for (const [old, q] of [...sets]) {
        if (old >= gen) continue;
        sets.delete(old);
        setTimeout(
          () =>
            void q.then(
              (k) => k.searcher.close(),
              () => undefined,
            ),
          RETIRE_MS,
        ).unref();
      }
      sets.set(gen, p);
      p.catch(() => sets.delete(gen));
    }
    return p;
  }
}
