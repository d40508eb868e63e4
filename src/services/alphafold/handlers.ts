/**
 * The operations, free of HTTP: prediction records by accession, the 3D-Beacons summary, and the
 * lookup of a file by its name.
 */
import { tableSet, type TableSet } from '../../core/ingest/dataset.js';
import type { ServiceContext } from '../types.js';
import { crc64, md5 } from './checksum.js';
import { afErrors, invalidParameter } from './errors.js';
import { AM_TABLES, type ExtraName } from './extra-files.js';
import type { Meta } from './metadata.js';
import { DATASET, PREFIX, SERVICE, extraFileKey, extraFilesOf, modelOf, modelsOf, type ModelRow } from './store.js';

/** UniProt's accession format, with an optional isoform number. */
export const ACCESSION_PATTERN = '^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})(-[0-9]+)?$';
const ACCESSION = new RegExp(ACCESSION_PATTERN);

export async function activeTables(ctx: ServiceContext): Promise<TableSet | undefined> {
  const gen = await ctx.generations.active(SERVICE, DATASET);
  return gen === undefined ? undefined : tableSet(PREFIX, gen);
}

/** The accession of a path, upper-cased (the database's lookups ignore case), or a 422. */
export function accessionParam(raw: string, name = 'qualifier'): string {
  const acc = raw.trim().toUpperCase();
  if (!ACCESSION.test(acc)) throw invalidParameter(name, raw, ACCESSION_PATTERN, `String should match pattern '${ACCESSION_PATTERN}'`);
  return acc;
}

export interface Entry {
  latest: ModelRow;
  versions: number[];
  meta: Meta;
  /** The optional files the load carried for the entry (`file:msa_v6`, `file:hg38`, ...). */
  files: ReadonlySet<string>;
}

const isoformOf = (acc: string) => Number(/-(\d+)$/.exec(acc)?.[1] ?? 0);

/** The entries of an accession (a canonical one brings its isoforms), each at its latest loaded version. */
export async function entriesOf(ctx: ServiceContext, acc: string): Promise<Entry[]> {
  const t = await activeTables(ctx);
  if (!t) return [];
  const rows = await modelsOf(ctx.db, t, acc, !acc.includes('-'));
  const byEntry = new Map<string, ModelRow[]>();
  for (const r of rows) byEntry.set(r.entry_id, [...(byEntry.get(r.entry_id) ?? []), r]);
  const files = byEntry.size ? await extraFilesOf(ctx.db, t, [...byEntry.keys()]) : new Map<string, Set<string>>();
  const out: Entry[] = [];
  for (const [entryId, versions] of byEntry) {
    versions.sort((a, b) => a.version - b.version);
    const latest = versions[versions.length - 1] as ModelRow;
    out.push({ latest, versions: versions.map((v) => v.version), meta: latest.meta, files: files.get(entryId) ?? new Set() });
  }
  // Canonical first, then isoforms by number; fragments in order.
  out.sort((a, b) => isoformOf(a.latest.acc) - isoformOf(b.latest.acc) || a.latest.fragment - b.latest.fragment);
  return out;
}

const dateTime = (d: string | null | undefined): string | null => {
  if (!d) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T00:00:00Z` : d;
};

function pick<T>(meta: Meta, key: string, fallback: T): T {
  const v = meta[key];
  return v === undefined || v === null ? fallback : (v as T);
}

export function fileUrls(base: string, entryId: string, v: number) {
  const f = `${base}/files/${entryId}`;
  return {
    bcifUrl: `${f}-model_v${v}.bcif`,
    cifUrl: `${f}-model_v${v}.cif`,
    pdbUrl: `${f}-model_v${v}.pdb`,
    paeImageUrl: `${f}-predicted_aligned_error_v${v}.png`,
    msaUrl: `${base}/files/msa/${entryId}-msa_v${v}.a3m`,
    plddtDocUrl: `${f}-confidence_v${v}.json`,
    paeDocUrl: `${f}-predicted_aligned_error_v${v}.json`,
    amAnnotationsUrl: `${f}-${AM_TABLES[0]}.csv`,
    amAnnotationsHg19Url: `${f}-${AM_TABLES[1]}.csv`,
    amAnnotationsHg38Url: `${f}-${AM_TABLES[2]}.csv`,
  };
}

/**
 * Whether a record names the AlphaMissense files: when the load carried any of them, and otherwise
 * for the canonical entry of a human protein. The recorded answer names them on the canonical
 * record of a human protein and leaves the keys out (not null) on its isoform; AlphaMissense covers
 * the human canonical proteins only. A URL named without its file loaded answers 404.
 */
function namesAlphaMissense(e: Entry, taxId: number | null): boolean {
  if (AM_TABLES.some((k) => e.files.has(`file:${k}`))) return true;
  return taxId === 9606 && !e.latest.acc.includes('-');
}

/**
 * Whether the entry is reviewed (Swiss-Prot), when no metadata says so: UniProtKB/TrEMBL entry
 * names are the accession and the species (`A0A024R161_HUMAN`), Swiss-Prot's a mnemonic
 * (`HBA_HUMAN`). Unknown (null) without an entry name.
 */
function reviewedByName(uniprotId: string | null, acc: string): boolean | null {
  if (!uniprotId) return null;
  return !uniprotId.toUpperCase().startsWith(`${acc.replace(/-\d+$/, '')}_`);
}

/**
 * One record in the order of the current database's answers: its own fields first, then the
 * fields of earlier versions that it still sends (entryId, uniprotSequence, ...). Metadata loaded
 * from the bulk table wins over what the model file says.
 */
export function predictionRecord(e: Entry, base: string): Record<string, unknown> {
  const { latest: r, meta } = e;
  const d = r.doc;
  const v = r.version;
  const allVersions = [...new Set([...pick<number[]>(meta, 'allVersions', []), ...e.versions])].sort((a, b) => a - b);
  const sequence = pick(meta, 'uniprotSequence', d.sequence);
  const start = pick(meta, 'uniprotStart', d.uniprotStart);
  const end = pick(meta, 'uniprotEnd', d.uniprotEnd);
  const uniprotId = pick<string | null>(meta, 'uniprotId', d.uniprotId);
  const taxId = pick<number | null>(meta, 'taxId', d.taxId);
  const reviewed = pick<boolean | null>(meta, 'isReviewed', reviewedByName(uniprotId, r.acc));
  // Whether the protein is in a reference proteome is not in the model file: null unless the metadata says.
  const reference = pick<boolean | null>(meta, 'isReferenceProteome', null);
  const urls = fileUrls(base, r.entry_id, v);
  const am = namesAlphaMissense(e, taxId) ? { amAnnotationsUrl: urls.amAnnotationsUrl, amAnnotationsHg19Url: urls.amAnnotationsHg19Url, amAnnotationsHg38Url: urls.amAnnotationsHg38Url } : {};
  return {
    toolUsed: 'AlphaFold Monomer v2.0 pipeline',
    providerId: 'GDM',
    entityType: 'protein',
    isUniProt: true,
    modelEntityId: r.entry_id,
    modelCreatedDate: dateTime(pick<string | null>(meta, 'modelCreatedDate', d.created)),
    sequenceVersionDate: dateTime(pick<string | null>(meta, 'sequenceVersionDate', d.sequenceVersionDate)),
    globalMetricValue: pick(meta, 'globalMetricValue', d.summary.globalMetricValue),
    fractionPlddtVeryLow: pick(meta, 'fractionPlddtVeryLow', d.summary.fractionPlddtVeryLow),
    fractionPlddtLow: pick(meta, 'fractionPlddtLow', d.summary.fractionPlddtLow),
    fractionPlddtConfident: pick(meta, 'fractionPlddtConfident', d.summary.fractionPlddtConfident),
    fractionPlddtVeryHigh: pick(meta, 'fractionPlddtVeryHigh', d.summary.fractionPlddtVeryHigh),
    latestVersion: v,
    allVersions,
    sequence,
    sequenceStart: start,
    sequenceEnd: end,
    // Version 6 records carry the MD5 of the sequence; earlier ones UniProt's CRC64.
    sequenceChecksum: pick(meta, 'sequenceChecksum', sequence === d.sequence ? (v >= 6 ? d.md5 : d.crc64) : v >= 6 ? md5(sequence) : crc64(sequence)),
    isUniProtReviewed: reviewed,
    gene: pick<string | null>(meta, 'gene', d.gene),
    uniprotAccession: pick(meta, 'uniprotAccession', r.acc),
    uniprotId,
    uniprotDescription: pick<string | null>(meta, 'uniprotDescription', d.description),
    taxId,
    organismScientificName: pick<string | null>(meta, 'organismScientificName', d.organism),
    isUniProtReferenceProteome: reference,
    chainId: 'A',
    bcifUrl: urls.bcifUrl,
    cifUrl: urls.cifUrl,
    pdbUrl: urls.pdbUrl,
    paeImageUrl: urls.paeImageUrl,
    msaUrl: urls.msaUrl,
    plddtDocUrl: urls.plddtDocUrl,
    paeDocUrl: urls.paeDocUrl,
    ...am,
    isComplex: false,
    entryId: r.entry_id,
    uniprotSequence: sequence,
    uniprotStart: start,
    uniprotEnd: end,
    isReferenceProteome: reference,
    isReviewed: reviewed,
  };
}

export async function predictions(ctx: ServiceContext, qualifier: string, base: string): Promise<Record<string, unknown>[]> {
  const acc = accessionParam(qualifier);
  const entries = await entriesOf(ctx, acc);
  if (entries.length === 0) throw afErrors.notFound();
  return entries.map((e) => predictionRecord(e, base));
}

/**
 * Answers of recent lookups, by generation, accession and base URL: a load switches generation, so
 * an answer is never served from data that is no longer active. Most clients ask for the same few
 * proteins again and again (a notebook re-run, an agent's retries).
 */
const recentByDb = new WeakMap<object, Map<string, string>>();
/** How many answers are kept (BIOMIRROR_ALPHAFOLD_ANSWERS; 0 turns the cache off). */
const ANSWERS = process.env.BIOMIRROR_ALPHAFOLD_ANSWERS;
const RECENT_MAX = ANSWERS !== undefined && /^\d+$/.test(ANSWERS) ? Number(ANSWERS) : 5000;

export async function predictionsJson(ctx: ServiceContext, qualifier: string, base: string): Promise<string> {
  const gen = await ctx.generations.active(SERVICE, DATASET);
  const key = `${gen ?? 0}\0${qualifier}\0${base}`;
  let recent = recentByDb.get(ctx.db);
  if (!recent) {
    recent = new Map();
    recentByDb.set(ctx.db, recent);
  }
  const hit = recent.get(key);
  if (hit !== undefined) {
    // Most recently used last, so the oldest is dropped first.
    recent.delete(key);
    recent.set(key, hit);
    return hit;
  }
  const body = JSON.stringify(await predictions(ctx, qualifier, base));
  if (gen !== undefined && RECENT_MAX > 0) {
    recent.set(key, body);
    if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
  }
  return body;
}

export type FileKind = 'model' | 'confidence' | 'predicted_aligned_error';
export type FileFormat = 'cif' | 'bcif' | 'pdb' | 'json' | 'png';

export interface FileName {
  entryId: string;
  kind: FileKind;
  version: number;
  format: FileFormat;
}

const FILE_NAME = /^(AF-[A-Za-z0-9-]+?)-(model|confidence|predicted_aligned_error)_v(\d{1,4})\.(cif|bcif|pdb|json|png)$/;
const FORMATS: Record<FileKind, FileFormat[]> = { model: ['cif', 'bcif', 'pdb'], confidence: ['json'], predicted_aligned_error: ['json', 'png'] };

/** A file name of the database's file host, or undefined when it names no file it could have. */
export function parseFileName(name: string): FileName | undefined {
  const m = FILE_NAME.exec(name);
  if (!m) return undefined;
  const [, entryId, kind, v, format] = m as unknown as [string, string, FileKind, string, FileFormat];
  if (!FORMATS[kind].includes(format)) return undefined;
  return { entryId, kind, version: Number(v), format };
}

/** The file-store key of an optional file (MSA, AlphaMissense table) the load carried, or a 404. */
export async function extraFileOf(ctx: ServiceContext, x: ExtraName): Promise<string> {
  const t = await activeTables(ctx);
  const key = t ? await extraFileKey(ctx.db, t, x.entryId, x.source) : undefined;
  if (!key) throw afErrors.notFound();
  return key;
}

/** The loaded model of a file name (that exact version), or a 404 as the file host answers. */
export async function modelOfFile(ctx: ServiceContext, f: FileName): Promise<ModelRow> {
  const t = await activeTables(ctx);
  const row = t ? await modelOf(ctx.db, t, f.entryId, f.version) : undefined;
  if (!row) throw afErrors.notFound();
  return row;
}
