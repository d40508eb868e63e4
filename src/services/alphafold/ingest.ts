/**
 * Reads the bulk downloads: proteome tar shards (members `*.cif.gz`, `*-confidence_*.json.gz`,
 * `*-predicted_aligned_error_*.json.gz`), folders of per-entry files, `accession_ids.csv` and the
 * metadata table, and the optional files of an entry (its MSA, its AlphaMissense tables; see
 * extra-files.ts), each kept on its own. The files of one entry are gathered (they sit together in shards and in sorted
 * folders) and yielded as one record once all three are there, or at the end of the input.
 */
import { createReadStream } from 'node:fs';
import type { ReadContext } from '../../core/ingest/dataset.js';
import { FormatError } from '../../core/ingest/errors.js';
import { ByteProgress, lines, listInputs, openInput, peek } from '../../core/ingest/inputs.js';
import type { Sourced } from '../../core/ingest/load.js';
import type { ModelRecord, Part, Pending } from './entry.js';
import { checkedExtra, parseLoadedExtra } from './extra-files.js';
import { IngestPool, readInPlace } from './ingest-pool.js';
import { accessionIdsRow, csvFields, typedMeta, type Meta } from './metadata.js';
import { tarMembers } from './tar.js';

export type { ModelDoc, ModelRecord } from './entry.js';
export { UNIPROT_ENTRY } from './entry.js';

export interface MetaRecord {
  kind: 'meta';
  entryId: string;
  source: 'table' | 'ids';
  doc: Meta;
}

/** An optional file of an entry (MSA, AlphaMissense table), gzipped, kept under `source`. */
export interface FileRecord {
  kind: 'file';
  entryId: string;
  source: string;
  bytes: Buffer;
}

export type AfRecord = ModelRecord | MetaRecord | FileRecord;

const FILE = /^(AF-.+?)-(model|confidence|predicted_aligned_error)_v(\d+)\.(cif|json|pdb)$/;

/** Entries gathered from the files read so far, in arrival order. */
class Gatherer {
  private readonly open = new Map<string, Map<number, Pending>>();
  constructor(private readonly ctx: ReadContext) {}

  /** Adds a file; returns the entries it completed. */
  add(entryId: string, version: number, kind: keyof Pending, part: Part): [string, number, Pending][] {
    let versions = this.open.get(entryId);
    if (!versions) {
      versions = new Map();
      this.open.set(entryId, versions);
    }
    const p = versions.get(version) ?? {};
    versions.set(version, p);
    if (p[kind]) this.ctx.skip(part.place, `a second ${kind} file for ${entryId} v${version}; the first is kept`);
    else p[kind] = part;
    const out: [string, number, Pending][] = [];
    if (p.model && p.confidence && p.pae) {
      versions.delete(version);
      if (versions.size === 0) this.open.delete(entryId);
      out.push([entryId, version, p]);
    }
    // Far more open entries than a shard interleaves: the oldest are given up waiting.
    if (this.open.size > 20_000) out.push(...this.drain(1000));
    return out;
  }

  drain(most = Infinity): [string, number, Pending][] {
    const out: [string, number, Pending][] = [];
    for (const [entryId, versions] of this.open) {
      if (out.length >= most) break;
      for (const [v, p] of versions) out.push([entryId, v, p]);
      this.open.delete(entryId);
    }
    return out;
  }
}

type Kind = 'tar' | 'entry-file' | 'extra-file' | 'ids' | 'table' | 'ignore' | 'unknown';

function kindOf(path: string, head: string): Kind {
  const name = (path.split(/[\\/]/).pop() ?? path).toLowerCase();
  if (/\.tar$/.test(name)) return 'tar';
  const base = (path.split(/[\\/]/).pop() ?? path).replace(/\.gz$/i, '');
  if (FILE.test(base)) return 'entry-file';
  if (parseLoadedExtra(base)) return 'extra-file';
  if (/^download_metadata\.json$|^msa_depths\.csv$|\.(md|txt|fasta|a3m)$/.test(name.replace(/\.gz$/, ''))) return 'ignore';
  const first = head.split(/\r?\n/)[0] ?? '';
  if (/entryId/.test(first)) return 'table';
  if (/^[A-Z0-9-]+,\d+,\d+,AF-[^,]+,\d+$/.test(first)) return 'ids';
  return 'unknown';
}

async function* tableRows(path: string, bytes: ByteProgress, ctx: ReadContext, ids: boolean): AsyncGenerator<Sourced<AfRecord>> {
  let header: string[] | undefined;
  let sep: 'csv' | 'tsv' | 'jsonl' | undefined;
  for await (const { line, no } of lines(openInput(path, bytes))) {
    if (line.trim() === '') continue;
    const place = { file: path, position: no };
    try {
      if (ids) {
        const doc = accessionIdsRow(csvFields(line));
        yield { value: { kind: 'meta', entryId: doc.entryId as string, source: 'ids', doc }, place };
        continue;
      }
      if (!sep) sep = line.trimStart().startsWith('{') ? 'jsonl' : line.includes('\t') ? 'tsv' : 'csv';
      let row: Record<string, unknown>;
      if (sep === 'jsonl') row = JSON.parse(line) as Record<string, unknown>;
      else {
        const fields = sep === 'tsv' ? line.split('\t') : csvFields(line);
        if (!header) {
          header = fields.map((f) => f.trim());
          continue;
        }
        row = Object.fromEntries(header.map((h, i) => [h, fields[i] ?? '']));
      }
      const doc = typedMeta(row);
      yield { value: { kind: 'meta', entryId: doc.entryId as string, source: 'table', doc }, place };
    } catch (err) {
      ctx.skip(place, (err as Error).message);
    }
  }
}

export async function* readAlphafold(input: string, ctx: ReadContext): AsyncGenerator<Sourced<AfRecord>> {
  const files = await listInputs(input);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  const gather = new Gatherer(ctx);
  let recognised = 0;

  // Entries being read (in the pool's threads, or in place), oldest first; yielded in that order.
  const pool = IngestPool.create();
  const reading: { entryId: string; version: number; place: Part['place']; record: Promise<ModelRecord> }[] = [];
  const most = pool?.capacity ?? 1;

  async function* settle(keep: number): AsyncGenerator<Sourced<AfRecord>> {
    while (reading.length > keep) {
      const r = reading.shift() as (typeof reading)[number];
      try {
        yield { value: await r.record, place: r.place };
      } catch (err) {
        ctx.skip(r.place, `${r.entryId} v${r.version}: ${(err as Error).message}`);
      }
    }
  }

  async function* emit(done: [string, number, Pending][]): AsyncGenerator<Sourced<AfRecord>> {
    for (const [entryId, version, p] of done) {
      const place = (p.model ?? p.confidence ?? p.pae)?.place ?? { file: input, position: entryId };
      if (!p.model) {
        ctx.skip(place, `${entryId} v${version}: no model file was found beside its ${p.confidence ? 'confidence' : 'PAE'} file`);
        continue;
      }
      const record = pool ? pool.run(entryId, version, p) : readInPlace(entryId, version, p);
      // Settled in order below; a rejection is reported there, not as an unhandled one.
      record.catch(() => undefined);
      reading.push({ entryId, version, place: p.model.place, record });
      yield* settle(most - 1);
    }
  }

  /** An optional file (MSA, AlphaMissense table), checked and kept on its own; undefined when skipped. */
  function extraFile(name: string, part: Part): Sourced<AfRecord> | undefined {
    const x = parseLoadedExtra(name.split('/').pop() ?? name);
    if (!x) return undefined;
    recognised++;
    try {
      return { value: { kind: 'file', entryId: x.entryId, source: x.source, bytes: checkedExtra(x.kind, part.bytes) }, place: part.place };
    } catch (err) {
      ctx.skip(part.place, `${name.split('/').pop() ?? name}: ${(err as Error).message}`);
      return undefined;
    }
  }

  function entryFile(name: string, part: Part): [string, number, Pending][] {
    const base = (name.split('/').pop() ?? name).replace(/\.gz$/i, '');
    const m = FILE.exec(base);
    if (!m) return [];
    const [, entryId, what, v, ext] = m as unknown as [string, string, string, string, string];
    // The shards' legacy .pdb copies are not kept: the .pdb file is written from the mmCIF.
    if (ext === 'pdb') return [];
    if ((what === 'model') !== (ext === 'cif')) {
      ctx.skip(part.place, `${base}: unexpected file type`);
      return [];
    }
    recognised++;
    const kind = what === 'model' ? 'model' : what === 'confidence' ? 'confidence' : 'pae';
    return gather.add(entryId, Number(v), kind, part);
  }

  try {
    for (const f of files) {
      if (ctx.signal.aborted) return;
      const kind = kindOf(f.path, /\.(csv|tsv|jsonl|json|txt)(\.gz)?$/i.test(f.path) ? await peek(f.path, 2048) : '');
      if (kind === 'tar') {
        try {
          for await (const member of tarMembers(openInput(f.path, bytes))) {
            const part = { bytes: member.bytes, place: { file: f.path, position: member.name } };
            const extra = extraFile(member.name, part);
            if (extra) yield extra;
            else yield* emit(entryFile(member.name, part));
          }
        } catch (err) {
          throw new FormatError(`${f.path}: ${(err as Error).message}`);
        }
        // Entries of a shard are complete within it.
        yield* emit(gather.drain());
      } else if (kind === 'entry-file' || kind === 'extra-file') {
        const chunks: Buffer[] = [];
        for await (const c of createReadStream(f.path)) {
          chunks.push(c as Buffer);
          bytes.add((c as Buffer).length);
        }
        const part = { bytes: Buffer.concat(chunks), place: { file: f.path, position: 0 } };
        if (kind === 'extra-file') {
          const extra = extraFile(f.path, part);
          if (extra) yield extra;
        } else yield* emit(entryFile(f.path, part));
      } else if (kind === 'table' || kind === 'ids') {
        recognised++;
        yield* tableRows(f.path, bytes, ctx, kind === 'ids');
      } else if (kind === 'unknown') {
        ctx.skip({ file: f.path, position: 0 }, 'not an AlphaFold DB download (model, confidence or PAE file, proteome tar, accession_ids.csv or metadata table)');
      }
    }
    yield* emit(gather.drain());
    yield* settle(0);
  } finally {
    await pool?.close();
  }
  if (recognised === 0) throw new FormatError(`${input}: no AlphaFold DB files found (model, confidence or PAE files, proteome tars, accession_ids.csv or a metadata table)`);
}
