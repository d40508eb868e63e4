/**
 * The archive's lists of withdrawn entries, read by an update: `obsolete.dat` (data/status, one
 * `OBSLTE <date> <id> [<successor>...]` line per entry) and the holdings file
 * `all_removed_entries.json.gz` (an object keyed by entry id). Both are cumulative; ids not loaded
 * are counted and passed over.
 */
import type { ReadContext } from '../../../core/ingest/dataset.js';
import { FormatError } from '../../../core/ingest/errors.js';
import { baseName, lines, openInput, readText } from '../../../core/ingest/inputs.js';
import type { Deletions } from '../../../core/ingest/updates.js';

const OBSOLETE_DAT = /^obsolete\.dat$/;
const REMOVED_JSON = /^all_removed_entries\.json$/;

/** The id entries are stored under: classic ids upper-cased; `pdb_0000xxxx` is the classic `XXXX`. */
export function entryIdOf(raw: string): string | undefined {
  const id = raw.trim().toUpperCase();
  const ext = /^PDB_0000([0-9A-Z]{4})$/.exec(id);
  if (ext) return ext[1];
  return /^(?:PDB_)?[0-9A-Z]{4,8}$/.test(id) ? id : undefined;
}

async function* read(path: string, ctx: ReadContext): AsyncGenerator<{ id: string; place: { file: string; position: string | number } }> {
  if (REMOVED_JSON.test(baseName(path))) {
    let doc: unknown;
    try {
      doc = JSON.parse(await readText(path));
    } catch {
      throw new FormatError(`${path}: not JSON; expected the holdings file of removed entries (an object keyed by entry id)`);
    }
    const keys = Array.isArray(doc) ? doc.map((x) => (typeof x === 'string' ? x : '')) : doc && typeof doc === 'object' ? Object.keys(doc) : undefined;
    if (!keys) throw new FormatError(`${path}: expected an object keyed by entry id`);
    for (const [i, k] of keys.entries()) {
      const id = entryIdOf(k);
      if (id) yield { id, place: { file: path, position: k } };
      else ctx.skip({ file: path, position: i }, `"${k}" is not a PDB id`);
    }
    return;
  }
  for await (const { line, no } of lines(openInput(path))) {
    if (!line.startsWith('OBSLTE')) continue;
    const raw = line.trim().split(/\s+/)[2] ?? '';
    const id = entryIdOf(raw);
    if (id) yield { id, place: { file: path, position: no } };
    else ctx.skip({ file: path, position: `line ${no}` }, `"${raw}" is not a PDB id`);
  }
}

export const obsoleteLists: Deletions = {
  file: (path) => OBSOLETE_DAT.test(baseName(path)) || REMOVED_JSON.test(baseName(path)),
  read,
};
