/**
 * Reads a folder (or a single file) of PharmGKB downloads as published: the zips (`genes.zip`,
 * `drugs.zip`, `chemicals.zip`, `variants.zip`, `clinicalAnnotations.zip` or
 * `summaryAnnotations.zip`, `relationships.zip`, `drugLabels.zip`, `pathways-tsv.zip`,
 * `guidelineAnnotations.json.zip`) or the files they hold, plus CPIC's allele tables and gene–drug
 * pair list. Tables are recognised by their header, so renamed files still load; files that are
 * none of these (README, LICENSE, history tables) are passed over.
 */
import { gunzipSync } from 'node:zlib';
import type { ReadContext, SkipPlace } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, lines, listInputs, openInput } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { zipEntries } from '../../../core/ingest/zip.js';
import type { PgxRecord } from '../records.js';
import { AlleleTables, alleleTableGene, isAlleleHeader } from './alleles.js';
import { detailRecord, isDetailsDocument } from './details.js';
import { guidelineRecord } from './guidelines.js';
import { PathwayBuilder, isPathwayHeader, pathwayOfFile } from './pathways.js';
import { ROW_TABLES } from './tables.js';
import { Row, header, splitLine, type Header } from './text.js';

const EXPECTED =
  'PharmGKB downloads (genes.tsv, drugs.tsv or chemicals.tsv, variants.tsv, clinical or summary annotation tables, relationships.tsv, drugLabels.tsv, pathway TSVs, guideline annotation JSON, or the zips holding them) CPIC allele tables, or the API details a fetch writes';

type Lines = AsyncIterable<{ line: string; no: number }>;

/** One text file or archive entry to read. */
interface Source {
  /** Where it is, for skip reports: the path, or `archive.zip!entry`. */
  where: string;
  /** Its own file name (without folders), as given. */
  name: string;
  lines(): Lines;
  text(): Promise<string>;
}

function* splitLines(text: string): Generator<{ line: string; no: number }> {
  let no = 0;
  for (const line of text.split(/\r?\n/)) yield { line, no: ++no };
}

async function* asAsync<T>(it: Iterable<T>): AsyncGenerator<T> {
  yield* it;
}

const ext = (name: string) => /\.([a-z]+)$/.exec(baseName(name))?.[1] ?? '';
const CREATED = /^created_(\d{4}-\d{2}-\d{2})\.txt$/i;

class Reader {
  private readonly alleles = new AlleleTables();
  recognised = 0;

  constructor(private readonly ctx: ReadContext) {}

  /** Records of one source; unknown sources give none. */
  async *source(src: Source): AsyncGenerator<Sourced<PgxRecord>> {
    const own = src.name.split('/').pop() ?? src.name;
    const created = CREATED.exec(own);
    if (created) {
      this.ctx.release(created[1] as string);
      return;
    }
    const kind = ext(own);
    if (kind === 'json') {
      yield* this.json(src);
      return;
    }
    if (kind === 'tsv' || kind === 'csv' || kind === 'txt') yield* this.table(src, own.replace(/\.gz$/i, ''));
  }

  private async *json(src: Source): AsyncGenerator<Sourced<PgxRecord>> {
    let value: unknown;
    try {
      value = JSON.parse(await src.text());
    } catch (err) {
      this.ctx.skip({ file: src.where, position: 'file' }, `invalid JSON: ${(err as Error).message}`);
      return;
    }
    // What the API gives beyond the downloads (`fetch pgx --parts api`).
    const details = isDetailsDocument(value) ? value.details : undefined;
    // A JSON array that holds no guideline at all (e.g. pathways.json) is another download: passed over.
    const docs: unknown[] = details ?? (Array.isArray(value) ? value : [value]);
    const read = docs.map((doc) => (details ? detailRecord(doc) : guidelineRecord(doc)));
    if (Array.isArray(value) && read.every((r) => typeof r === 'string')) return;
    for (const [i, r] of read.entries()) {
      const position = details ? `details item ${i}` : Array.isArray(value) ? `item ${i}` : 'file';
      if (typeof r === 'string') {
        this.ctx.skip({ file: src.where, position }, r);
        continue;
      }
      this.recognised++;
      yield { value: r, place: { file: src.where, position } };
    }
  }

  private async *table(src: Source, own: string): AsyncGenerator<Sourced<PgxRecord>> {
    let h: Header | undefined;
    let title: string | undefined;
    let handle: ((row: Row, place: SkipPlace) => Sourced<PgxRecord> | undefined) | undefined;
    let pathway: PathwayBuilder | undefined;
    for await (const { line, no } of src.lines()) {
      if (this.ctx.signal.aborted) return;
      if (!line.trim()) continue;
      if (!h) {
        const candidate = header(line);
        // Title lines above the header (CPIC's sheets) have a single cell.
        if (candidate.names.filter((n) => n).length < 2) {
          title ??= candidate.names.find((n) => n);
          continue;
        }
        h = candidate;
        handle = this.handler(h, own, title, src);
        if (!handle) {
          const file = pathwayOfFile(own);
          if (isPathwayHeader(h) && file) pathway = new PathwayBuilder(file);
          else return;
        }
        this.recognised++;
        continue;
      }
      const row = new Row(h.index, splitLine(line, h.delimiter));
      if (pathway) pathway.add(row);
      else {
        const out = handle?.(row, { file: src.where, position: `line ${no}` });
        if (out) yield out;
      }
    }
    if (pathway) yield { value: pathway.build(), place: { file: src.where, position: 'file' } };
  }

  /** How rows of a table with this header are read, or undefined when it is not one we read. */
  private handler(h: Header, own: string, title: string | undefined, src: Source) {
    const table = ROW_TABLES.find((t) => t.matches(h));
    if (table) {
      return (row: Row, place: SkipPlace): Sourced<PgxRecord> | undefined => {
        const r = table.convert(row);
        if (r === null) return undefined;
        if (typeof r === 'string') {
          this.ctx.skip(place, `${table.what}: ${r}`);
          return undefined;
        }
        return { value: r, place };
      };
    }
    if (isAlleleHeader(h)) {
      const gene = alleleTableGene(own, title);
      if (!gene) {
        this.ctx.skip({ file: src.where, position: 'file' }, 'allele table without a gene: name the file <GENE>_... or give a title line');
        return () => undefined;
      }
      return (row: Row, place: SkipPlace): undefined => {
        const why = this.alleles.add(gene, h, row, place);
        if (why) this.ctx.skip(place, `allele table: ${why}`);
        return undefined;
      };
    }
    return undefined;
  }

  /** The merged allele records, once every table has been read. */
  *allelesRead(): Generator<Sourced<PgxRecord>> {
    for (const { rec, place } of this.alleles.records()) yield { value: rec, place };
  }
}

function fileSource(path: string, bytes: ByteProgress): Source {
  return {
    where: path,
    name: path.split(/[\\/]/).pop() ?? path,
    // Reading stops at the header of a file that is not ours: the stream is closed then too.
    lines: async function* () {
      const stream = openInput(path, bytes);
      try {
        yield* lines(stream);
      } finally {
        stream.destroy();
      }
    },
    text: async () => {
      const chunks: Buffer[] = [];
      for await (const c of openInput(path, bytes)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

export async function* readPgx(input: string, ctx: ReadContext): AsyncGenerator<Sourced<PgxRecord>> {
  const files = await listInputs(input);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  const reader = new Reader(ctx);
  for (const f of files) {
    if (ctx.signal.aborted) return;
    if (ext(f.path) !== 'zip') {
      yield* reader.source(fileSource(f.path, bytes));
      continue;
    }
    for await (const entry of zipEntries(f.path)) {
      if (ctx.signal.aborted) return;
      const where = `${f.path}!${entry.name}`;
      const read = async () => {
        const buf = await entry.read();
        return (entry.name.toLowerCase().endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
      };
      let text: string | undefined;
      const load = async () => (text ??= await read());
      try {
        yield* reader.source({
          where,
          name: entry.name,
          lines: () => ({
            async *[Symbol.asyncIterator]() {
              yield* asAsync(splitLines(await load()));
            },
          }),
          text: load,
        });
      } catch (err) {
        if (err instanceof FormatError) throw err;
        ctx.skip({ file: f.path, position: entry.name }, `unreadable archive entry: ${(err as Error).message}`);
      }
    }
    bytes.add(f.size);
  }
  yield* reader.allelesRead();
  if (reader.recognised === 0) {
    throw new FormatError(files.length === 1 ? `${input}: not one of the ${EXPECTED}` : `${input}: none of the ${EXPECTED} found`);
  }
}
