/**
 * Files the load gets in place of what was downloaded: a table cut to the identifiers of the part
 * of a dataset that was fetched, one member of a tar archive.
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { openInput, lines } from '../../core/ingest/inputs.js';
import { tarMembers } from '../../services/alphafold/tar.js';
import { FetchError } from './errors.js';
import type { Derived } from './plan.js';

export type IdRange = readonly [number, number];

/** The id range a bulk file's name gives: `Compound_000000001_000500000.sdf.gz`, `0000001_0001000.zip`. */
export function rangeOfName(name: string): IdRange | undefined {
  const m = /(\d+)_(\d+)\.[a-z.]+$/i.exec(name);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const inRanges = (id: number, ranges: readonly IdRange[]) => ranges.some(([lo, hi]) => id >= lo && id <= hi);

/** The whole number a line starts with, up to its first tab (or end); undefined for anything else (a header). */
function leadingId(line: string): number | undefined {
  let n = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 9) break;
    if (c < 48 || c > 57 || i > 15) return undefined;
    n = n * 10 + (c - 48);
  }
  return i > 0 ? n : undefined;
}

/**
 * The lines of a tab-separated table (optionally gzipped) whose first column is an id inside the
 * ranges; a first line that is not an id (a header) is kept.
 */
export function rowsInRanges(path: string, ranges: readonly IdRange[]): Derived {
  return {
    path,
    async make(src, dest, signal) {
      const out = createWriteStream(dest);
      // Kept lines go out in large writes: a write per line costs more than the filtering.
      let kept: string[] = [];
      let size = 0;
      const flush = async () => {
        if (kept.length && !out.write(kept.join(''))) await once(out, 'drain');
        kept = [];
        size = 0;
      };
      try {
        for await (const { line, no } of lines(openInput(src))) {
          if (signal.aborted) throw new FetchError('stopped');
          const id = leadingId(line);
          if (!(id !== undefined ? inRanges(id, ranges) : no === 1)) continue;
          kept.push(`${line}\n`);
          size += line.length;
          if (size >= 1 << 20) await flush();
        }
        await flush();
      } finally {
        out.end();
        await once(out, 'close');
      }
    },
  };
}

/** One member of a (gzipped) tar archive, e.g. `names.dmp` of the taxonomy's taxdump. */
export function tarMember(member: string, path = member): Derived {
  return {
    path,
    async make(src, dest, signal) {
      const stream = openInput(src);
      try {
        for await (const m of tarMembers(stream, 2 ** 31)) {
          if (signal.aborted) throw new FetchError('stopped');
          if (m.name === member || m.name.endsWith(`/${member}`)) {
            await writeFile(dest, m.bytes);
            return;
          }
        }
      } finally {
        // Stopping at the member leaves the rest unread: the file must close all the same.
        stream.destroy();
      }
      throw new FetchError(`${src}: the archive holds no ${member}`);
    },
  };
}
