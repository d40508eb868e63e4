import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { FormatError } from '../../../core/ingest/errors.js';
import { listInputs } from '../../../core/ingest/inputs.js';

/** One entry of the archive as found on disk: its mmCIF and, where mirrored, its structure factors. */
export interface ArchiveItem {
  id: string;
  cif: string;
  sf?: string;
  /** Size and modification time of both files: an update run re-reads an entry only when it changed. */
  stamp: string;
}

// `4hhb.cif.gz`, `4HHB.cif`, extended ids `pdb_00004hhb.cif.gz`.
const ENTRY_FILE = /^((?:pdb_)?[0-9a-z]{4,8})\.cif(\.gz)?$/i;
// The archive's structure-factor files (`r4hhbsf.ent.gz`) and the download names (`4hhb-sf.cif.gz`).
const SF_FILE = /^(?:r([0-9a-z]{4})sf\.ent|((?:pdb_)?[0-9a-z]{4,8})-sf\.cif)(\.gz)?$/i;

const baseOf = (p: string): string => p.slice(p.lastIndexOf(sep) + 1);

/**
 * What an input names: a folder (the divided mmCIF tree, structure factors anywhere below it; the
 * `obsolete` tree left out), one `.cif`/`.cif.gz`, or a text file listing such paths (one per line,
 * relative to the list's own folder).
 */
export async function archiveItems(input: string): Promise<ArchiveItem[]> {
  const paths = await inputPaths(input);
  const cifs = new Map<string, string>();
  const sfs = new Map<string, string>();
  for (const p of paths) {
    if (p.split(sep).includes('obsolete')) continue;
    const name = baseOf(p);
    const sf = SF_FILE.exec(name);
    if (sf) {
      sfs.set((sf[1] ?? sf[2] ?? '').toUpperCase(), p);
      continue;
    }
    const m = ENTRY_FILE.exec(name);
    if (m?.[1]) cifs.set(m[1].toUpperCase(), p);
  }
  if (cifs.size === 0) throw new FormatError(`${input}: no mmCIF entry files (.cif or .cif.gz) found`);
  const items: ArchiveItem[] = [];
  for (const [id, cif] of [...cifs].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const sf = sfs.get(id);
    const parts = [await stampOf(cif)];
    if (sf) parts.push(await stampOf(sf));
    items.push(sf ? { id, cif, sf, stamp: parts.join('|') } : { id, cif, stamp: parts.join('|') });
  }
  return items;
}

async function stampOf(path: string): Promise<string> {
  const s = await stat(path);
  // Whole milliseconds, rounded: a time set back through utimes(2) comes back a hair off its float.
  return `${s.size}:${Math.round(s.mtimeMs)}`;
}

async function inputPaths(input: string): Promise<string[]> {
  const files = await listInputs(input);
  if (files.length === 1 && files[0] && !ENTRY_FILE.test(baseOf(files[0].path)) && !SF_FILE.test(baseOf(files[0].path))) {
    // A list of files.
    const text = await readFile(files[0].path, 'utf8');
    if (text.includes('\0')) throw new FormatError(`${input}: neither an mmCIF file nor a list of mmCIF files`);
    const base = dirname(files[0].path);
    return text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0 && !l.startsWith('#'))
      .map((l) => (isAbsolute(l) ? l : join(base, l)));
  }
  return files.map((f) => f.path);
}
