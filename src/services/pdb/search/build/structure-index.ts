/**
 * The structure-similarity prefilter: every protein chain and assembly of the archive as its Cα
 * trace, with its length and a Cα distance profile (distances to the centroid, binned by the
 * radius of gyration). Queries hold the ids, lengths and profiles in memory and read the traces
 * of the few candidates they align from the folder.
 */
import { open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Residues } from '../../../../core/mmcif/residues.js';
import { AppendFile, readArray, readAt, writeArray } from './binfile.js';

export const BINS = 12;
/** Chains shorter than this are left out (too short for a fold). */
const MIN_RESIDUES = 5;

export function profileOf(coords: Float32Array | Float64Array): Float32Array {
  const n = coords.length / 3;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < n; i++) {
    cx += coords[3 * i] as number;
    cy += coords[3 * i + 1] as number;
    cz += coords[3 * i + 2] as number;
  }
  cx /= n;
  cy /= n;
  cz /= n;
  const d = new Float64Array(n);
  let rg = 0;
  for (let i = 0; i < n; i++) {
    const r = Math.hypot((coords[3 * i] as number) - cx, (coords[3 * i + 1] as number) - cy, (coords[3 * i + 2] as number) - cz);
    d[i] = r;
    rg += r * r;
  }
  rg = Math.sqrt(rg / n) || 1;
  const p = new Float32Array(BINS);
  for (const r of d) {
    const bin = Math.min(BINS - 1, Math.floor((r / rg) * (BINS / 3)));
    p[bin] = (p[bin] ?? 0) + 1 / n;
  }
  return p;
}

/** Cα coordinates of each chain of a residue set, in residue order. */
export function caTraces(r: Residues): Map<string, Float32Array> {
  const ca = r.names.indexOf('CA');
  const lists = new Map<string, number[]>();
  if (ca < 0) return new Map();
  for (let i = 0; i < r.n; i++) {
    for (let a = r.atomStart[i] as number; a < (r.atomStart[i + 1] as number); a++) {
      if (r.atomName[a] !== ca) continue;
      const asym = r.asyms[r.asym[i] as number] as string;
      let l = lists.get(asym);
      if (!l) lists.set(asym, (l = []));
      l.push(r.xyz[3 * a] as number, r.xyz[3 * a + 1] as number, r.xyz[3 * a + 2] as number);
      break;
    }
  }
  const out = new Map<string, Float32Array>();
  for (const [asym, l] of lists) if (l.length >= 3 * MIN_RESIDUES) out.set(asym, Float32Array.from(l));
  return out;
}

/** An assembly as the chains it lists, in their deposited positions (operators not applied). */
export function assemblyTrace(chains: Map<string, Float32Array>, asyms: string[]): Float32Array | undefined {
  const parts = asyms.map((a) => chains.get(a)).filter((x): x is Float32Array => x !== undefined);
  const n = parts.reduce((s, p) => s + p.length, 0);
  if (n < 3 * MIN_RESIDUES) return undefined;
  const out = new Float32Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Writes the prefilter of an archive, one entry at a time. */
export class StructureIndexWriter {
  private readonly ids: string[] = [];
  private readonly assembly: number[] = [];
  private readonly lengths: number[] = [];
  private readonly profiles: number[] = [];
  private readonly starts: number[] = [];

  private constructor(
    private readonly dir: string,
    private readonly traces: AppendFile,
  ) {}

  static async create(dir: string): Promise<StructureIndexWriter> {
    return new StructureIndexWriter(dir, await AppendFile.create(join(dir, 'traces.f32')));
  }

  private async put(id: string, isAssembly: boolean, coords: Float32Array): Promise<void> {
    this.ids.push(id);
    this.assembly.push(isAssembly ? 1 : 0);
    this.lengths.push(coords.length / 3);
    this.profiles.push(...profileOf(coords));
    this.starts.push(this.traces.size / 4);
    await this.traces.write(coords);
  }

  /** Records written so far (an entry's are the ones its add() or copy() wrote). */
  get count(): number {
    return this.ids.length;
  }

  async add(entryId: string, r: Residues): Promise<void> {
    const chains = caTraces(r);
    for (const [asym, coords] of chains) await this.put(`${entryId}.${asym}`, false, coords);
    for (const a of r.assemblies) {
      const t = assemblyTrace(chains, a.asyms);
      if (t) await this.put(`${entryId}-${a.id}`, true, t);
    }
  }

  /** Records as an earlier index wrote them for an entry (the same records its residues give). */
  async copy(records: readonly { id: string; assembly: boolean; coords: Float32Array }[]): Promise<void> {
    for (const r of records) await this.put(r.id, r.assembly, r.coords);
  }

  async finish(): Promise<void> {
    await this.traces.close();
    await writeFile(join(this.dir, 'structures.json'), JSON.stringify({ ids: this.ids }));
    await writeArray(this.dir, 'assembly.u8', Uint8Array.from(this.assembly));
    await writeArray(this.dir, 'length.u32', Uint32Array.from(this.lengths));
    await writeArray(this.dir, 'profile.f32', Float32Array.from(this.profiles));
    await writeArray(this.dir, 'start.f64', Float64Array.from(this.starts));
  }
}

export interface StructureIndex {
  ids: string[];
  byId: Map<string, number>;
  assembly: Uint8Array;
  length: Uint32Array;
  profile: Float32Array;
  start: Float64Array;
  /** The traces' file, opened by each query for its reads. */
  traces: string;
}

export async function openStructureIndex(dir: string): Promise<StructureIndex> {
  const { ids } = JSON.parse(await readFile(join(dir, 'structures.json'), 'utf8')) as { ids: string[] };
  return {
    ids,
    byId: new Map(ids.map((id, i) => [id, i])),
    assembly: await readArray(dir, 'assembly.u8', Uint8Array),
    length: await readArray(dir, 'length.u32', Uint32Array),
    profile: await readArray(dir, 'profile.f32', Float32Array),
    start: await readArray(dir, 'start.f64', Float64Array),
    traces: join(dir, 'traces.f32'),
  };
}

/** The traces of some structures of the index, read in one opening of its file. */
export async function tracesOf(idx: StructureIndex, list: number[]): Promise<Float32Array[]> {
  const fh: FileHandle = await open(idx.traces, 'r');
  try {
    const out: Float32Array[] = [];
    for (const i of list) out.push(await readAt(fh, Float32Array, idx.start[i] as number, 3 * (idx.length[i] as number)));
    return out;
  } finally {
    await fh.close();
  }
}
