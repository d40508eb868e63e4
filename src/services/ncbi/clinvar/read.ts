/**
 * Streams ClinVar's bulk files out of a file or folder: variant_summary.txt (required), and when
 * present var_citations.txt and the VCV release XML (ClinVarVCVRelease_*.xml), each optionally
 * gzipped. Tabular files are recognised by their header, XML by its first element. The XML is read
 * with a streaming parser: memory holds one VariationArchive at a time.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, listInputs, openInput, peek, type InputFile } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { escapeAttr, escapeXml } from '../text.js';
import { headerColumns, tsvRows } from '../tsv.js';
import { CITATION_COLUMNS, SUMMARY_COLUMNS, parseCitation, parseSummary, type ClinvarRecord } from './records.js';

type Kind = 'summary' | 'citations' | 'vcv';
const ORDER: Kind[] = ['summary', 'citations', 'vcv'];
const EXPECTED = 'ClinVar bulk files: variant_summary.txt (required), var_citations.txt, the VCV release XML; each may be gzipped';

async function kindOf(f: InputFile): Promise<Kind | undefined> {
  const head = (await peek(f.path, 4096)).replace(/^\uFEFF/, '');
  if (/^\s*</.test(head)) return /<(ClinVarVariationRelease|ClinVarResult-Set|VariationArchive)\b/.test(head) ? 'vcv' : undefined;
  const cols = headerColumns((head.split('\n')[0] ?? '').replace(/\r$/, ''));
  if (!cols) return undefined;
  if (SUMMARY_COLUMNS.every((c) => cols.includes(c))) return 'summary';
  if (CITATION_COLUMNS.every((c) => cols.includes(c))) return 'citations';
  return undefined;
}

export async function* readClinvar(input: string, ctx: ReadContext): AsyncGenerator<Sourced<ClinvarRecord>> {
  const files = await listInputs(input);
  const known: { f: InputFile; kind: Kind }[] = [];
  for (const f of files) {
    const kind = await kindOf(f);
    if (kind) known.push({ f, kind });
    else if (files.length === 1 && files[0]?.path === input) throw new FormatError(`${f.path}: not a variant_summary file; expected ${EXPECTED}`);
  }
  if (!known.some((k) => k.kind === 'summary')) throw new FormatError(`${input}: no variant_summary file found; expected ${EXPECTED}`);
  known.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  const bytes = new ByteProgress(
    known.reduce((a, k) => a + k.f.size, 0),
    (x) => ctx.progress(x),
  );
  let seq = 0;
  for (const { f, kind } of known) {
    if (kind === 'vcv') {
      yield* readVcv(f.path, bytes, ctx);
      continue;
    }
    const required = kind === 'summary' ? SUMMARY_COLUMNS : CITATION_COLUMNS;
    for await (const row of tsvRows(f.path, required, bytes, ctx.signal)) {
      const place = { file: f.path, position: `line ${row.no}` };
      if (kind === 'summary') {
        const r = parseSummary(row);
        if (typeof r === 'string') ctx.skip(place, r);
        else yield { value: { kind: 'row', row: r, seq: ++seq }, place };
      } else {
        const c = parseCitation(row);
        if (typeof c === 'string') ctx.skip(place, c);
        else yield { value: { kind: 'citation', ...c }, place };
      }
    }
  }
}

function openTag(tag: SaxesTagPlain): string {
  let s = `<${tag.name}`;
  for (const [k, v] of Object.entries(tag.attributes)) s += ` ${k}="${escapeAttr(v)}"`;
  return s + (tag.isSelfClosing ? '/>' : '>');
}

/** Each VariationArchive of a release (or saved efetch) file, re-serialised as it was read. */
async function* readVcv(path: string, bytes: ByteProgress, ctx: ReadContext): AsyncGenerator<Sourced<ClinvarRecord>> {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const done: { variationId: number; xml: string; n: number }[] = [];
  let depth = 0;
  let buf: string[] | undefined;
  let vid = 0;
  let n = 0;
  parser.on('opentag', (tag) => {
    depth++;
    if (depth === 1 && tag.name === 'ClinVarVariationRelease' && typeof tag.attributes.ReleaseDate === 'string') ctx.release(tag.attributes.ReleaseDate);
    if (!buf && tag.name === 'VariationArchive') {
      buf = [];
      vid = Number(tag.attributes.VariationID);
      n++;
    }
    buf?.push(openTag(tag));
    if (tag.isSelfClosing) depth--;
  });
  parser.on('closetag', (tag) => {
    if (tag.isSelfClosing) return;
    depth--;
    if (!buf) return;
    buf.push(`</${tag.name}>`);
    if (tag.name === 'VariationArchive' && buf.length > 0 && depth <= 2) {
      done.push({ variationId: vid, xml: buf.join(''), n });
      buf = undefined;
    }
  });
  parser.on('text', (t) => buf?.push(escapeXml(t)));
  parser.on('cdata', (t) => buf?.push(escapeXml(t)));
  const stream = openInput(path, bytes);
  stream.setEncoding('utf8');
  try {
    for await (const chunk of stream) {
      if (ctx.signal.aborted) return;
      parser.write(chunk as string);
      while (done.length) {
        const d = done.shift() as { variationId: number; xml: string; n: number };
        const place = { file: path, position: `VariationArchive ${d.n}` };
        if (!Number.isInteger(d.variationId) || d.variationId <= 0) ctx.skip(place, 'VariationArchive without a numeric VariationID');
        else yield { value: { kind: 'vcv', variationId: d.variationId, xml: d.xml }, place };
      }
    }
    parser.close();
  } catch (err) {
    if (err instanceof FormatError) throw err;
    throw new FormatError(`${path}: damaged XML (${(err as Error).message})`);
  } finally {
    stream.destroy();
  }
}
