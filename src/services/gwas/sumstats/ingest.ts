/**
 * Reads summary statistics in GWAS-SSF: one tab-separated file per study (usually gzipped) with the
 * standard's columns, and beside it the study's metadata YAML (`<file>-meta.yaml`) naming the study
 * (`gwas_id`) and its traits (`ontology_mapping`). Without the YAML the study accession comes from
 * the file name. One load reads a file or a folder of studies and replaces all summary statistics.
 *
 * Rows are numbered as they stream (`pos`), study after study: each study owns one contiguous range
 * of numbers, and within it the file's order, which the standard requires to be by chromosome and
 * position. The study's record comes after its rows, when its range is known.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, lines, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { SqlValue } from '../../../core/store/db.js';
import { fromNegLog10, parseP } from './pvalue.js';

export interface StudyInfo {
  acc: string;
  sid: number;
  first: number;
  last: number;
  rows: number;
  sorted: boolean;
  traits: string[];
  chromosomes: number[];
  file: string;
  meta: Record<string, unknown> | null;
}

export type SumstatsRecord = { kind: 'row'; row: SqlValue[] } | { kind: 'study'; study: StudyInfo };

/** The key rows are ordered and found by: chromosome * 2^32 + position. */
export const CHROM_SHIFT = 2 ** 32;

const CHROMOSOMES: Record<string, number> = { X: 23, Y: 24, MT: 25, M: 25 };

/** GWAS-SSF chromosomes are 1-25 (23 = X, 24 = Y, 25 = MT); the letters are read too. */
export function chromosomeNumber(v: string): number | undefined {
  // The common case first: a plain number (this runs once per row of files of millions).
  const d = v.length <= 2 ? Number(v) : NaN;
  if (Number.isInteger(d) && v !== '') return d >= 1 && d <= 25 ? d : undefined;
  const s = v.trim().toUpperCase().replace(/^CHR/, '');
  const n = /^\d{1,2}$/.test(s) ? Number(s) : CHROMOSOMES[s];
  return n !== undefined && n >= 1 && n <= 25 ? n : undefined;
}

const EXPECTED = 'GWAS-SSF summary statistics (.tsv or .tsv.gz, one study per file, with its -meta.yaml)';
const REQUIRED = ['chromosome', 'base_pair_location', 'effect_allele', 'other_allele', 'standard_error', 'effect_allele_frequency'];

function isData(path: string): boolean {
  return /\.(tsv|txt)$/.test(baseName(path));
}

/** The metadata YAML of a data file: `<file>-meta.yaml`, also without `.gz`, or `<stem>.yaml`. */
function metaFile(path: string): string | undefined {
  const stem = basename(path).replace(/\.gz$/i, '');
  const candidates = [`${basename(path)}-meta.yaml`, `${stem}-meta.yaml`, `${stem.replace(/\.(tsv|txt)$/i, '')}-meta.yaml`, `${stem.replace(/\.(tsv|txt)$/i, '')}.yaml`];
  return candidates.map((c) => join(dirname(path), c)).find((c) => existsSync(c));
}

function readMeta(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new FormatError(`${path}: not readable YAML (${(err as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FormatError(`${path}: the metadata is not a YAML mapping`);
  return value as Record<string, unknown>;
}

function strings(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x).trim()).filter(Boolean);
}

/** EFO ids as the API writes them (`EFO_0000305`), from CURIEs or IRIs. */
export function efoId(v: string): string {
  const last = v.split(/[/#]/).pop() ?? v;
  return last.replace(':', '_');
}

interface Columns {
  chrom: number;
  bp: number;
  ea: number;
  oa: number;
  beta: number;
  odds: number;
  se: number;
  eaf: number;
  p: number;
  negLog: number;
  rsid: number;
  variantId: number;
  ciLower: number;
  ciUpper: number;
}

function columnsOf(header: string[], file: string): Columns {
  const at = (name: string) => header.indexOf(name);
  const missing = REQUIRED.filter((c) => at(c) < 0);
  if (at('p_value') < 0 && at('neg_log_10_p_value') < 0) missing.push('p_value');
  if (at('beta') < 0 && at('odds_ratio') < 0 && at('hazard_ratio') < 0) missing.push('beta (or odds_ratio, hazard_ratio)');
  if (missing.length) throw new FormatError(`${file}: missing GWAS-SSF column(s) ${missing.join(', ')}; expected ${EXPECTED}`);
  return {
    chrom: at('chromosome'),
    bp: at('base_pair_location'),
    ea: at('effect_allele'),
    oa: at('other_allele'),
    beta: at('beta'),
    odds: at('odds_ratio'),
    se: at('standard_error'),
    eaf: at('effect_allele_frequency'),
    p: at('p_value'),
    negLog: at('neg_log_10_p_value'),
    rsid: at('rsid'),
    variantId: at('variant_id'),
    ciLower: at('ci_lower'),
    ciUpper: at('ci_upper'),
  };
}

/** A numeric cell; empty, `NA` and anything else that is not a finite number read as null. */
function numOrNull(cells: string[], i: number): number | null {
  if (i < 0) return null;
  const v = cells[i] ?? '';
  if (v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function text(cells: string[], i: number): string | null {
  if (i < 0) return null;
  const v = cells[i] ?? '';
  return v === '' || v === 'NA' ? null : v;
}

/** One data line as the row the store writes, or why it cannot be. */
export function toRow(cells: string[], c: Columns, pos: number, sid: number): SqlValue[] | string {
  const chrom = chromosomeNumber(cells[c.chrom] ?? '');
  if (chrom === undefined) return `chromosome "${cells[c.chrom] ?? ''}" is not 1-25, X, Y or MT`;
  const bpText = cells[c.bp] ?? '';
  const bp = Number(bpText);
  if (!Number.isInteger(bp) || bp < 1 || bp >= CHROM_SHIFT || /\D/.test(bpText)) return `base_pair_location "${bpText}" is not a position`;
  const p = c.p >= 0 ? parseP(cells[c.p] ?? '') : fromNegLog10(cells[c.negLog] ?? '');
  if (!p) return `p-value "${cells[c.p >= 0 ? c.p : c.negLog] ?? ''}" is not a number from 0 to 1`;
  const ea = text(cells, c.ea);
  const oa = text(cells, c.oa);
  const rs = text(cells, c.rsid);
  const vid = (rs && /^rs\d+$/i.test(rs) ? rs : null) ?? text(cells, c.variantId) ?? `${chrom}_${bp}_${oa ?? ''}_${ea ?? ''}`;
  return [
    pos,
    sid,
    chrom * CHROM_SHIFT + bp,
    vid,
    ea,
    oa,
    numOrNull(cells, c.eaf),
    numOrNull(cells, c.beta),
    numOrNull(cells, c.se),
    numOrNull(cells, c.odds),
    numOrNull(cells, c.ciLower),
    numOrNull(cells, c.ciUpper),
    p.mantissa,
    p.exponent,
    p.plog,
  ];
}

export async function* readSumstats(input: string, ctx: ReadContext): AsyncGenerator<Sourced<SumstatsRecord>> {
  const files = (await listInputs(input)).filter((f) => isData(f.path));
  if (files.length === 0) throw new FormatError(`${input}: no summary-statistics files found; expected ${EXPECTED}`);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  const seen = new Map<string, string>();
  let pos = 0;
  let sid = 0;
  for (const f of files) {
    const metaPath = metaFile(f.path);
    const meta = metaPath ? readMeta(metaPath) : null;
    const acc = strings(meta?.gwas_id)[0] ?? /GCST\d+/i.exec(basename(f.path))?.[0]?.toUpperCase();
    if (!acc) throw new FormatError(`${f.path}: cannot tell which study this is: name the file after its accession (GCST...) or give its -meta.yaml with gwas_id`);
    const dupe = seen.get(acc);
    if (dupe) throw new FormatError(`${f.path}: study ${acc} is also in ${dupe}; one file per study`);
    seen.set(acc, f.path);
    const modified = strings(meta?.date_metadata_last_modified)[0];
    if (modified && /^\d{4}-\d{2}-\d{2}/.test(modified)) ctx.release(modified.slice(0, 10));

    sid++;
    const first = pos + 1;
    let columns: Columns | undefined;
    let lastKey = -1;
    let sorted = true;
    const chroms = new Set<number>();
    for await (const { line, no } of lines(openInput(f.path, bytes))) {
      if (ctx.signal.aborted) return;
      if (columns === undefined) {
        if (!line.trim() || line.startsWith('#')) continue;
        columns = columnsOf(
          line
            .replace(/^\uFEFF/, '')
            .split('\t')
            .map((h) => h.trim().toLowerCase()),
          f.path,
        );
        continue;
      }
      if (!line) continue;
      const row = toRow(line.split('\t'), columns, pos + 1, sid);
      if (typeof row === 'string') {
        ctx.skip({ file: f.path, position: `line ${no}` }, row);
        continue;
      }
      pos++;
      const key = row[2] as number;
      if (key < lastKey) sorted = false;
      lastKey = key;
      chroms.add(Math.floor(key / CHROM_SHIFT));
      // The line number as a number: a string per row would cost more than the row's parse.
      yield { value: { kind: 'row', row }, place: { file: f.path, position: no } };
    }
    if (columns === undefined) throw new FormatError(`${f.path}: empty; expected ${EXPECTED}`);
    const study: StudyInfo = {
      acc,
      sid,
      first,
      last: pos,
      rows: pos - first + 1,
      sorted,
      traits: strings(meta?.ontology_mapping).map(efoId),
      chromosomes: [...chroms].sort((a, b) => a - b),
      file: basename(f.path),
      meta,
    };
    yield { value: { kind: 'study', study }, place: { file: f.path, position: 'end of file' } };
  }
}
