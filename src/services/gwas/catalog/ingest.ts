/**
 * Reads the catalog's bulk downloads: the associations TSV (v1.0.2, with ontology annotations and
 * study accessions), the studies TSV and the ancestry TSV, each plain, gzipped or zipped, given as
 * one file or a folder; and, where given, the unpublished studies and ancestries (same columns,
 * `not yet curated` where a paper's details would be) and the trait mappings (each EFO term's parent
 * category), which API v2 serves. Each table is recognised by its header, not its name. Streams row
 * by row. EFO's own `efo.obo` (known by its `.obo` name), where given, comes last: its terms and
 * `is_a` links give `show_child_trait` the whole EFO hierarchy.
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { ByteProgress, listInputs } from '../../../core/ingest/inputs.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { fileSource, isTable, isZip, tsvHeader, tsvRows, zipTables, type TsvRow, type TsvSource } from '../tsv.js';
import { isObo, oboTerms } from './efo.js';
import { ancestryRecord, associationRecord, studyRecord, type CatalogRecord } from './records.js';
import { isUnpublishedAncestry, isUnpublishedStudy, traitMappingRecord, unpublishedAncestryRecord, unpublishedStudyRecord } from './unpublished.js';

type Kind = 'study' | 'ancestry' | 'association' | 'traitMapping';

const EXPECTED =
  'the GWAS Catalog downloads: the associations TSV (v1.0.2 or later, with STUDY ACCESSION), the studies TSV and the ancestry TSV (plain, .gz or .zip); optionally the unpublished studies and ancestries, the trait mappings and the EFO ontology (efo.obo)';

/** Which table a header belongs to. */
export function kindOf(header: readonly string[]): Kind | undefined {
  const h = new Set(header.map((x) => x.toUpperCase()));
  if (h.has('STRONGEST SNP-RISK ALLELE') && h.has('SNPS') && h.has('STUDY ACCESSION')) return 'association';
  if (h.has('BROAD ANCESTRAL CATEGORY') && h.has('STUDY ACCESSION')) return 'ancestry';
  if (h.has('STUDY ACCESSION') && h.has('DISEASE/TRAIT') && !h.has('SNPS')) return 'study';
  if (h.has('EFO URI') && h.has('PARENT URI')) return 'traitMapping';
  return undefined;
}

// Studies first, then their ancestries, then associations: the order a reader of the load expects.
const ORDER: Record<Kind, number> = { study: 0, ancestry: 1, association: 2, traitMapping: 3 };

/** The release a download names, e.g. `gwas_catalog_v1.0.2-associations_e113_r2025-01-30.tsv`. */
function releaseOf(label: string): string | undefined {
  return /_r(\d{4}-\d{2}-\d{2})/.exec(label)?.[1];
}

export async function* readCatalog(input: string, ctx: ReadContext): AsyncGenerator<Sourced<CatalogRecord>> {
  const files = await listInputs(input);
  const bytes = new ByteProgress(
    files.reduce((a, f) => a + f.size, 0),
    (f) => ctx.progress(f),
  );
  const sources: TsvSource[] = [];
  for (const f of files) {
    if (isZip(f.path)) sources.push(...(await zipTables(f.path, bytes, (n) => isTable(n) || isObo(n))));
    else if (isTable(f.path) || isObo(f.path)) sources.push(fileSource(f.path, bytes));
  }
  const tables: { source: TsvSource; kind: Kind }[] = [];
  const ontologies = sources.filter((s) => isObo(s.label));
  for (const source of sources) {
    if (isObo(source.label)) continue;
    const kind = kindOf(await tsvHeader(source));
    if (kind) tables.push({ source, kind });
    else ctx.skip({ file: source.label, position: 'header' }, `not a table this service reads; expected ${EXPECTED}`);
  }
  if (tables.length === 0 && ontologies.length === 0) throw new FormatError(`${input}: no catalog tables found; expected ${EXPECTED}`);
  tables.sort((a, b) => ORDER[a.kind] - ORDER[b.kind]);

  let nextId = 0;
  for (const { source, kind } of tables) {
    const release = releaseOf(source.label);
    if (release) ctx.release(release);
    const stream = await source.open();
    try {
      for await (const row of tsvRows(stream)) {
        if (ctx.signal.aborted) return;
        const rec = toRecord(kind, row, () => ++nextId);
        const place = { file: source.label, position: `line ${row.line}` };
        if (typeof rec === 'string') ctx.skip(place, rec);
        else yield { value: rec, place };
      }
    } catch (err) {
      if (err instanceof FormatError) throw err;
      throw new FormatError(`${source.label}: cannot be read (${(err as Error).message})`);
    } finally {
      stream.destroy();
    }
  }
  for (const source of ontologies) {
    if (ctx.signal.aborted) return;
    yield* readOntology(source, ctx);
  }
}

/** EFO's terms out of an OBO file; a malformed stanza is reported at its line and left out. */
async function* readOntology(source: TsvSource, ctx: ReadContext): AsyncGenerator<Sourced<CatalogRecord>> {
  const stream = await source.open();
  let terms = 0;
  try {
    for await (const item of oboTerms(stream)) {
      if (ctx.signal.aborted) return;
      const place = { file: source.label, position: `line ${item.line}` };
      if ('problem' in item) ctx.skip(place, item.problem);
      else {
        terms++;
        yield { value: item.term, place };
      }
    }
  } catch (err) {
    throw new FormatError(`${source.label}: cannot be read (${(err as Error).message})`);
  } finally {
    stream.destroy();
  }
  if (terms === 0) ctx.skip({ file: source.label, position: 'header' }, 'no live [Term] stanza: not an OBO ontology this service reads');
}

/**
 * Association ids: the bulk files carry none, so they are numbered in file order from 1 (an
 * `ASSOCIATION ID` column, where a prepared file has one, is used instead).
 */
function toRecord(kind: Kind, row: TsvRow, next: () => number): CatalogRecord | string {
  if (kind === 'study') return isUnpublishedStudy(row) ? unpublishedStudyRecord(row) : studyRecord(row);
  if (kind === 'ancestry') return isUnpublishedAncestry(row) ? unpublishedAncestryRecord(row) : ancestryRecord(row);
  if (kind === 'traitMapping') return traitMappingRecord(row);
  const given = row.get('ASSOCIATION ID') || row.get('ASSOCIATION_ID');
  if (given) {
    if (!/^\d{1,15}$/.test(given)) return `malformed ASSOCIATION ID "${given}"`;
    return associationRecord(row, Number(given));
  }
  const rec = associationRecord(row, next());
  return typeof rec === 'string' ? rec : { ...rec, numbered: true };
}
