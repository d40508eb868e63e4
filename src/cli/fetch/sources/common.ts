/** Choosing files out of the upstreams' folders. */
import { FetchError, UsageError } from '../errors.js';
import { listFolder, type Listed } from '../listing.js';
import type { FetchOptions, PlanContext, PlannedFile } from '../plan.js';
import { upstreamUrl, type UpstreamKey } from '../upstreams.js';

export interface Folder {
  url: string;
  entries: Listed[];
  has(name: string): boolean;
  /** A file of the folder, with its published checksum when the folder lists `<name>.md5`. */
  file(name: string, path?: string): PlannedFile;
}

export async function folder(ctx: PlanContext, key: UpstreamKey, path: string): Promise<Folder> {
  const url = upstreamUrl(ctx.upstreams, key, path.endsWith('/') ? path : `${path}/`);
  const entries = await listFolder(ctx.http, url);
  const names = new Set(entries.filter((e) => !e.folder).map((e) => e.name));
  return {
    url,
    entries,
    has: (name) => names.has(name),
    file(name, local = name) {
      if (!names.has(name)) throw new FetchError(`${url} does not list ${name}: the upstream has moved or renamed it`);
      return { url: `${url}${encodeURIComponent(name)}`, path: local, ...(names.has(`${name}.md5`) ? { md5Url: `${url}${encodeURIComponent(name)}.md5` } : {}) };
    },
  };
}

/** The parts to fetch: those asked for (each checked), else the defaults. */
export function chooseParts(opts: FetchOptions, all: readonly string[], defaults: readonly string[]): Set<string> {
  if (!opts.parts?.length) return new Set(defaults);
  const unknown = opts.parts.filter((p) => !all.includes(p));
  if (unknown.length) throw new UsageError(`unknown part ${unknown.join(', ')}; parts of this dataset: ${all.join(', ')} (default ${defaults.join(', ')})`);
  return new Set(opts.parts);
}

/** The first `limit` of a list (all without a limit). */
export function limited<T>(items: T[], opts: FetchOptions): T[] {
  return opts.limit === undefined ? items : items.slice(0, opts.limit);
}

export const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A short description of what was fetched, for the load's provenance. */
export function describeSource(files: readonly PlannedFile[], what?: string): string {
  if (files.length === 1 && !what) return (files[0] as PlannedFile).url;
  const first = files[0]?.url ?? '';
  const base = first.slice(0, first.lastIndexOf('/') + 1);
  return `${base} (${what ?? `${files.length} files`})`;
}
