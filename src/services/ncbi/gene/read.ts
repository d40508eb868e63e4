/**
 * Streams NCBI Gene's bulk files out of a file or a folder: gene_info (any of its per-taxon or
 * all-taxa forms, gzipped or not) and, when present, gene2refseq, gene2pubmed, gene2go, ClinVar's
 * gene_condition_source_id, the taxonomy's names.dmp and the RefSeq release catalog (transcript
 * lengths). Files are recognised by their header line (names.dmp and the catalog by their names). gene_info is read first: the other files are large and cover every
 * taxon, so their lines for taxa not loaded are passed over.
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, baseName, lines, listInputs, openInput, peek, type InputFile } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { headerColumns, tsvRows } from '../tsv.js';
import {
  CONDITION_COLUMNS,
  GENE_INFO_COLUMNS,
  GO_COLUMNS,
  PUBMED_COLUMNS,
  REFSEQ_COLUMNS,
  isoDate,
  parseCondition,
  parseGeneInfo,
  parseGo,
  parsePubmed,
  parseCatalogLine,
  parseRefseq,
  type GeneRecord,
} from './records.js';

type Kind = 'gene_info' | 'names' | 'catalog' | 'gene2refseq' | 'gene2pubmed' | 'gene2go' | 'condition';
const ORDER: Kind[] = ['gene_info', 'names', 'catalog', 'gene2refseq', 'gene2pubmed', 'gene2go', 'condition'];
const EXPECTED = 'NCBI Gene bulk files: gene_info (required), gene2refseq, gene2pubmed, gene2go, gene_condition_source_id, names.dmp, RefSeq-release<N>.catalog; each may be gzipped';
const KEPT_NAME_CLASSES = new Set(['scientific name', 'genbank common name', 'common name']);

async function kindOf(f: InputFile): Promise<Kind | undefined> {
  const name = baseName(f.path);
  if (name === 'names.dmp') return 'names';
  if (/^refseq-release\d*\.catalog$/.test(name)) return 'catalog';
  const first = (await peek(f.path, 2048)).split('\n')[0] ?? '';
  const cols = headerColumns(first.replace(/\r$/, ''));
  if (!cols) return undefined;
  const has = (need: readonly string[]) => need.every((c) => cols.includes(c));
  if (has(GENE_INFO_COLUMNS)) return 'gene_info';
  if (has(REFSEQ_COLUMNS)) return 'gene2refseq';
  if (has(GO_COLUMNS)) return 'gene2go';
  if (has(PUBMED_COLUMNS)) return 'gene2pubmed';
  if (has(CONDITION_COLUMNS)) return 'condition';
  return undefined;
}

export async function* readGenes(input: string, ctx: ReadContext): AsyncGenerator<Sourced<GeneRecord>> {
  const files = await listInputs(input);
  const known: { f: InputFile; kind: Kind }[] = [];
  for (const f of files) {
    const kind = await kindOf(f);
    if (kind) known.push({ f, kind });
    else if (files.length === 1 && files[0]?.path === input) throw new FormatError(`${f.path}: not a gene_info file; expected ${EXPECTED}`);
  }
  if (!known.some((k) => k.kind === 'gene_info')) throw new FormatError(`${input}: no gene_info file found; expected ${EXPECTED}`);
  known.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  const bytes = new ByteProgress(
    known.reduce((a, k) => a + k.f.size, 0),
    (x) => ctx.progress(x),
  );

  const taxa = new Set<number>();
  let release = '';
  let refSeq = 0;
  for (const { f, kind } of known) {
    const at = (no: number) => ({ file: f.path, position: `line ${no}` });
    if (kind === 'names') {
      yield* readNames(f.path, taxa, bytes, ctx);
      continue;
    }
    if (kind === 'catalog') {
      yield* readCatalog(f.path, taxa, bytes, ctx);
      continue;
    }
    if (kind === 'gene_info') {
      for await (const row of tsvRows(f.path, GENE_INFO_COLUMNS, bytes, ctx.signal)) {
        const g = parseGeneInfo(row);
        if (typeof g === 'string') {
          ctx.skip(at(row.no), g);
          continue;
        }
        taxa.add(g.taxId);
        if (g.modDate > release) release = g.modDate;
        yield { value: { kind: 'gene', gene: g }, place: at(row.no) };
      }
      continue;
    }
    const required = kind === 'gene2refseq' ? REFSEQ_COLUMNS : kind === 'gene2pubmed' ? PUBMED_COLUMNS : kind === 'gene2go' ? GO_COLUMNS : CONDITION_COLUMNS;
    for await (const row of tsvRows(f.path, required, bytes, ctx.signal)) {
      const place = at(row.no);
      if (kind === 'condition') {
        const c = parseCondition(row);
        if (typeof c === 'string') ctx.skip(place, c);
        else yield { value: { kind: 'condition', row: c, seq: ++refSeq }, place };
        continue;
      }
      // Lines of taxa that were not loaded are not errors: these files cover every organism.
      const tax = row.get('tax_id');
      if (tax === undefined || !taxa.has(Number(tax))) continue;
      if (kind === 'gene2refseq') {
        const r = parseRefseq(row);
        if (typeof r === 'string') ctx.skip(place, r);
        else yield { value: { kind: 'refseq', row: r, seq: ++refSeq }, place };
      } else if (kind === 'gene2pubmed') {
        const p = parsePubmed(row);
        if (typeof p === 'string') ctx.skip(place, p);
        else yield { value: { kind: 'pubmed', geneId: p.geneId, pmid: p.pmid }, place };
      } else {
        const g = parseGo(row);
        if (typeof g === 'string') ctx.skip(place, g);
        else yield { value: { kind: 'go', row: g, seq: ++refSeq }, place };
      }
    }
  }
  const iso = isoDate(release);
  if (iso) ctx.release(iso);
}

/** Taxonomy names (`tax_id | name | unique name | class |`) of the loaded taxa. */
async function* readNames(path: string, taxa: Set<number>, bytes: ByteProgress, ctx: ReadContext): AsyncGenerator<Sourced<GeneRecord>> {
  for await (const { line, no } of lines(openInput(path, bytes))) {
    if (ctx.signal.aborted) return;
    const parts = line.split('\t|\t');
    if (parts.length < 4) {
      ctx.skip({ file: path, position: `line ${no}` }, 'not a names.dmp line (tax_id | name | unique name | class |)');
      continue;
    }
    const taxId = Number(parts[0]);
    const cls = (parts[3] ?? '').replace(/\t\|$/, '');
    if (!taxa.has(taxId) || !KEPT_NAME_CLASSES.has(cls)) continue;
    yield { value: { kind: 'taxname', taxId, name: parts[1] as string, nameClass: cls }, place: { file: path, position: `line ${no}` } };
  }
}

/** RNA lengths from the RefSeq release catalog, for the loaded taxa (it lists every RefSeq sequence). */
async function* readCatalog(path: string, taxa: Set<number>, bytes: ByteProgress, ctx: ReadContext): AsyncGenerator<Sourced<GeneRecord>> {
  for await (const { line, no } of lines(openInput(path, bytes))) {
    if (ctx.signal.aborted) return;
    if (!line.trim()) continue;
    const place = { file: path, position: `line ${no}` };
    const c = parseCatalogLine(line.replace(/\r$/, ''));
    if (typeof c === 'string') {
      // The catalog has no header, so a file of another kind is told by its first line.
      if (no === 1) throw new FormatError(`${path}: not a RefSeq release catalog (${c})`);
      ctx.skip(place, c);
    } else if (c && taxa.has(c.taxId)) yield { value: { kind: 'seqlen', accession: c.accession, length: c.length }, place };
  }
}
