/**
 * AlphaFold DB: whole proteomes as the tar shards of its FTP release folder
 * (`pub/databases/alphafold/latest/`, EBI), or single entries by UniProt accession, whose file
 * addresses and metadata the prediction API gives (`/api/prediction/{accession}`). The API's
 * records are kept as the metadata table (JSON lines with the table's column names). An entry's
 * optional files that its record names (the MSA, `msaUrl`; the AlphaMissense tables,
 * `amAnnotationsUrl`, `amAnnotationsHg19Url`, `amAnnotationsHg38Url`) are taken too, each passed
 * over when the file host lacks it.
 */
import { FetchError, UsageError } from '../errors.js';
import type { BulkSource, PlanContext, PlannedFile } from '../plan.js';
import { rebase, upstreamUrl } from '../upstreams.js';
import { describeSource, folder, limited } from './common.js';

const PROTEOME = /^UP\d{9}$/;
const ACCESSION = /^[A-Z0-9]{6,10}$/;
const SHARD = /^(UP\d{9})_\d+_[A-Z0-9]+_v(\d+)\.tar$/;

type Prediction = Record<string, unknown> & { entryId?: unknown; uniprotAccession?: unknown; cifUrl?: unknown; plddtDocUrl?: unknown; paeDocUrl?: unknown };

/** The record's links to files a load may carry (version 6 records name them). */
export const OPTIONAL_LINKS = ['msaUrl', 'amAnnotationsUrl', 'amAnnotationsHg19Url', 'amAnnotationsHg38Url'] as const;

/** The optional files a prediction record names, as planned downloads (404 passed over). */
export function optionalFiles(ctx: Pick<PlanContext, 'upstreams'>, r: Prediction): PlannedFile[] {
  const out: PlannedFile[] = [];
  for (const key of OPTIONAL_LINKS) {
    const link = r[key];
    if (typeof link !== 'string' || link === '') continue;
    let name: string;
    try {
      name = new URL(link).pathname.split('/').pop() as string;
    } catch {
      continue;
    }
    if (!/^AF-[A-Za-z0-9-]+?-(msa_v\d+\.a3m|aa-substitutions\.csv|hg19\.csv|hg38\.csv)$/.test(name)) continue;
    out.push({ url: rebase(ctx.upstreams, 'alphafold', link), path: `entries/${name}`, optional: true });
  }
  return out;
}

async function entryFiles(ctx: PlanContext, acc: string): Promise<{ files: PlannedFile[]; meta: string[]; version: number }> {
  const url = upstreamUrl(ctx.upstreams, 'alphafold', `api/prediction/${acc}`);
  let answer: unknown;
  try {
    answer = await ctx.http.json(url);
  } catch (err) {
    if (err instanceof FetchError && /answered 404/.test(err.message)) throw new FetchError(`AlphaFold DB has no prediction for ${acc} (${url} answered 404)`);
    throw err;
  }
  const records = (Array.isArray(answer) ? answer : [answer]) as Prediction[];
  // The answer lists the accession's isoforms too; the canonical entry is the accession's own.
  const own = records.filter((r) => typeof r.uniprotAccession === 'string' && r.uniprotAccession.toUpperCase() === acc);
  if (!own.length) throw new FetchError(`${url}: no prediction of ${acc} in the answer`);
  const files: PlannedFile[] = [];
  const meta: string[] = [];
  let version = 0;
  for (const r of own) {
    for (const key of ['cifUrl', 'plddtDocUrl', 'paeDocUrl'] as const) {
      const link = r[key];
      if (typeof link !== 'string') throw new FetchError(`${url}: the record of ${String(r.entryId)} has no ${key}`);
      const name = new URL(link).pathname.split('/').pop() as string;
      files.push({ url: rebase(ctx.upstreams, 'alphafold', link), path: `entries/${name}` });
      version = Math.max(version, Number(/_v(\d+)\./.exec(name)?.[1] ?? 0));
    }
    files.push(...optionalFiles(ctx, r));
    // entryId first: the reader tells a metadata table by its first line's start.
    const { entryId, ...rest } = r;
    meta.push(JSON.stringify({ entryId, ...rest }));
  }
  return { files, meta, version };
}

export const models: BulkSource = {
  kind: 'bulk',
  service: 'alphafold',
  dataset: 'models',
  summary: 'AlphaFold DB: proteome tars of pub/databases/alphafold/latest/ (--ids UP..., or all of them, --limit N), or entries by UniProt accession (--ids P69905,...) through /api/prediction',
  accepts: ['ids', 'limit'],
  upstreams: ['ebi', 'alphafold'],
  async plan(ctx) {
    const ids = (ctx.opts.ids ?? []).map((i) => i.toUpperCase());
    const bad = ids.filter((i) => !PROTEOME.test(i) && !ACCESSION.test(i));
    if (bad.length) throw new UsageError(`--ids ${bad.join(',')}: expected UniProt accessions (P69905) or proteome ids (UP000005640)`);
    const proteomes = ids.filter((i) => PROTEOME.test(i));
    const accessions = ids.filter((i) => !PROTEOME.test(i));
    const files: PlannedFile[] = [];
    let version = 0;
    if (proteomes.length || !ids.length) {
      const f = await folder(ctx, 'ebi', 'pub/databases/alphafold/latest/');
      const shards = f.entries
        .filter((e) => !e.folder && SHARD.test(e.name))
        .map((e) => e.name)
        .sort();
      let chosen: string[];
      if (ids.length) {
        chosen = proteomes.map((p) => {
          const hit = shards.find((s) => s.startsWith(`${p}_`));
          if (!hit) throw new FetchError(`${f.url} has no tar of proteome ${p}`);
          return hit;
        });
      } else chosen = limited(shards, ctx.opts);
      for (const s of chosen) {
        files.push(f.file(s, `proteomes/${s}`));
        version = Math.max(version, Number(SHARD.exec(s)?.[2] ?? 0));
      }
    }
    const meta: string[] = [];
    if (accessions.length) ctx.http.pace(100);
    for (const acc of accessions) {
      const e = await entryFiles(ctx, acc);
      files.push(...e.files);
      meta.push(...e.meta);
      version = Math.max(version, e.version);
    }
    const shardCount = files.filter((f) => f.path.startsWith('proteomes/')).length;
    const what = [
      proteomes.length || !ids.length ? `${shardCount} proteome${shardCount === 1 ? '' : 's'}` : '',
      accessions.length ? `${accessions.length} entr${accessions.length === 1 ? 'y' : 'ies'}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return {
      files,
      parallel: accessions.length ? 4 : 1,
      ...(meta.length ? { written: [{ path: 'metadata.jsonl', content: `${meta.join('\n')}\n` }] } : {}),
      ...(version ? { release: `v${version}` } : {}),
      source: describeSource(files, what),
    };
  },
};
