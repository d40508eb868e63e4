/**
 * Per-residue confidence (pLDDT): the confidence file as served, its categories, and the summary
 * figures of the prediction record.
 */

export type CategoryScheme = 'names' | 'letters';

/** The interface's category names and boundaries: very_high > 90 >= high > 70 >= low > 50 >= very_low. */
export function categoryName(s: number): string {
  return s > 90 ? 'very_high' : s > 70 ? 'high' : s > 50 ? 'low' : 'very_low';
}

/** The database's own letters (DeepMind's confidence.py): D < 50 <= L < 70 <= M < 90 <= H. */
export function categoryLetter(s: number): string {
  return s >= 90 ? 'H' : s >= 70 ? 'M' : s >= 50 ? 'L' : 'D';
}

export class ConfidenceFormatError extends Error {
  override readonly name = 'ConfidenceFormatError';
}

export interface Confidence {
  residueNumber: number[];
  confidenceScore: number[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Reads a confidence JSON (the database's format; categories are recomputed when served). */
export function parseConfidence(text: string): Confidence {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfidenceFormatError(`not JSON (${(err as Error).message})`);
  }
  const o = (Array.isArray(doc) ? doc[0] : doc) as Record<string, unknown> | undefined;
  const scores = o?.confidenceScore;
  if (!Array.isArray(scores) || scores.length === 0 || !scores.every((s) => typeof s === 'number' && s >= 0 && s <= 100)) {
    throw new ConfidenceFormatError('confidenceScore must be a non-empty array of numbers from 0 to 100');
  }
  const nums = o?.residueNumber;
  const residueNumber = Array.isArray(nums) && nums.length === scores.length && nums.every((n) => Number.isInteger(n)) ? (nums as number[]) : scores.map((_, i) => i + 1);
  return { residueNumber, confidenceScore: scores as number[] };
}

export function confidenceOf(scores: readonly number[]): Confidence {
  return { residueNumber: scores.map((_, i) => i + 1), confidenceScore: scores.map(round2) };
}

/** The file as served: compact, in the database's key order, with the chosen categories. */
export function confidenceJson(c: Confidence, scheme: CategoryScheme): string {
  const cat = scheme === 'letters' ? categoryLetter : categoryName;
  return JSON.stringify({ residueNumber: c.residueNumber, confidenceScore: c.confidenceScore, confidenceCategory: c.confidenceScore.map(cat) });
}

export interface PlddtSummary {
  globalMetricValue: number;
  fractionPlddtVeryLow: number;
  fractionPlddtLow: number;
  fractionPlddtConfident: number;
  fractionPlddtVeryHigh: number;
}

/** The record's mean pLDDT and band fractions, with the database's boundaries (its field names). */
export function plddtSummary(scores: readonly number[]): PlddtSummary {
  const n = scores.length || 1;
  const bands = [0, 0, 0, 0];
  let sum = 0;
  for (const s of scores) {
    sum += s;
    const k = s >= 90 ? 3 : s >= 70 ? 2 : s >= 50 ? 1 : 0;
    bands[k] = (bands[k] as number) + 1;
  }
  const f = (k: number) => Math.round(((bands[k] as number) / n) * 1000) / 1000;
  return { globalMetricValue: round2(sum / n), fractionPlddtVeryLow: f(0), fractionPlddtLow: f(1), fractionPlddtConfident: f(2), fractionPlddtVeryHigh: f(3) };
}
