/**
 * Reads studies from what the registry publishes and what its API returns: the bulk download (a
 * zip, or a folder, of one JSON study per file), saved API pages (`{"studies": [...]}`), JSON arrays
 * and JSON lines, each optionally gzipped. Streams: memory holds one study at a time.
 */
import type { ReadContext } from '../../core/ingest/dataset.js';
import { FormatError } from '../../core/ingest/errors.js';
import { FileGuard } from '../../core/ingest/file-guard.js';
import { ByteProgress, baseName, lines, listInputs, openInput, peek, readText } from '../../core/ingest/inputs.js';
import type { Sourced } from '../../core/ingest/load.js';
import { jsonFileItems } from '../../core/ingest/json.js';
import { zipEntries } from '../../core/ingest/zip.js';
import { NCT_ID, columns, nctIdOf, type Study } from './extract.js';
import type { StudyRecord } from './store.js';

const PAGE_KEYS = new Set(['studies', 'totalCount', 'nextPageToken']);
const EXPECTED = 'ClinicalTrials.gov study JSON (.json, .jsonl, .ndjson or a .zip of them, optionally gzipped)';

type Kind = 'zip' | 'json' | 'jsonl';

function kindOf(path: string): Kind | undefined {
  const name = baseName(path);
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  return undefined;
}

/** Checks one parsed value and makes it a record, or says why it is not a study. */
export function toRecord(value: unknown): StudyRecord | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const nct = nctIdOf(value);
  if (!nct) return 'no protocolSection.identificationModule.nctId';
  if (!NCT_ID.test(nct)) return `malformed nctId "${nct}"`;
  const study = value as Study;
  return { study, doc: JSON.stringify(study), cols: columns(study) };
}

export async function* readStudies(input: string, ctx: ReadContext): AsyncGenerator<Sourced<StudyRecord>> {
  const files = await listInputs(input);
  const readable = files.filter((f) => kindOf(f.path));
  if (readable.length === 0) {
    throw new FormatError(files.length === 1 ? `${input}: not ${EXPECTED}` : `${input}: no study files found; expected ${EXPECTED}`);
  }
  const bytes = new ByteProgress(
    readable.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );

  for (const f of readable) {
    const kind = kindOf(f.path) as Kind;
    const guard = new FileGuard(f.path, 'ClinicalTrials.gov studies', EXPECTED);
    const emit = (value: unknown, position: string | number): Sourced<StudyRecord> | undefined => {
      const r = toRecord(value);
      if (typeof r === 'string') {
        guard.reject();
        ctx.skip({ file: f.path, position }, r);
        return undefined;
      }
      guard.accept();
      if (r.cols.versionHolder) ctx.release(r.cols.versionHolder);
      return { value: r, place: { file: f.path, position } };
    };

    if (kind === 'zip') {
      for await (const entry of zipEntries(f.path)) {
        if (ctx.signal.aborted) return;
        if (!kindOf(entry.name)) continue;
        if (kindOf(entry.name) !== 'json' || entry.name.endsWith('.gz')) {
          throw new FormatError(`${f.path}: entry ${entry.name}: the bulk archive holds one .json study per entry`);
        }
        let text: string;
        try {
          text = (await entry.read()).toString('utf8');
        } catch (err) {
          guard.reject();
          ctx.skip({ file: f.path, position: entry.name }, `unreadable archive entry: ${(err as Error).message}`);
          continue;
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (err) {
          guard.reject();
          ctx.skip({ file: f.path, position: entry.name }, `invalid JSON: ${(err as Error).message}`);
          continue;
        }
        const rec = emit(value, entry.name);
        if (rec) yield rec;
        ctx.progress(entry.index / Math.max(1, entry.total));
      }
      continue;
    }

    if (kind === 'jsonl') {
      for await (const { line, no } of lines(openInput(f.path, bytes))) {
        if (ctx.signal.aborted) return;
        if (!line.trim()) continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (err) {
          guard.reject();
          ctx.skip({ file: f.path, position: `line ${no}` }, `invalid JSON: ${(err as Error).message}`);
          continue;
        }
        const rec = emit(value, `line ${no}`);
        if (rec) yield rec;
      }
      continue;
    }

    // A .json file: one study, an array of studies, or a saved API page.
    const head = (await peek(f.path)).replace(/^\uFEFF/, '').trimStart();
    if (head.startsWith('[')) {
      for await (const { index, value } of jsonFileItems(f.path, bytes)) {
        if (ctx.signal.aborted) return;
        const rec = emit(value, `item ${index}`);
        if (rec) yield rec;
      }
      continue;
    }
    if (!head.startsWith('{')) throw new FormatError(`${f.path}: not JSON; expected ${EXPECTED}`);
    const firstKey = /^\{\s*"([^"]*)"/.exec(head)?.[1];
    if (firstKey !== undefined && PAGE_KEYS.has(firstKey)) {
      for await (const { index, value } of jsonFileItems(f.path, bytes, 'studies')) {
        if (ctx.signal.aborted) return;
        const rec = emit(value, `studies[${index}]`);
        if (rec) yield rec;
      }
      continue;
    }
    const text = await readText(f.path, bytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      if (files.length === 1) throw new FormatError(`${f.path}: invalid JSON (${(err as Error).message}); expected ${EXPECTED}`);
      ctx.skip({ file: f.path, position: 'file' }, `invalid JSON: ${(err as Error).message}`);
      continue;
    }
    const obj = value as Record<string, unknown>;
    if (Array.isArray(obj.studies)) {
      // A page whose first key is not "studies" (small enough to have been read whole).
      let i = 0;
      for (const s of obj.studies) {
        const rec = emit(s, `studies[${i++}]`);
        if (rec) yield rec;
      }
      continue;
    }
    const rec = emit(value, 'file');
    if (rec) yield rec;
    else if (files.length === 1) throw new FormatError(`${f.path}: not a ClinicalTrials.gov study; expected ${EXPECTED}`);
  }
}
