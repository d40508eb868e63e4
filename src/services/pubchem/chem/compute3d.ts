/**
 * 3D conformers computed here for compounds no loaded Compound_3D file covers: OpenChemLib's
 * conformer generator and MMFF94s (in conformer-worker.mjs, ended at the task's deadline), then
 * the shape descriptors and pharmacophore features of shape3d.ts and features3d.ts. Only
 * compounds PubChem3D itself would model get one (at most 50 heavy atoms and 15 rotatable bonds,
 * one covalent unit, elements H C N O F Si P S Cl Br I): for the others PubChem has no 3D record
 * either. The conformer-model values (RMSD, conformer count) describe PubChem's model and are
 * never computed. Results are kept in a small cache per data generation.
 */
import { MatchPool, type ThreadState } from '../../../core/chem/match-pool.js';
import { COMPUTED_3D_TAG, atoms3d, conformerFromSdf, type Conformer } from './conformer3d.js';
import { featureLines, featuresOf, nonAromaticRings } from './features3d.js';
import type { Props } from './properties.js';
import { parseSdfRecord } from './sdf.js';
import { shapeOf } from './shape3d.js';
import { sourceUrl } from '../../../core/files/project.js';

const WORKER = sourceUrl('services/pubchem/chem/conformer-worker.mjs');

/** Conformer threads replaced in this process, for `/health`. */
export const conformerState: ThreadState = { replacements: 0, renewals: 0 };

const MODEL_ELEMENTS = new Set(['H', 'C', 'N', 'O', 'F', 'Si', 'P', 'S', 'Cl', 'Br', 'I']);
export const MODEL_LIMITS = { heavyAtoms: 50, rotatableBonds: 15 };

/** Why PubChem3D would not model this compound, or undefined when it would. */
export function unmodelable(props: Props, molblock: string): string | undefined {
  const heavy = Number(props.HeavyAtomCount ?? NaN);
  if (Number.isFinite(heavy) && heavy > MODEL_LIMITS.heavyAtoms) return `more than ${MODEL_LIMITS.heavyAtoms} heavy atoms`;
  const rot = Number(props.RotatableBondCount ?? NaN);
  if (Number.isFinite(rot) && rot > MODEL_LIMITS.rotatableBonds) return `more than ${MODEL_LIMITS.rotatableBonds} rotatable bonds`;
  const units = Number(props.CovalentUnitCount ?? 1);
  if (units !== 1) return 'more than one covalent unit';
  const atoms = atoms3d(molblock);
  if (typeof atoms === 'string') return atoms;
  const symbols = molblock
    .split('\n')
    .slice(4, 4 + atoms.length)
    .map((l) => l.slice(31, 34).trim());
  const odd = symbols.find((s) => !MODEL_ELEMENTS.has(s));
  if (odd) return `element ${odd} is outside the modelled set`;
  if (atoms.filter((a) => a.z > 1).length > MODEL_LIMITS.heavyAtoms) return `more than ${MODEL_LIMITS.heavyAtoms} heavy atoms`;
  return undefined;
}

export interface Compute3dOptions {
  /** Compute conformers for compounds without a loaded one (BIOMIRROR_PUBCHEM_COMPUTE_3D, on unless "off"). */
  enabled: boolean;
  /** Longest one conformer may take, milliseconds. */
  perCompoundMs: number;
  /** Longest one request may spend computing conformers, milliseconds (then 504). */
  perRequestMs: number;
  threads: number;
}

const CACHE_SIZE = 2000;

export class Conformers3d {
  private pool: MatchPool | undefined;
  private readonly cache = new Map<string, Conformer | string>();

  constructor(readonly opts: Compute3dOptions) {}

  /**
   * A conformer computed from the compound's 2D SD record (molfile with hydrogens), or the reason
   * there is none. Rejects with the pool's SearchTimeout when it runs past `deadline`.
   */
  async compute(gen: number, cid: number, sdf2d: string, props2d: Props, deadline: number): Promise<Conformer | string> {
    const key = `${gen}:${cid}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const molblock = sdf2d.slice(0, sdf2d.indexOf('M  END') + 6) + '\n';
    const why = unmodelable(props2d, molblock);
    const result = why !== undefined ? `PubChem3D does not model this compound: ${why}` : await this.generate(cid, molblock, props2d, Math.min(deadline, Date.now() + this.opts.perCompoundMs));
    this.remember(key, result);
    return result;
  }

  private remember(key: string, v: Conformer | string): void {
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, v);
  }

  private async generate(cid: number, molblock: string, props2d: Props, deadline: number): Promise<Conformer | string> {
    this.pool ??= new MatchPool(this.opts.threads, WORKER, conformerState);
    const reply = await this.pool.run({ molfile: molblock, seed: cid % 100_000, iterations: 2000 }, deadline);
    if (reply.invalid || !reply.molfile) return 'the conformer generator could not place this structure';
    const lines = reply.molfile.replace(/\r\n?/g, '\n').split('\n');
    lines[0] = String(cid);
    lines[1] = '  biomirror OpenChemLib 3D (generated)';
    const block = lines.slice(0, lines.findIndex((l) => l.startsWith('M  END')) + 1).join('\n') + '\n';
    const atoms = atoms3d(block);
    const features = featuresOf(block);
    const shape = typeof atoms === 'string' ? undefined : shapeOf(atoms);
    if (!shape || !features) return 'the computed conformer could not be read back';
    const tags: [string, string][] = [['PUBCHEM_COMPOUND_CID', String(cid)]];
    // PubChem's effective rotor count adds a share for flexible rings; without such rings it is the rotatable bonds.
    const rot = props2d.RotatableBondCount;
    if (typeof rot === 'number' && nonAromaticRings(block) === 0) tags.push(['PUBCHEM_EFFECTIVE_ROTOR_COUNT', String(rot)]);
    tags.push(['PUBCHEM_PHARMACOPHORE_FEATURES', featureLines(features)]);
    tags.push(['PUBCHEM_SHAPE_MULTIPOLES', [shape.monopole, ...shape.quadrupoles].join('\n')]);
    tags.push(['PUBCHEM_SHAPE_VOLUME', String(shape.volume)]);
    tags.push(['PUBCHEM_COORDINATE_TYPE', '2\n5\n10']);
    tags.push([
      COMPUTED_3D_TAG,
      tags
        .slice(1)
        .map(([t]) => t)
        .join('\n'),
    ]);
    const rec = parseSdfRecord([...block.split('\n').slice(0, -1), ...tags.flatMap(([k, v]) => [`> <${k}>`, ...v.split('\n'), ''])]);
    if (typeof rec === 'string') return rec;
    return conformerFromSdf(cid, rec);
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
