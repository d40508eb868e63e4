import { SizedLru } from '../../../core/cache/lru.js';
import type { ServiceContext } from '../../types.js';
import { PdbData } from '../store/pdb-data.js';
import type { ComponentBond } from '../store/tables.js';

/** Where the file host gets an entry's stored files and keeps what it derives from them. */

export interface DerivedCache {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

export interface EntryFileSource {
  /** The entry's mmCIF exactly as loaded (gzip bytes), undefined when not loaded. Ids arrive upper-cased. */
  cif(entryId: string): Promise<Uint8Array | undefined>;
  /** The structure-factor mmCIF as loaded (gzip bytes), where loaded. */
  structureFactors(entryId: string): Promise<Uint8Array | undefined>;
  /**
   * A cache for derived files (bcif, legacy PDB, assemblies, sequences). Keys are built from the
   * stored file's hash and the kind (`<sha1>:bcif`, `<sha1>:assembly-pdb:2.gz`, ...), so a reloaded
   * entry never meets a stale conversion; the cache may drop entries at will.
   */
  cache: DerivedCache;
  /** The chemical component dictionary loaded beside the entries, for CONECT records; absent where none is. */
  dictionary?(): Promise<ComponentDictionary | undefined>;
}

/** Bonds of chemical components by atom name, from a loaded dictionary. */
export interface ComponentDictionary {
  /** Names the loaded dictionary, so a file derived with another one is not served again. */
  tag: string;
  /** Each component's bonds (pairs of atom names), for those the dictionary lists bonds for. */
  bonds(compIds: readonly string[]): Promise<Map<string, ComponentBond[]>>;
}

/** A cache that keeps the most recently used derived files in memory, up to a byte budget. */
export class MemoryDerivedCache implements DerivedCache {
  private readonly lru: SizedLru<Uint8Array>;

  constructor(budget = 256 * 1024 * 1024) {
    this.lru = new SizedLru(budget);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.lru.get(key));
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    this.lru.set(key, bytes, bytes.byteLength);
    return Promise.resolve();
  }
}

// Derived files (BinaryCIF, legacy PDB, assemblies) of this process, shared by the files and site hosts.
const derived = new MemoryDerivedCache(Number(process.env.BIOMIRROR_PDB_DERIVED_CACHE_MB ?? 256) * 1024 * 1024);

/** The same cache, for the search host, which reads the file host's files by their public URLs. */
export function derivedFiles(): DerivedCache {
  return derived;
}

/** The file hosts read the entries the Data API host loaded, from the platform's file store. */
export function storedEntryFiles(ctx: ServiceContext): EntryFileSource {
  const data = new PdbData(ctx.db, ctx.generations);
  return {
    cif: async (id) => (await data.entryFiles(id))?.cif,
    structureFactors: async (id) => (await data.entryFiles(id))?.sf,
    cache: derived,
    dictionary: () => data.componentDictionary(),
  };
}
