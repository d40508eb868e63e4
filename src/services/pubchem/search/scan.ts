/**
 * The in-memory parts of structure search, in slices with a turn of the event loop between them
 * (other requests keep being answered) and a deadline checked after each slice.
 */
import { PATTERN_WORDS, popcount32 } from '../chem/fingerprints.js';
import { KEY_COUNT, KEY_WORDS } from '../chem/subskeys-codec.js';
import type { FingerprintIndex } from './index.js';

export class SearchTimeout extends Error {
  override readonly name = 'SearchTimeout';
}

const SLICE = 20_000;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

export function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new SearchTimeout('the search ran past its time limit');
}

export interface Hit {
  cid: number;
  score: number;
}

/**
 * A score at or above the threshold, with room for the rounding of `threshold / 100`: two different
 * Tanimoto scores of 881-key sets differ by more than 1e-6, so the slack never admits a lower score.
 */
const SLACK = 1e-9;

/**
 * CIDs whose Tanimoto on PubChem's substructure keys to `q` (key words) is at least `threshold`
 * (0..1), best first, equal scores by ascending CID. Only counts between t·|q| and |q|/t can reach
 * the threshold. Compounds without keys are never similar.
 */
export async function similar(index: FingerprintIndex, q: Uint32Array, threshold: number, deadline: number): Promise<Hit[]> {
  let qc = 0;
  for (let w = 0; w < KEY_WORDS; w++) qc += popcount32(q[w] as number);
  if (qc === 0) return [];
  const t = Math.max(threshold, 1e-9);
  const lo = Math.max(0, Math.ceil(t * qc - SLACK));
  const hi = Math.min(KEY_COUNT, Math.floor(qc / t + SLACK));
  const from = index.starts[lo] as number;
  const to = index.starts[hi + 1] as number;
  const hits: Hit[] = [];
  const k = index.keys;
  for (let start = from; start < to; start += SLICE) {
    const end = Math.min(to, start + SLICE);
    for (let i = start; i < end; i++) {
      const base = i * KEY_WORDS;
      let common = 0;
      for (let w = 0; w < KEY_WORDS; w++) common += popcount32((k[base + w] as number) & (q[w] as number));
      const score = common / (qc + (index.counts[i] as number) - common);
      if (score + SLACK >= t) hits.push({ cid: index.cids[i] as number, score });
    }
    checkDeadline(deadline);
    if (end < to) await tick();
  }
  hits.sort((a, b) => b.score - a.score || a.cid - b.cid);
  return hits;
}

/**
 * Candidates of a substructure search (every bit of the query's pattern fingerprint set in the
 * compound's) or of a superstructure search (every bit of the compound's set in the query's), in
 * CID order. The exact match decides among them.
 */
export async function screen(index: FingerprintIndex, q: Uint32Array, mode: 'sub' | 'super', deadline: number): Promise<number[]> {
  const out: number[] = [];
  const p = index.pattern;
  for (let start = 0; start < index.size; start += SLICE) {
    const end = Math.min(index.size, start + SLICE);
    for (let i = start; i < end; i++) {
      const base = i * PATTERN_WORDS;
      let ok = true;
      for (let w = 0; w < PATTERN_WORDS; w++) {
        const c = p[base + w] as number;
        const qw = q[w] as number;
        // Bitwise results are signed 32-bit: test for missing bits against zero, never against the unsigned word.
        if ((mode === 'sub' ? qw & ~c : c & ~qw) !== 0) {
          ok = false;
          break;
        }
      }
      if (ok) out.push(index.cids[i] as number);
    }
    checkDeadline(deadline);
    if (end < index.size) await tick();
  }
  return out.sort((a, b) => a - b);
}
