/**
 * Full text outside the API: a version's PDF, HTML and JATS XML, at the site addresses the spec
 * gives (`/content/{doi}v{version}.full.pdf`, `/content/{doi}v{version}`, and the `jatsxml` link
 * `/content/{doi}v{version}.source.xml`). On disk they are named as the last part of those
 * addresses; the DOI prefix is the name of the folder holding them.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

export type FullTextKind = 'pdf' | 'html' | 'xml';

export const CONTENT_TYPES: Record<FullTextKind, string> = {
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
};

export interface FullTextFile {
  doiKey: string;
  version: number;
  kind: FullTextKind;
  path: string;
  read(): Promise<Buffer>;
}

// The suffix of a file name or an address, by kind. `.full` is the site's full-text HTML page.
const SUFFIXES: [string, FullTextKind][] = [
  ['.full.pdf', 'pdf'],
  ['.source.xml', 'xml'],
  ['.full.html', 'html'],
  ['.full', 'html'],
  ['.html', 'html'],
  ['.htm', 'html'],
];

const PREFIX = /^10\.\d{4,9}$/;
// bioRxiv's own prefix, assumed for files not kept in a folder named by their prefix.
export const DEFAULT_PREFIX = '10.1101';

function split(name: string, allowBare: boolean): { stem: string; version: number; kind: FullTextKind } | undefined {
  const lower = name.toLowerCase();
  let kind: FullTextKind | undefined;
  let stem = name;
  for (const [suffix, k] of SUFFIXES) {
    if (lower.endsWith(suffix)) {
      kind = k;
      stem = name.slice(0, -suffix.length);
      break;
    }
  }
  if (!kind) {
    if (!allowBare) return undefined;
    kind = 'html';
  }
  const m = /^(.+)v(\d{1,6})$/.exec(stem);
  if (!m) return undefined;
  const version = Number(m[2]);
  return version >= 1 ? { stem: m[1] as string, version, kind } : undefined;
}

/** A full-text file of the input, or undefined when its name is not one. */
export function fullTextFile(path: string): FullTextFile | undefined {
  const parts = split(basename(path), false);
  if (!parts) return undefined;
  const folder = basename(dirname(path));
  const prefix = PREFIX.test(folder) ? folder : DEFAULT_PREFIX;
  return { doiKey: `${prefix}/${parts.stem}`.toLowerCase(), version: parts.version, kind: parts.kind, path, read: () => readFile(path) };
}

/** What a site address (below /content/) names: `10.1101/339747v2.full.pdf` -> PDF of version 2. */
export function contentAddress(rest: string): { doi: string; version: number; kind: FullTextKind } | undefined {
  const slash = rest.indexOf('/');
  if (slash < 0 || !PREFIX.test(rest.slice(0, slash))) return undefined;
  const parts = split(rest.slice(slash + 1), true);
  if (!parts || parts.stem.includes('/')) return undefined;
  return { doi: `${rest.slice(0, slash)}/${parts.stem}`, version: parts.version, kind: parts.kind };
}
