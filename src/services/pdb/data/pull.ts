/**
 * What pull-through needs to know of the Data API: chemical components and UniProt mappings come
 * from loads of their own, and GraphQL answers unknown ids with 200 and `null` (`entry`) or an
 * empty list (`entries`), where REST answers 404.
 */
import type { PullHints } from '../../../core/pullthrough/hints.js';
import { COMPONENTS, SIFTS } from '../store/tables.js';

const NEEDS: readonly [RegExp, string][] = [
  [/^\/rest\/v1\/(core\/chemcomp\/|holdings\/current\/ccd_ids$)/, COMPONENTS],
  [/^\/rest\/v1\/core\/uniprot\//, SIFTS],
];

/** Every root field answered `null` or `[]`, without errors: nothing asked for is here. */
function graphqlMissing(body: string): boolean {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return false;
  }
  if (answer === null || typeof answer !== 'object' || 'errors' in answer) return false;
  const data = (answer as { data?: unknown }).data;
  if (data === null || typeof data !== 'object') return false;
  const values = Object.values(data);
  return values.length > 0 && values.every((v) => v === null || (Array.isArray(v) && v.length === 0));
}

export const rcsbDataPullThrough: PullHints = {
  needs(req) {
    const hit = NEEDS.find(([re]) => re.test(req.path));
    return hit ? [hit[1]] : undefined;
  },
  miss: (req, answer) => req.path === '/graphql' && graphqlMissing(answer.body),
};
