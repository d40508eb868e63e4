/**
 * PubChem's FTP folders over HTTPS: Compound and Substance SD files, BioAssay JSON archives, the 3D
 * conformers and the Extras tables. Each SD file or archive covers a range of ids (its name says
 * which), so `--limit N` takes the first N; the Extras and the bioactivity table cover every id,
 * so with a limit they are cut to the ranges taken before loading.
 */
import { rangeOfName, rowsInRanges, type IdRange } from '../derive.js';
import { FetchError } from '../errors.js';
import type { BulkSource, PlanContext, PlannedFile } from '../plan.js';
import { byName, chooseParts, describeSource, folder, limited } from './common.js';

/** The numbered files of a folder, in id order, the first `--limit` of them. */
async function numbered(ctx: PlanContext, path: string, pattern: RegExp, local: string): Promise<{ files: PlannedFile[]; ranges: IdRange[]; all: number }> {
  const f = await folder(ctx, 'ncbi', path);
  const names = f.entries.filter((e) => !e.folder && pattern.test(e.name)).map((e) => e.name);
  names.sort((a, b) => (rangeOfName(a)?.[0] ?? 0) - (rangeOfName(b)?.[0] ?? 0) || byName(a, b));
  if (names.length === 0) throw new FetchError(`${f.url} lists no files named like ${pattern.source}`);
  const chosen = limited(names, ctx.opts);
  return {
    files: chosen.map((n) => f.file(n, `${local}/${n}`)),
    ranges: chosen.map((n) => rangeOfName(n)).filter((r): r is IdRange => r !== undefined),
    all: names.length,
  };
}

function describe(files: PlannedFile[], taken: number, all: number, what: string): string {
  return describeSource(files, `${taken === all ? 'all' : `${taken} of`} ${all} ${what} files${files.length > taken ? ' and Extras' : ''}`);
}

const COMPOUND_PARTS = ['sdf', 'title', 'synonyms', 'sids'] as const;
const EXTRAS: Record<string, string> = { title: 'CID-Title', synonyms: 'CID-Synonym-filtered', sids: 'CID-SID' };

export const compounds: BulkSource = {
  kind: 'bulk',
  service: 'pubchem',
  dataset: 'compounds',
  summary: 'PubChem Compound: pubchem/Compound/CURRENT-Full/SDF/Compound_*.sdf.gz (MD5 checked), Extras CID-Title, CID-Synonym-filtered, CID-SID',
  accepts: ['limit', 'parts'],
  upstreams: ['ncbi'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, COMPOUND_PARTS, COMPOUND_PARTS);
    const sdf = parts.has('sdf') ? await numbered(ctx, 'pubchem/Compound/CURRENT-Full/SDF/', /^Compound_\d+_\d+\.sdf\.gz$/, 'SDF') : undefined;
    const files = [...(sdf?.files ?? [])];
    const cut = sdf && sdf.files.length < sdf.all ? sdf.ranges : undefined;
    const extras = COMPOUND_PARTS.filter((p) => p !== 'sdf' && parts.has(p));
    if (extras.length) {
      const x = await folder(ctx, 'ncbi', 'pubchem/Compound/Extras/');
      for (const p of extras) {
        const name = EXTRAS[p] as string;
        const file = x.file(`${name}.gz`, `Extras/${name}.gz`);
        files.push(cut ? { ...file, derive: rowsInRanges(`Extras/${name}`, cut) } : file);
      }
      if (cut) ctx.note(`the Extras cover every compound: they are cut to the CIDs of the ${sdf?.files.length} SD files taken before loading`);
    }
    return { files, source: sdf ? describe(files, sdf.files.length, sdf.all, 'Compound SD') : describeSource(files) };
  },
};

export const substances: BulkSource = {
  kind: 'bulk',
  service: 'pubchem',
  dataset: 'substances',
  summary: 'PubChem Substance: pubchem/Substance/CURRENT-Full/SDF/Substance_*.sdf.gz (MD5 checked)',
  accepts: ['limit'],
  upstreams: ['ncbi'],
  async plan(ctx) {
    const { files, all } = await numbered(ctx, 'pubchem/Substance/CURRENT-Full/SDF/', /^Substance_\d+_\d+\.sdf\.gz$/, 'SDF');
    return { files, source: describe(files, files.length, all, 'Substance SD') };
  },
};

const ASSAY_PARTS = ['json', 'bioactivities'] as const;

export const assays: BulkSource = {
  kind: 'bulk',
  service: 'pubchem',
  dataset: 'assays',
  summary: 'PubChem BioAssay: pubchem/Bioassay/JSON/*.zip and Bioassay/Extras/bioactivities.tsv.gz',
  accepts: ['limit', 'parts'],
  upstreams: ['ncbi'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, ASSAY_PARTS, ASSAY_PARTS);
    const json = parts.has('json') ? await numbered(ctx, 'pubchem/Bioassay/JSON/', /^\d+_\d+\.zip$/, 'JSON') : undefined;
    const files = [...(json?.files ?? [])];
    if (parts.has('bioactivities')) {
      const x = await folder(ctx, 'ncbi', 'pubchem/Bioassay/Extras/');
      const file = x.file('bioactivities.tsv.gz', 'Extras/bioactivities.tsv.gz');
      const cut = json && json.files.length < json.all ? json.ranges : undefined;
      files.push(cut ? { ...file, derive: rowsInRanges('Extras/bioactivities.tsv', cut) } : file);
      if (cut) ctx.note(`bioactivities.tsv covers every assay: it is cut to the AIDs of the ${json?.files.length} archives taken before loading`);
    }
    return { files, source: json ? describe(files, json.files.length, json.all, 'BioAssay JSON') : describeSource(files) };
  },
};

export const conformers: BulkSource = {
  kind: 'bulk',
  service: 'pubchem',
  dataset: 'conformers',
  summary: 'PubChem 3D: pubchem/Compound_3D/01_conf_per_cmpd/SDF/*.sdf.gz, one conformer per compound',
  accepts: ['limit'],
  upstreams: ['ncbi'],
  async plan(ctx) {
    const { files, all } = await numbered(ctx, 'pubchem/Compound_3D/01_conf_per_cmpd/SDF/', /^\d+_\d+\.sdf\.gz$/, 'SDF');
    return { files, source: describe(files, files.length, all, '3D conformer SD') };
  },
};
