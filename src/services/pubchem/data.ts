/**
 * The generations served now, as stores, and the fingerprint index of the compounds generation
 * (built on first use, kept until a newer load replaces it).
 */
import { tableSet } from '../../core/ingest/dataset.js';
import type { ServiceContext } from '../types.js';
import { buildIndex, type FingerprintIndex } from './search/index.js';
import { AssayStore, ASSAY_PREFIX } from './store/assays.js';
import { CONFORMER_PREFIX, ConformerStore } from './store/conformers.js';
import { COMPOUND_PREFIX, CompoundStore } from './store/compounds.js';
import { SUBSTANCE_PREFIX, SubstanceStore } from './store/substances.js';
import { countOf } from './store/sql.js';
import { ident } from '../../core/store/db.js';

export const SERVICE = 'pubchem';
export const DATASETS = { compounds: 'compounds', substances: 'substances', assays: 'assays', conformers: 'conformers' } as const;

export interface CompoundGen {
  gen: number;
  store: CompoundStore;
  index(): Promise<FingerprintIndex>;
}

/**
 * Indexes by database: the shared-port app and the service's own port (`--port-per-service`) serve
 * one database from one process, so they share one index rather than hold two.
 */
const INDEXES = new WeakMap<object, Map<number, Promise<FingerprintIndex>>>();

export class Data {
  private readonly indexes: Map<number, Promise<FingerprintIndex>>;
  /** Set when the app closes: an index still being read then fails quietly. */
  closed = false;

  constructor(readonly ctx: ServiceContext) {
    let m = INDEXES.get(ctx.db);
    if (!m) INDEXES.set(ctx.db, (m = new Map()));
    this.indexes = m;
  }

  async compounds(): Promise<CompoundGen | undefined> {
    const gen = await this.ctx.generations.active(SERVICE, DATASETS.compounds);
    if (gen === undefined) return undefined;
    const t = tableSet(COMPOUND_PREFIX, gen);
    const store = new CompoundStore(this.ctx.db, t);
    return { gen, store, index: () => this.index(gen, store, t.name('structures')) };
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

  private index(gen: number, store: CompoundStore, table: string): Promise<FingerprintIndex> {
    let p = this.indexes.get(gen);
    if (!p) {
      p = (async () => buildIndex(store, await countOf(this.ctx.db, `SELECT COUNT(*) AS n FROM ${ident(table)}`), () => this.closed))();
      // Older generations' indexes go once a newer one is asked for; a failed build is retried.
      for (const old of [...this.indexes.keys()]) if (old < gen) this.indexes.delete(old);
      this.indexes.set(gen, p);
      p.catch(() => this.indexes.delete(gen));
    }
    return p;
  }
}
