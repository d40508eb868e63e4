/**
 * Folders of the FTP sites as their HTTPS servers show them: an HTML index whose links are the
 * folder's files and subfolders (Apache's, nginx's and the like all have this shape).
 */
import { FetchError } from './errors.js';
import type { Http } from './http.js';

export interface Listed {
  name: string;
  /** A subfolder (its link ends with a slash). */
  folder: boolean;
}

const HREF = /<a\s[^>]*?href\s*=\s*"([^"]*)"/gi;

/** The entries an index page links to, in page order: no parent, sort links, or other sites. */
export function parseListing(html: string): Listed[] {
  const seen = new Set<string>();
  const out: Listed[] = [];
  for (const m of html.matchAll(HREF)) {
    let href = (m[1] ?? '').replace(/&amp;/g, '&');
    if (!href || href.startsWith('?') || href.startsWith('#') || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    if (href.startsWith('./')) href = href.slice(2);
    if (href === '../' || href === '..' || href === '') continue;
    const folder = href.endsWith('/');
    let name: string;
    try {
      name = decodeURIComponent(folder ? href.slice(0, -1) : href);
    } catch {
      continue;
    }
    // Only names directly in this folder.
    if (name.includes('/') || seen.has(name)) continue;
    seen.add(name);
    out.push({ name, folder });
  }
  return out;
}

/** The entries of an upstream folder (its address ends with a slash). */
export async function listFolder(http: Http, url: string): Promise<Listed[]> {
  const folderUrl = url.endsWith('/') ? url : `${url}/`;
  const html = await http.text(folderUrl);
  const entries = parseListing(html);
  if (entries.length === 0 && !/<a\s/i.test(html)) throw new FetchError(`${folderUrl}: not a folder listing (no links in the answer)`);
  return entries;
}
