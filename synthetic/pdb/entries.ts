/** Helpers shared by the demo entries and the benchmark generator to turn built chains into instances. */
import type { BuiltResidue } from './build.js';
import type { Instance, InstanceResidue, Operator } from './entry-writer.js';
import type { Vec } from './geometry.js';

/** label_asym_id as the archive assigns them: A..Z, then AA, BA, CA, ... (first letter fastest). */
export function labelAsymId(i: number): string {
  const L = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  if (i < 26) return L[i]!;
  let n = i - 26;
  let out = '';
  let width = 2;
  let block = 26 * 26;
  while (n >= block) {
    n -= block;
    width++;
    block *= 26;
  }
  for (let k = 0; k < width; k++) {
    out += L[n % 26]!;
    n = Math.floor(n / 26);
  }
  return out;
}

/** An instance from built residues, one array per model; polymers get seq ids 1..n. */
export function instance(
  asymId: string,
  entityId: string,
  authAsymId: string,
  models: BuiltResidue[][],
  opts: {
    polymer?: boolean;
    branched?: boolean;
    firstAuth?: number;
    b?: (i: number) => number;
  } = {},
): Instance {
  const first = models[0]!;
  const residues: InstanceResidue[] = first.map((r, i) => ({
    compId: r.compId,
    ...(opts.polymer || opts.branched ? { seqId: i + 1 } : {}),
    authSeq: (opts.firstAuth ?? 1) + i,
    models: models.map((m) => m[i]!.atoms),
    ...(opts.b ? { b: opts.b(i) } : {}),
  }));
  return { asymId, entityId, authAsymId, residues };
}

export const IDENTITY: Operator = {
  id: '1',
  type: 'identity operation',
  name: '1_555',
  symmetryOperation: 'x,y,z',
  op: {
    r: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    t: [0, 0, 0],
  },
};

/** Heavy-atom count of an instance list in model 1. */
export function atomCount(instances: Instance[]): number {
  return instances.reduce((s, i) => s + i.residues.reduce((t, r) => t + r.models[0]!.length, 0), 0);
}

/** Polar atoms (N, O) of the given residues, where waters can hydrogen-bond. */
export function polarAtoms(res: BuiltResidue[]): Vec[] {
  return res.flatMap((r) => r.atoms.filter((a) => a.element === 'N' || a.element === 'O').map((a) => a.xyz));
}

/** Secondary-structure plan from 1-based inclusive ranges of helices and strands. */
export function ssPlan(length: number, helices: Array<[number, number]>, strands: Array<[number, number]>): string {
  const s = Array.from({ length }, () => 'C');
  for (const [a, b] of helices) for (let i = a; i <= b; i++) s[i - 1] = 'H';
  for (const [a, b] of strands) for (let i = a; i <= b; i++) s[i - 1] = 'E';
  return s.join('');
}

export const THREE: Record<string, string> = {
  A: 'ALA',
  R: 'ARG',
  N: 'ASN',
  D: 'ASP',
  C: 'CYS',
  Q: 'GLN',
  E: 'GLU',
  G: 'GLY',
  H: 'HIS',
  I: 'ILE',
  L: 'LEU',
  K: 'LYS',
  M: 'MET',
  F: 'PHE',
  P: 'PRO',
  S: 'SER',
  T: 'THR',
  W: 'TRP',
  Y: 'TYR',
  V: 'VAL',
};
export const toThree = (s: string): string[] => [...s].map((c) => THREE[c]!);
