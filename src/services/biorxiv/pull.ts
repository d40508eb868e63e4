/**
 * bioRxiv answers a DOI it does not have with 200 and the message "no posts found" (JSON or XML);
 * that is a miss. An interval with no posts is an answer of the loaded data.
 */
import type { PullHints } from '../../core/pullthrough/hints.js';

const BY_DOI = /^\/(details|pubs)\/[^/]+\/10\.\d{4,9}\//;
const NONE = /"status":"no posts found"|<status>no posts found<\/status>/;

export const biorxivPullThrough: PullHints = {
  miss: (req, answer) => BY_DOI.test(req.path) && NONE.test(answer.body),
};
