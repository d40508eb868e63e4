/** Datasets' gene reports read E-utilities' gene dataset only: with ClinVar alone loaded, it has nothing. */
import type { PullHints } from '../../core/pullthrough/hints.js';
import { GENE_DATASET } from '../ncbi/datasets.js';

export const datasetsPullThrough: PullHints = { needs: () => [GENE_DATASET] };
