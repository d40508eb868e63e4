/**
 * The metadata downloads: the bulk metadata table (CSV, TSV or JSON lines, with the BigQuery
 * table's column names) and `accession_ids.csv` (accession, first residue, last residue, entry id,
 * latest version; no header). Values are typed as the prediction record types them.
 */

export type Meta = Record<string, unknown>;

const INTS = new Set(['taxId', 'uniprotStart', 'uniprotEnd', 'latestVersion', 'sequenceLength']);
const FLOATS = new Set(['globalMetricValue', 'fractionPlddtVeryHigh', 'fractionPlddtConfident', 'fractionPlddtLow', 'fractionPlddtVeryLow']);
const BOOLS = new Set(['isReviewed', 'isReferenceProteome']);
const INT_ARRAYS = new Set(['allVersions']);
const STR_ARRAYS = new Set(['geneSynonyms', 'organismCommonNames', 'organismSynonyms', 'proteinFullNames', 'proteinShortNames']);
const STRS = new Set([
  'entryId',
  'uniprotAccession',
  'uniprotId',
  'uniprotDescription',
  'gene',
  'organismScientificName',
  'uniprotSequence',
  'sequenceChecksum',
  'sequenceVersionDate',
  'modelCreatedDate',
]);

export const META_COLUMNS: ReadonlySet<string> = new Set([...INTS, ...FLOATS, ...BOOLS, ...INT_ARRAYS, ...STR_ARRAYS, ...STRS]);

function listOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  const s = String(v).trim();
  if (s === '') return [];
  if (s.startsWith('[')) {
    try {
      const a = JSON.parse(s) as unknown;
      if (Array.isArray(a)) return a;
    } catch {
      // Not JSON: a separated list below.
    }
  }
  return s
    .replace(/^\[|\]$/g, '')
    .split(/[;|,]/)
    .map((x) => x.trim().replace(/^"|"$/g, ''))
    .filter((x) => x !== '');
}

/** One metadata row as typed values; throws on a value of the wrong type (the row is skipped). */
export function typedMeta(row: Record<string, unknown>): Meta {
  const out: Meta = {};
  for (const [k, raw] of Object.entries(row)) {
    if (!META_COLUMNS.has(k) || raw === null || raw === undefined || raw === '') continue;
    if (INTS.has(k)) {
      const n = Number(raw);
      if (!Number.isInteger(n)) throw new Error(`${k} is not an integer: ${String(raw)}`);
      out[k] = n;
    } else if (FLOATS.has(k)) {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new Error(`${k} is not a number: ${String(raw)}`);
      out[k] = n;
    } else if (BOOLS.has(k)) {
      const s = String(raw).toLowerCase();
      if (!['true', 'false', '1', '0', 't', 'f'].includes(s)) throw new Error(`${k} is not a boolean: ${String(raw)}`);
      out[k] = s === 'true' || s === '1' || s === 't';
    } else if (INT_ARRAYS.has(k)) {
      const a = listOf(raw).map(Number);
      if (!a.every(Number.isInteger)) throw new Error(`${k} is not a list of integers: ${String(raw)}`);
      out[k] = a;
    } else if (STR_ARRAYS.has(k)) out[k] = listOf(raw).map(String);
    else out[k] = String(raw);
  }
  if (typeof out.entryId !== 'string' || !/^AF-\S+$/.test(out.entryId)) throw new Error('no entryId of the form AF-...');
  return out;
}

/** Splits one CSV line (RFC 4180 quoting, no line breaks inside fields). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error('unclosed quote');
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      if (line[i] === ',') i++;
      else if (i < line.length) throw new Error('text after a closing quote');
      else break;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        break;
      }
      out.push(line.slice(i, c));
      i = c + 1;
      if (i === line.length) out.push('');
    }
  }
  return out;
}

/** A row of accession_ids.csv. */
export function accessionIdsRow(fields: string[]): Meta {
  const [acc, first, last, entryId, version] = fields;
  if (!acc || !entryId || !/^AF-\S+$/.test(entryId)) throw new Error('expected accession,first,last,entryId,version');
  const ints = [first, last, version].map(Number);
  if (!ints.every((n) => Number.isInteger(n) && n > 0)) throw new Error('first, last and version must be positive integers');
  return { entryId, uniprotAccession: acc, uniprotStart: ints[0], uniprotEnd: ints[1], latestVersion: ints[2] };
}
