/**
 * The GWAS Catalog's release folder (`pub/databases/gwas/releases/latest/` on EBI's FTP site), with
 * EFO's `efo.obo` from EFO's latest release (the catalog's downloads carry only each trait's parent
 * category, EFO the whole hierarchy), and the summary statistics, one folder per study below
 * `pub/databases/gwas/summary_statistics/`.
 */
import { FetchError, UsageError } from '../errors.js';
import type { BulkSource, PlanContext, PlannedFile } from '../plan.js';
import { upstreamUrl } from '../upstreams.js';
import { chooseParts, describeSource, folder, type Folder } from './common.js';

/** The first name matching each pattern in turn: the release names its files differently from year to year. */
function prefer(f: Folder, patterns: RegExp[], what: string): string {
  const names = f.entries.filter((e) => !e.folder).map((e) => e.name);
  for (const p of patterns) {
    const hit = names.filter((n) => p.test(n)).sort()[0];
    if (hit) return hit;
  }
  throw new FetchError(`${f.url} lists no ${what} file (looked for ${patterns.map((p) => p.source).join(', ')})`);
}

/** The first name matching a pattern, or undefined: for files a release may not have. */
function optional(f: Folder, pattern: RegExp): string | undefined {
  return f.entries
    .filter((e) => !e.folder && pattern.test(e.name))
    .map((e) => e.name)
    .sort()[0];
}

const CATALOG_PARTS = ['associations', 'studies', 'ancestry', 'unpublished', 'trait-mappings', 'efo'] as const;
/** Files the catalog's API v2 also answers from (unpublished studies, trait categories). */
const V2_PARTS: Record<string, [RegExp, string][]> = {
  unpublished: [
    [/unpublished-studies.*\.(zip|tsv)$/, 'unpublished studies'],
    [/unpublished-ancestr.*\.(zip|tsv)$/, 'unpublished ancestries'],
  ],
  'trait-mappings': [[/trait-mappings.*\.(zip|tsv)$/, 'trait mappings']],
};

export const catalog: BulkSource = {
  kind: 'bulk',
  service: 'gwas',
  dataset: 'catalog',
  summary:
    'GWAS Catalog: pub/databases/gwas/releases/latest/ associations with ontology annotations, studies, ancestry; unpublished studies and trait mappings where the release has them; efo.obo of the latest EFO release',
  accepts: ['parts'],
  upstreams: ['ebi', 'efo'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, CATALOG_PARTS, CATALOG_PARTS);
    const f = await folder(ctx, 'ebi', 'pub/databases/gwas/releases/latest/');
    const names: string[] = [];
    // The zipped form first (a fraction of the size); the reader reads tables inside zips.
    if (parts.has('associations')) names.push(prefer(f, [/associations_ontology-annotated.*\.zip$/, /associations_ontology-annotated.*\.tsv$/], 'associations (with ontology annotations)'));
    if (parts.has('studies')) names.push(prefer(f, [/studies.*ontology-annotated.*\.(zip|tsv)$/, /download-studies.*\.(zip|tsv|txt)$/, /^gwas-catalog-studies.*\.(zip|tsv)$/], 'studies'));
    if (parts.has('ancestry')) names.push(prefer(f, [/download-ancestr.*\.(zip|tsv|txt)$/, /^gwas-catalog-ancestr.*\.(zip|tsv)$/], 'ancestry'));
    // Taken by default when the release lists them; asked for by name, their absence is an error.
    const asked = new Set(ctx.opts.parts ?? []);
    for (const [part, wanted] of Object.entries(V2_PARTS)) {
      if (!parts.has(part)) continue;
      for (const [pattern, what] of wanted) {
        const name = asked.has(part) ? prefer(f, [pattern], what) : optional(f, pattern);
        if (name) names.push(name);
      }
    }
    const files = names.map((n) => f.file(n));
    // A fixed address (GitHub's latest-release link), not a listed folder: nothing to choose from.
    const efo = parts.has('efo') ? upstreamUrl(ctx.upstreams, 'efo', 'efo.obo') : undefined;
    if (efo) files.push({ url: efo, path: 'efo.obo' });
    return { files, source: describeSource(files, [...names, ...(efo ? [efo] : [])].join(', ')) };
  },
};

const STUDY = /^GCST(\d{6,})$/;

/** The study's folder: studies are filed by thousands, `GCST90026001-GCST90027000/GCST90026612/`. */
export function studyFolder(acc: string): string {
  const m = STUDY.exec(acc);
  if (!m) throw new UsageError(`--ids ${acc}: not a study accession (GCST followed by at least six digits)`);
  const digits = (m[1] as string).length;
  const n = Number(m[1]);
  const lo = Math.floor((n - 1) / 1000) * 1000 + 1;
  const pad = (v: number) => `GCST${String(v).padStart(digits, '0')}`;
  return `pub/databases/gwas/summary_statistics/${pad(lo)}-${pad(lo + 999)}/${acc}/`;
}

/** The metadata file of a data file as the folder lists it: `<file>-meta.yaml`, also named without `.gz`. */
function metaOf(f: Folder, name: string): string | undefined {
  return [`${name}-meta.yaml`, `${name.replace(/\.gz$/, '')}-meta.yaml`].find((m) => f.has(m));
}

/** A study's GWAS-SSF file and its metadata: the submitted file if it is one, else the harmonised one. */
async function studyFiles(ctx: PlanContext, acc: string): Promise<PlannedFile[]> {
  const top = await folder(ctx, 'ebi', studyFolder(acc));
  const pick = (f: Folder, pattern: RegExp): PlannedFile[] | undefined => {
    const name = f.entries.filter((e) => !e.folder && pattern.test(e.name) && metaOf(f, e.name)).map((e) => e.name)[0];
    const meta = name && metaOf(f, name);
    return name && meta ? [f.file(name, `${acc}/${name}`), f.file(meta, `${acc}/${meta}`)] : undefined;
  };
  const own = pick(top, /\.tsv(\.gz)?$/);
  if (own) return own;
  if (top.entries.some((e) => e.folder && e.name === 'harmonised')) {
    const harmonised = pick(await folder(ctx, 'ebi', `${studyFolder(acc)}harmonised/`), /\.h\.tsv(\.gz)?$/);
    if (harmonised) return harmonised;
  }
  throw new FetchError(`${top.url}: no summary statistics in GWAS-SSF (a .tsv.gz with its -meta.yaml) for ${acc}; studies deposited in older formats are not read`);
}

export const sumstats: BulkSource = {
  kind: 'bulk',
  service: 'gwas',
  dataset: 'sumstats',
  summary: 'GWAS summary statistics: pub/databases/gwas/summary_statistics/<range>/<GCST>/ GWAS-SSF files with their metadata, for the studies named by --ids',
  accepts: ['ids'],
  upstreams: ['ebi'],
  async plan(ctx) {
    const ids = ctx.opts.ids ?? [];
    if (!ids.length) throw new UsageError('gwas sumstats: name the studies with --ids GCST...,GCST... (all summary statistics together are many terabytes)');
    const files: PlannedFile[] = [];
    for (const acc of ids) files.push(...(await studyFiles(ctx, acc.toUpperCase())));
    return { files, source: describeSource(files, `${ids.length} stud${ids.length === 1 ? 'y' : 'ies'}: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''}`) };
  },
};
