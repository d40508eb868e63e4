/**
 * Reads PubChem BioAssay bulk files: assay records as JSON (`{"PC_AssaySubmit": ...}` or
 * `{"PC_AssayContainer": [...]}`, `.json[.gz]`, or the zips of them), whose description is kept,
 * and the concise bioactivity table `bioactivities.tsv[.gz]` (AID, SID, SID Group, CID, Activity
 * Outcome, Activity Name, Activity Qualifier, Activity Value, Protein Accession, Gene ID, Target
 * TaxID, PMID; a header row is read by name).
 */
import { gunzipSync } from 'node:zlib';
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { zipEntries } from '../../../core/ingest/zip.js';
import type { Activity, AssayItem } from '../store/assays.js';
import { readWholeJson } from './files.js';
import { tsvRows } from './sdf-stream.js';

const EXPECTED = 'PubChem BioAssay JSON records (.json[.gz] or .zip of them) and/or bioactivities.tsv[.gz]';
const OUTCOME_METHODS: Record<number, string> = { 1: 'Screening', 2: 'Confirmatory', 3: 'Summary' };
const OUTCOMES: Record<string, string> = { '1': 'Inactive', '2': 'Active', '3': 'Inconclusive', '4': 'Unspecified', '5': 'Probe' };

type Kind = 'json' | 'zip' | 'activities';

function kindOf(path: string): Kind | undefined {
  const name = baseName(path);
  if (name === 'bioactivities.tsv') return 'activities';
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.zip')) return 'zip';
  return undefined;
}

interface Descr {
  aid?: { id?: number };
  name?: string;
  activity_outcome_method?: number;
  aid_source?: { db?: { name?: string } };
}

/** The description of an assay record, or why it is not one. */
export function assayItem(doc: unknown): AssayItem | string {
  const d = doc as { PC_AssaySubmit?: { assay?: { descr?: Descr } }; PC_AssayContainer?: { assay?: { descr?: Descr } }[] } | undefined;
  const descr = d?.PC_AssaySubmit?.assay?.descr ?? d?.PC_AssayContainer?.[0]?.assay?.descr;
  const aid = Number(descr?.aid?.id);
  if (!descr || !Number.isInteger(aid) || aid <= 0) return 'not a PubChem assay record (PC_AssaySubmit or PC_AssayContainer with assay.descr.aid.id)';
  return {
    kind: 'assay',
    aid,
    name: String(descr.name ?? ''),
    type: OUTCOME_METHODS[Number(descr.activity_outcome_method)] ?? 'Other',
    source: String(descr.aid_source?.db?.name ?? ''),
    descr: JSON.stringify({ assay: { descr } }),
  };
}

const COLUMNS = ['aid', 'sid', 'sid group', 'cid', 'activity outcome', 'activity name', 'activity qualifier', 'activity value', 'protein accession', 'gene id', 'target taxid', 'pmid'];

function activityOf(cells: string[], col: Map<string, number>): Activity | string {
  const get = (name: string) => (col.has(name) ? (cells[col.get(name) as number] ?? '').trim() : '');
  const aid = Number(get('aid'));
  if (!Number.isInteger(aid) || aid <= 0) return 'AID is not a positive integer';
  const int = (s: string) => (s !== '' && /^\d+$/.test(s) ? Number(s) : null);
  const value = get('activity value') === '' ? null : Number(get('activity value'));
  const outcome = get('activity outcome');
  return {
    aid,
    sid: int(get('sid')),
    cid: int(get('cid')),
    outcome: OUTCOMES[outcome] ?? outcome,
    name: get('activity name'),
    qualifier: get('activity qualifier'),
    value: value === null || Number.isFinite(value) ? value : null,
    accession: get('protein accession'),
    geneId: get('gene id'),
    pmid: get('pmid'),
  };
}

export async function* readAssays(input: string, ctx: ReadContext): AsyncGenerator<Sourced<AssayItem>> {
  const files = (await listInputs(input)).filter((f) => kindOf(f.path));
  if (!files.length) throw new FormatError(`${input}: no assay files found; expected ${EXPECTED}`);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  for (const f of files) {
    const kind = kindOf(f.path) as Kind;
    if (kind === 'json') {
      const item = assayItem(await readWholeJson(f.path, bytes));
      if (typeof item === 'string') ctx.skip({ file: f.path, position: 'file' }, item);
      else yield { value: item, place: { file: f.path, position: 'file' } };
      continue;
    }
    if (kind === 'zip') {
      for await (const entry of zipEntries(f.path)) {
        if (ctx.signal.aborted) return;
        if (!/\.json(\.gz)?$/i.test(entry.name)) continue;
        let doc: unknown;
        try {
          const raw = await entry.read();
          doc = JSON.parse((entry.name.toLowerCase().endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
        } catch (err) {
          ctx.skip({ file: f.path, position: entry.name }, `unreadable entry: ${(err as Error).message}`);
          continue;
        }
        const item = assayItem(doc);
        if (typeof item === 'string') ctx.skip({ file: f.path, position: entry.name }, item);
        else yield { value: item, place: { file: f.path, position: entry.name } };
        ctx.progress(entry.index / Math.max(1, entry.total));
      }
      continue;
    }
    let col: Map<string, number> | undefined;
    for await (const { no, cells } of tsvRows(openInput(f.path, bytes))) {
      if (ctx.signal.aborted) return;
      if (!col) {
        const header = cells.map((c) => c.trim().toLowerCase());
        if (header.includes('aid')) {
          col = new Map(header.map((h, i) => [h, i]));
          continue;
        }
        col = new Map(COLUMNS.map((h, i) => [h, i]));
      }
      const a = activityOf(cells, col);
      if (typeof a === 'string') {
        ctx.skip({ file: f.path, position: `line ${no}` }, a);
        continue;
      }
      yield { value: { kind: 'activity', a }, place: { file: f.path, position: `line ${no}` } };
    }
  }
}
