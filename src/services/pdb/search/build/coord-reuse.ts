/**
 * The coordinate indexes of the generation served, read back entry by entry, so that a load
 * builds its own without reading again the files of the entries it carries over: a mirror run that
 * changed a week's entries, or an update, would otherwise parse every file of the archive again.
 *
 * An entry is taken from the old folder only when its file is the same (the key of its stored
 * file, recorded in `sources.json` beside the indexes). What is taken is what the writers were
 * given: the structure records (Cα traces of chains and assemblies) as written, and the motif
 * index's residues with their atoms, from which the pairs are found again. The folder then comes
 * out the same, byte for byte, as one built from the files.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Residues } from '../../../../core/mmcif/residues.js';
import { readArray, readAt } from './binfile.js';
import { AMINO } from './motif-index.js';

/** What `sources.json` holds: each indexed entry with its stored file and its structure records. */
export interface CoordSources {
  /** [entry id, file key, first structure record, end of its records]; the row is the entry's place in the motif index. */
  entries: [string, string, number, number][];
}

export const SOURCES = 'sources.json';

/** One structure record: a chain (`1ABC.A`) or an assembly (`1ABC-1`) with its Cα trace. */
export interface StructureRecord {
  id: string;
  assembly: boolean;
  coords: Float32Array;
}

/** An entry as the writers were given it. */
export interface ReusedEntry {
  structures: StructureRecord[];
  residues: Residues;
}

type Handles = Record<'asym' | 'seq' | 'comp' | 'atom' | 'name' | 'xyz' | 'traces', FileHandle>;

export class PreviousCoords {
  private constructor(
    private readonly at: Map<string, { file: string; row: number; from: number; to: number }>,
    private readonly ids: string[],
    private readonly assembly: Uint8Array,
    private readonly length: Uint32Array,
    private readonly start: Float64Array,
    private readonly entryStart: Uint32Array,
    private readonly asyms: string[],
    private readonly names: string[],
    private readonly fh: Handles,
  ) {}

  /** The folder's indexes, or undefined when it has no record of its sources (built by an earlier version) or cannot be read. */
  static async open(dir: string): Promise<PreviousCoords | undefined> {
    let at: Map<string, { file: string; row: number; from: number; to: number }>;
    let ids: string[];
    let motif: { entries: string[]; asyms: string[]; names: string[] };
    try {
      const sources = JSON.parse(await readFile(join(dir, SOURCES), 'utf8')) as CoordSources;
      ids = (JSON.parse(await readFile(join(dir, 'structures.json'), 'utf8')) as { ids: string[] }).ids;
      motif = JSON.parse(await readFile(join(dir, 'motif.json'), 'utf8')) as { entries: string[]; asyms: string[]; names: string[] };
      if (!Array.isArray(sources.entries) || !Array.isArray(ids) || !Array.isArray(motif.entries) || !Array.isArray(motif.asyms) || !Array.isArray(motif.names)) return undefined;
      at = new Map();
      sources.entries.forEach((row, i) => {
        const [id, file, from, to] = Array.isArray(row) ? row : [];
        // A row that disagrees with the motif index's own list, or is not whole, is not trusted.
        if (typeof id === 'string' && motif.entries[i] === id && typeof file === 'string' && typeof from === 'number' && typeof to === 'number' && Number.isInteger(from) && Number.isInteger(to)) {
          at.set(id, { file, row: i, from, to });
        }
      });
    } catch {
      return undefined;
    }
    const opened: Partial<Handles> = {};
    try {
      const files: Record<keyof Handles, string> = {
        asym: 'res-asym.u32',
        seq: 'res-seq.i32',
        comp: 'res-comp.u8',
        atom: 'res-atom.u32',
        name: 'atom-name.u16',
        xyz: 'atom-xyz.f32',
        traces: 'traces.f32',
      };
      for (const [k, f] of Object.entries(files) as [keyof Handles, string][]) opened[k] = await open(join(dir, f), 'r');
      return new PreviousCoords(
        at,
        ids,
        await readArray(dir, 'assembly.u8', Uint8Array),
        await readArray(dir, 'length.u32', Uint32Array),
        await readArray(dir, 'start.f64', Float64Array),
        await readArray(dir, 'entry-start.u32', Uint32Array),
        motif.asyms,
        motif.names,
        opened as Handles,
      );
    } catch {
      for (const h of Object.values(opened)) await h.close().catch(() => undefined);
      return undefined;
    }
  }

  /** The entry as indexed before, when its stored file is `fileKey`; throws when the folder is damaged. */
  async entry(id: string, fileKey: string): Promise<ReusedEntry | undefined> {
    const e = this.at.get(id);
    if (!e || e.file !== fileKey) return undefined;
    const structures: StructureRecord[] = [];
    for (let i = e.from; i < e.to; i++) {
      const sid = this.ids[i];
      const start = this.start[i];
      const length = this.length[i];
      if (sid === undefined || start === undefined || length === undefined) throw new Error('the structure records end before the entry');
      structures.push({ id: sid, assembly: this.assembly[i] === 1, coords: await readAt(this.fh.traces, Float32Array, start, 3 * length) });
    }
    return { structures, residues: await this.residuesOf(e.row) };
  }

  /** The motif index's residues of entry `row`, as a residue set the writer takes again. */
  private async residuesOf(row: number): Promise<Residues> {
    const first = this.entryStart[row];
    const end = this.entryStart[row + 1];
    if (first === undefined || end === undefined) throw new Error('the motif index has no such entry');
    const n = end - first;
    const asymOf = await readAt(this.fh.asym, Uint32Array, first, n);
    const seq = await readAt(this.fh.seq, Int32Array, first, n);
    const comp = await readAt(this.fh.comp, Uint8Array, first, n);
    // One more: the end of the last residue's atoms.
    const atomAt = await readAt(this.fh.atom, Uint32Array, first, n + 1);
    const a0 = n > 0 ? (atomAt[0] as number) : 0;
    const atoms = n > 0 ? (atomAt[n] as number) - a0 : 0;
    const nameOf = await readAt(this.fh.name, Uint16Array, a0, atoms);
    const xyz = await readAt(this.fh.xyz, Float32Array, 3 * a0, 3 * atoms);
    // Chains and atom names numbered for this entry alone, as a parsed entry's are.
    const local = (list: string[], of: ArrayLike<number>, into: Uint16Array) => {
      const ids = new Map<number, number>();
      const out: string[] = [];
      for (let i = 0; i < of.length; i++) {
        const g = of[i] as number;
        let l = ids.get(g);
        if (l === undefined) {
          const s = list[g];
          if (s === undefined) throw new Error('the motif index names a value it does not list');
          l = out.push(s) - 1;
          ids.set(g, l);
        }
        into[i] = l;
      }
      return out;
    };
    const asym = new Uint16Array(n);
    const atomName = new Uint16Array(atoms);
    const atomStart = new Uint32Array(n + 1);
    for (let i = 0; i <= n; i++) atomStart[i] = (atomAt[i] as number) - a0;
    return {
      n,
      asym,
      asyms: local(this.asyms, asymOf, asym),
      seq,
      comp: Uint16Array.from(comp),
      comps: AMINO,
      atomStart,
      atomName,
      names: local(this.names, nameOf, atomName),
      xyz,
      assemblies: [],
    };
  }

  async close(): Promise<void> {
    for (const h of Object.values(this.fh)) await h.close().catch(() => undefined);
  }
}
