/**
 * GWAS summary statistics by genomic region: every tested variant of the loaded studies in a range
 * of a chromosome, optionally of one study and under a p-value bound.
 */
import { z } from 'zod';
import { getJson, type McpContext } from '../context.js';
import { decodeCursor, encodeCursor, offsetPage, pageWindow, pick, type Page } from '../result.js';
import { enc, paging, str, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

const BASE = '/gwas/summary-statistics/api';
const DATASET = 'gwas/sumstats';
const FIELDS = [
  'variant_id',
  'chromosome',
  'base_pair_location',
  'effect_allele',
  'other_allele',
  'effect_allele_frequency',
  'beta',
  'standard_error',
  'odds_ratio',
  'ci_lower',
  'ci_upper',
  'p_value',
  'study_accession',
  'trait',
] as const;
// Pages read per call when filtering by p-value here (the service's largest page is 1000 rows).
const SCAN_PAGE = 1000;
const SCAN_PAGES = 10;

interface Range {
  chromosome: string;
  start: number;
  end: number;
  study: string | undefined;
}

/** One page of the region, as the service orders it (study, then position). */
async function regionPage(ctx: McpContext, r: Range, page: number, size: number): Promise<{ rows: Obj[]; more: boolean }> {
  const q = new URLSearchParams({ start: String(r.start), end: String(r.end), size: String(size), page: String(page) });
  if (r.study) q.set('study_accession', r.study);
  const j = (await getJson(ctx, `${BASE}/chromosomes/${enc(r.chromosome)}/associations?${q}`, { record: `chromosome ${r.chromosome}:${r.start}-${r.end}`, dataset: DATASET })) as {
    _embedded?: { associations?: Record<string, Obj> };
    _links?: { next?: unknown };
  };
  // The service keys its rows "0", "1", ... in order.
  const rows = Object.values(j._embedded?.associations ?? {}).map((a) => pick(a, FIELDS));
  return { rows, more: j._links?.next !== undefined };
}

/**
 * Under a p-value bound: the service does not combine one with a chromosome range, so pages of the
 * range are read here and filtered, at most SCAN_PAGES per call; the cursor resumes at the row after
 * the last one read, so every row is seen once however the calls are split.
 */
async function filtered(ctx: McpContext, r: Range, pUpper: number, limit: number, offset: number): Promise<Page> {
  const items: Obj[] = [];
  // The row offset of each item kept, so that a page cut by the budget resumes after the last one.
  const at: number[] = [];
  let next: number | null = offset;
  scan: for (let n = 0; n < SCAN_PAGES; n++) {
    const start: number = next;
    const page = Math.floor(start / SCAN_PAGE);
    const { rows, more } = await regionPage(ctx, r, page, SCAN_PAGE);
    for (let i = start - page * SCAN_PAGE; i < rows.length; i++) {
      const row = rows[i] as Obj;
      if (Number(row.p_value) <= pUpper) {
        items.push(row);
        at.push(page * SCAN_PAGE + i);
      }
      if (items.length === limit) {
        next = more || i + 1 < rows.length ? page * SCAN_PAGE + i + 1 : null;
        break scan;
      }
    }
    next = more ? (page + 1) * SCAN_PAGE : null;
    if (next === null) break;
  }
  return {
    ids: items.map(idOf),
    items,
    next_cursor: next === null ? null : encodeCursor({ offset: next }),
    resume: (kept) => encodeCursor({ offset: (at[kept - 1] ?? offset - 1) + 1 }),
  };
}

const idOf = (row: Obj) => `${String(row.study_accession)}:${String(row.variant_id)}`;

export const sumstatsTools: ToolSpec[] = [
  {
    name: 'gwas_sumstats_region',
    title: 'GWAS summary statistics in a region',
    description:
      'Every tested variant of the loaded GWAS summary-statistics studies in a genomic region (chromosome, start, end; GRCh38 base pairs), optionally of one study and under a p-value bound: effect allele, beta, standard error, p-value, odds ratio. Use for the association signal around a locus, not only the catalogued hits.',
    service: 'gwas',
    input: {
      chromosome: z
        .string()
        .regex(/^(?:[1-9]|1\d|2[0-5]|X|Y|MT)$/i, 'chromosome must be 1-22, X, Y or MT')
        .describe('chromosome, e.g. 1 or X'),
      start: z
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1)
        .describe('first base pair of the region'),
      end: z
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1)
        .describe('last base pair of the region'),
      study: z
        .string()
        .regex(/^GCST\d+$/, 'study must be an accession such as GCST005038')
        .optional()
        .describe('only this study'),
      p_upper: z.number().min(0).max(1).optional().describe('only variants with p-value at most this, e.g. 5e-8'),
      ...paging(100, 20),
    },
    async run(ctx, a) {
      const r: Range = { chromosome: (a.chromosome as string).toUpperCase(), start: a.start as number, end: a.end as number, study: str(a.study) };
      if (r.study) await getJson(ctx, `${BASE}/studies/${enc(r.study)}`, { record: `study ${r.study}`, dataset: DATASET });
      const limit = a.limit as number;
      const { offset } = decodeCursor(str(a.cursor));
      if (typeof a.p_upper === 'number') return filtered(ctx, r, a.p_upper, limit, offset);
      const { rows, more } = await pageWindow(offset, limit, (page, size) => regionPage(ctx, r, page, size));
      return offsetPage(rows, rows.map(idOf), offset, more);
    },
  },
];
