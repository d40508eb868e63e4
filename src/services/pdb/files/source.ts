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
}

/** A cache that keeps the most recently used derived files in memory, up to a byte budget. */
export class MemoryDerivedCache implements DerivedCache {
  private readonly map = new Map<string, Uint8Array>();
  private bytes = 0;

  constructor(private readonly budget = 256 * 1024 * 1024) {}

  get(key: string): Promise<Uint8Array | undefined> {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return Promise.resolve(v);
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    const old = this.map.get(key);
    if (old) this.bytes -= old.byteLength;
    this.map.set(key, bytes);
    this.bytes += bytes.byteLength;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.budget) break;
      this.map.delete(k);
      this.bytes -= v.byteLength;
    }
    return Promise.resolve();
  }
}
