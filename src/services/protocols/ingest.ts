/**
 * Reads protocols as the API returns them: a file (or a folder of files) holding one protocol
 * object, a Get Protocol response (`{"protocol": {...}}`), a JSON array of protocols, a Get List
 * page (`{"items": [...]}`), or JSON lines of any of these; optionally gzipped. Arrays and pages
 * are streamed, so memory holds one protocol at a time.
 */
import type { ReadContext } from '../../core/ingest/dataset.js';
import { FormatError } from '../../core/ingest/errors.js';
import { ByteProgress, baseName, lines, listInputs, openInput, peek, readText } from '../../core/ingest/inputs.js';
import { jsonFileItems } from '../../core/ingest/json.js';
import type { Sourced } from '../../core/ingest/load.js';
import { storedAsHtml } from './content.js';
import { columnsOf, protocolId, type Doc } from './extract.js';
import type { ProtocolRecord } from './store.js';

const EXPECTED = 'protocol JSON as the API returns it (.json or .jsonl: a protocol, {"protocol": ...}, a list, or {"items": [...]}, optionally gzipped)';

const WRAPPERS = ['protocol', 'payload'];

/**
 * A protocol object, unwrapped from a Get Protocol answer (`protocol`, or `payload` in the
 * upstream's v4); rich text sent as Draft.js JSON kept as HTML; number_of_steps filled in when missing.
 */
export function toRecord(value: unknown): ProtocolRecord | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  let doc = value as Doc;
  for (const w of WRAPPERS) {
    const inner = doc[w];
    if (protocolId(doc) === undefined && inner && typeof inner === 'object' && !Array.isArray(inner)) doc = inner as Doc;
  }
  doc = storedAsHtml(doc);
  const cols = columnsOf(doc);
  if (typeof cols === 'string') return cols;
  if (doc.number_of_steps === undefined && Array.isArray(doc.steps)) doc = { ...doc, number_of_steps: doc.steps.length };
  return { doc: JSON.stringify(doc), cols };
}

type Kind = 'json' | 'jsonl';

function kindOf(path: string): Kind | undefined {
  const name = baseName(path);
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  return undefined;
}

export async function* readProtocols(input: string, ctx: ReadContext): AsyncGenerator<Sourced<ProtocolRecord>> {
  const files = (await listInputs(input)).filter((f) => kindOf(f.path));
  if (files.length === 0) throw new FormatError(`${input}: no protocol files found; expected ${EXPECTED}`);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  for (const f of files) {
    const emit = (value: unknown, position: string | number): Sourced<ProtocolRecord> | undefined => {
      const r = toRecord(value);
      if (typeof r === 'string') {
        ctx.skip({ file: f.path, position }, r);
        return undefined;
      }
      return { value: r, place: { file: f.path, position } };
    };
    const many = function* (value: unknown, position: string) {
      // A line or file holding a list or a page gives each of its protocols.
      const list = Array.isArray(value) ? value : value && typeof value === 'object' && Array.isArray((value as Doc).items) ? ((value as Doc).items as unknown[]) : undefined;
      if (!list) {
        const rec = emit(value, position);
        if (rec) yield rec;
        return;
      }
      for (const [i, v] of list.entries()) {
        const rec = emit(v, `${position} item ${i}`);
        if (rec) yield rec;
      }
    };

    if (kindOf(f.path) === 'jsonl') {
      for await (const { line, no } of lines(openInput(f.path, bytes))) {
        if (ctx.signal.aborted) return;
        if (!line.trim()) continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (err) {
          ctx.skip({ file: f.path, position: `line ${no}` }, `invalid JSON: ${(err as Error).message}`);
          continue;
        }
        yield* many(value, `line ${no}`);
      }
      continue;
    }

    const head = (await peek(f.path)).replace(/^\uFEFF/, '').trimStart();
    const firstKey = /^\{\s*"([^"]*)"/.exec(head)?.[1];
    if (head.startsWith('[') || firstKey === 'items') {
      for await (const { index, value } of jsonFileItems(f.path, bytes, head.startsWith('[') ? undefined : 'items')) {
        if (ctx.signal.aborted) return;
        const rec = emit(value, `item ${index}`);
        if (rec) yield rec;
      }
      continue;
    }
    if (!head.startsWith('{')) {
      if (files.length === 1) throw new FormatError(`${f.path}: not JSON; expected ${EXPECTED}`);
      ctx.skip({ file: f.path, position: 'file' }, 'not JSON');
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(await readText(f.path, bytes));
    } catch (err) {
      if (files.length === 1) throw new FormatError(`${f.path}: invalid JSON (${(err as Error).message}); expected ${EXPECTED}`);
      ctx.skip({ file: f.path, position: 'file' }, `invalid JSON: ${(err as Error).message}`);
      continue;
    }
    yield* many(value, 'file');
  }
}
