/**
 * Average atomic weights as PubChem's molecular weights use them (the IUPAC values of the 2000s:
 * with them aspirin is 180.16, acetaminophen 151.16, caffeine 194.19), for common elements.
 */
const AVERAGE: Record<number, number> = {
  1: 1.00794,
  3: 6.941,
  5: 10.811,
  6: 12.0107,
  7: 14.0067,
  8: 15.9994,
  9: 18.9984032,
  11: 22.98976928,
  12: 24.305,
  13: 26.9815386,
  14: 28.0855,
  15: 30.973762,
  16: 32.065,
  17: 35.453,
  19: 39.0983,
  20: 40.078,
  25: 54.938045,
  26: 55.845,
  27: 58.933195,
  29: 63.546,
  30: 65.38,
  33: 74.9216,
  34: 78.96,
  35: 79.904,
  47: 107.8682,
  50: 118.71,
  53: 126.90447,
  78: 195.084,
  80: 200.59,
};

/** Average molecular weight; undefined when an atom is isotope-labelled or not in the table. */
export function averageMass(g: Graph): number | undefined {
  let m = 0;
  for (const a of g.atoms) {
    const w = AVERAGE[a.z];
    if (w === undefined || a.isotope > 0) return undefined;
    m += w + a.hs * (AVERAGE[1] as number);
  }
  return m;
}

/**
 * Masses of the most abundant isotope of common elements (NIST), for monoisotopic masses to eight
 * decimals: RDKit's descriptor output keeps only about eleven significant digits.
 */
import type { Graph } from './graph.js';

const MONOISOTOPIC: Record<number, number> = {
  1: 1.00782503223,
  3: 7.0160034366,
  5: 11.00930536,
  6: 12,
  7: 14.00307400443,
  8: 15.99491461957,
  9: 18.99840316273,
  11: 22.989769282,
  12: 23.985041697,
  13: 26.98153853,
  14: 27.97692653465,
  15: 30.97376199842,
  16: 31.9720711744,
  17: 34.968852682,
  19: 38.9637064864,
  20: 39.962590863,
  25: 54.93804391,
  26: 55.93493633,
  27: 58.93319429,
  29: 62.92959772,
  30: 63.92914201,
  33: 74.92159457,
  34: 79.9165218,
  35: 78.9183376,
  47: 106.9050916,
  50: 119.90220163,
  53: 126.9044719,
  78: 194.9647917,
  80: 201.9706434,
};

/** Undefined when an atom is isotope-labelled or its element is not in the table. */
export function monoisotopicMass(g: Graph): number | undefined {
  let m = 0;
  for (const a of g.atoms) {
    const mass = MONOISOTOPIC[a.z];
    if (mass === undefined || a.isotope > 0) return undefined;
    m += mass + a.hs * (MONOISOTOPIC[1] as number);
  }
  return m;
}
