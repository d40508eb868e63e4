/**
 * What the file host serves, free of HTTP: the stored bytes of an entry, or a conversion of them
 * (run on the structure-file pool, cached by the stored file's hash and kind, one conversion per
 * key at a time however many requests ask for it).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import { AssemblyNotFound, CifFormatError, CifTaskTimeout, LegacyFormatUnavailable, cifLimits, runCifTask, type CifTaskKind, type PolymerSequence } from '../../../core/mmcif/index.js';
import { withHeader } from './legacy-header.js';
import type { FileName } from './names.js';
import type { EntryFileSource } from './source.js';

const gunzipAsync = promisify(gunzipCb);
const gzipAsync = promisify(gzipCb);

/** Time budget of one conversion (ms). */
export const conversionBudget = { ms: Number(process.env.BIOMIRROR_PDB_CONVERT_TIMEOUT_MS ?? 60_000) };

export type FileOutcome =
  | {
      found: true;
      /** The file's bytes; `gzipped` says whether they are the gzip form. */
      bytes: Uint8Array;
      gzipped: boolean;
      /** Identifies these bytes for ETags: stored-file hash plus kind. */
      tag: string;
    }
  | { found: false; reason: 'absent' | 'unavailable' | 'unreadable' | 'timeout'; detail?: string };

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Bytes of inflated mmCIF kept in memory for hot entries (the role a file server's page cache plays). */
export const inflatedCacheBudget = { bytes: Number(process.env.BIOMIRROR_PDB_INFLATED_CACHE_MB ?? 64) * 1024 * 1024 };

export class FileHost {
  private readonly inflight = new Map<string, Promise<Uint8Array>>();
  /** Recently inflated stored files by hash, most recent last, within inflatedCacheBudget. */
  private readonly inflated = new Map<string, Uint8Array>();
  private inflatedBytes = 0;
  /** Hashes of stored files known to inflate cleanly (bounded; oldest forgotten first). */
  private readonly verified = new Map<string, true>();

  constructor(
    private readonly source: EntryFileSource,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {}

  private static hash(bytes: Uint8Array): string {
    return createHash('sha1').update(bytes).digest('hex');
  }

  /** Inflates stored bytes within the library's bound; undefined when corrupt or truncated. */
  private async inflate(bytes: Uint8Array, hash: string): Promise<Uint8Array | undefined> {
    if (!isGzip(bytes)) return bytes;
    try {
      const out = await gunzipAsync(bytes, { maxOutputLength: cifLimits.maxInflatedBytes });
      this.remember(hash);
      return out;
    } catch (e) {
      this.onProblem(`stored file ${hash} does not inflate: ${(e as Error).message}`);
      return undefined;
    }
  }

  private remember(hash: string): void {
    this.verified.set(hash, true);
    if (this.verified.size > 10_000) this.verified.delete(this.verified.keys().next().value as string);
  }

  /** A cached derived file, else the conversion run once for all concurrent askers and then cached. */
  private async derived(key: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const cached = await this.source.cache.get(key);
    if (cached) return cached;
    let p = this.inflight.get(key);
    if (!p) {
      p = make().then(async (bytes) => {
        await this.source.cache.put(key, bytes);
        return bytes;
      });
      this.inflight.set(key, p);
      const clear = () => this.inflight.delete(key);
      p.then(clear, clear);
    }
    return p;
  }

  /** The stored mmCIF (or structure factors), as served for `.cif`/`.cif.gz`. */
  private async stored(name: FileName): Promise<FileOutcome> {
    const raw = name.kind === 'sf' ? await this.source.structureFactors(name.id) : await this.source.cif(name.id);
    if (!raw) return { found: false, reason: 'absent' };
    const hash = FileHost.hash(raw);
    const tag = `${hash.slice(0, 20)}-${name.kind}`;
    if (isGzip(raw)) {
      // Served as stored when the client takes gzip; checked once per stored file before that.
      if (!this.verified.has(hash) && !(await this.inflate(raw, hash))) return { found: false, reason: 'unreadable' };
      return { found: true, bytes: raw, gzipped: true, tag };
    }
    return { found: true, bytes: raw, gzipped: false, tag };
  }

  /** Inflated form of a stored gzip outcome (for clients that do not take gzip, or ranges). */
  async identity(outcome: FileOutcome & { found: true }): Promise<Uint8Array | undefined> {
    if (!outcome.gzipped) return outcome.bytes;
    const hash = FileHost.hash(outcome.bytes);
    const hit = this.inflated.get(hash);
    if (hit) {
      this.inflated.delete(hash);
      this.inflated.set(hash, hit);
      return hit;
    }
    const out = await this.inflate(outcome.bytes, hash);
    // Files over a quarter of the budget are inflated each time rather than evicting everything else.
    if (out && out.byteLength <= inflatedCacheBudget.bytes / 4) {
      this.inflated.set(hash, out);
      this.inflatedBytes += out.byteLength;
      for (const [k, v] of this.inflated) {
        if (this.inflatedBytes <= inflatedCacheBudget.bytes) break;
        this.inflated.delete(k);
        this.inflatedBytes -= v.byteLength;
      }
    }
    return out;
  }

  /** Gzip form of an outcome (for `.gz` names). */
  async gzipped(outcome: FileOutcome & { found: true }): Promise<Uint8Array> {
    return outcome.gzipped ? outcome.bytes : new Uint8Array(await gzipAsync(outcome.bytes));
  }

  private async convert(name: FileName, kind: CifTaskKind, gz: boolean): Promise<FileOutcome> {
    const raw = await this.source.cif(name.id);
    if (!raw) return { found: false, reason: 'absent' };
    const hash = FileHost.hash(raw);
    const base = `${hash}:${kind}${name.assembly ? `:${name.assembly}` : ''}`;
    const unavailableKey = `${base}:unavailable`;
    if (await this.source.cache.get(unavailableKey)) return { found: false, reason: 'unavailable' };
    try {
      // A legacy file's CONECT records take a HET group's bonds from the dictionary loaded, if any:
      // keyed by it, and apart from files written before header records were added here.
      const dictionary = kind === 'pdb' ? await this.source.dictionary?.() : undefined;
      const version = kind === 'pdb' ? `h3${dictionary ? `-${dictionary.tag}` : ''}` : '';
      const key = version ? `${base}:${version}` : base;
      const plain = await this.derived(key, async () => {
        const out = await runCifTask(kind, raw, conversionBudget.ms, name.assembly ? { assembly: name.assembly } : {});
        // The pool's writer leaves out most header records, CONECT and MASTER; added here from the mmCIF (legacy-header.ts).
        return kind === 'pdb' ? withHeader(out, raw, dictionary) : out;
      });
      const tag = `${hash.slice(0, 20)}-${kind}${name.assembly ?? ''}${version ? `-${version}` : ''}`;
      if (!gz) return { found: true, bytes: plain, gzipped: false, tag };
      const packed = await this.derived(`${key}.gz`, async () => new Uint8Array(await gzipAsync(plain)));
      return { found: true, bytes: packed, gzipped: true, tag: `${tag}-gz` };
    } catch (e) {
      if (e instanceof LegacyFormatUnavailable || e instanceof AssemblyNotFound) {
        // Remembered, so a large entry's every .pdb request does not parse it again.
        await this.source.cache.put(unavailableKey, new Uint8Array(1));
        return { found: false, reason: 'unavailable', detail: e.message };
      }
      if (e instanceof CifTaskTimeout) return { found: false, reason: 'timeout', detail: e.message };
      if (e instanceof CifFormatError) {
        this.onProblem(`entry ${name.id}: ${e.message}`);
        return { found: false, reason: 'unreadable', detail: e.message };
      }
      throw e;
    }
  }

  /** The file a download name asks for. */
  async file(name: FileName): Promise<FileOutcome> {
    switch (name.kind) {
      case 'cif':
      case 'sf':
        return this.stored(name);
      case 'bcif':
        return this.convert(name, 'bcif', name.gz);
      case 'pdb':
        return this.convert(name, 'pdb', name.gz);
      case 'assembly-cif':
        return this.convert(name, 'assembly-cif', name.gz);
      case 'assembly-pdb':
        return this.convert(name, 'assembly-pdb', name.gz);
    }
  }

  /** Polymer sequences of an entry (for FASTA), or the reason there are none. */
  async sequences(id: string): Promise<{ found: true; sequences: PolymerSequence[] } | { found: false; reason: string }> {
    const outcome = await this.convert({ id, kind: 'cif', gz: false }, 'sequences', false);
    if (!outcome.found) return { found: false, reason: outcome.reason };
    return { found: true, sequences: JSON.parse(Buffer.from(outcome.bytes).toString('utf8')) as PolymerSequence[] };
  }
}
