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

/**
 * The lines of a tab-separated table (optionally gzipped) whose first column is an id inside the
 * ranges; a first line that is not an id (a header) is kept.
 */
export function rowsInRanges(path: string, ranges: readonly IdRange[]): Derived {
  return {
    path,
    async make(src, dest, signal) {
      const out = createWriteStream(dest);
      try {
        for await (const { line, no } of lines(openInput(src))) {
          if (signal.aborted) throw new FetchError('stopped');
          const tab = line.indexOf('\t');
          const first = tab < 0 ? line : line.slice(0, tab);
          const keep = /^\d+$/.test(first) ? inRanges(Number(first), ranges) : no === 1;
          if (keep && !out.write(`${line}\n`)) await once(out, 'drain');
        }
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
      for await (const m of tarMembers(openInput(src), 2 ** 31)) {
        if (signal.aborted) throw new FetchError('stopped');
        if (m.name === member || m.name.endsWith(`/${member}`)) {
          await writeFile(dest, m.bytes);
          return;
        }
      }
      throw new FetchError(`${src}: the archive holds no ${member}`);
    },
  };
}
