/** A harvest's state file (where it stopped, what it has) and its pages, written so a crash never leaves half a file. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export async function readState<T>(dir: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await readFile(join(dir, '.harvest-state.json'), 'utf8')) as T;
  } catch {
    return fallback;
  }
}

export async function writeState(dir: string, state: unknown): Promise<void> {
  await writeAtomic(join(dir, '.harvest-state.json'), JSON.stringify(state, null, 1));
}

/** Writes beside the file, then renames over it. */
export async function writeAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${path.split('/').pop() ?? 'file'}.tmp`);
  await writeFile(tmp, content);
  await rename(tmp, path);
}

const DAY = 86_400_000;

export const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + n * DAY);
export const validDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isoDay(Date.parse(`${s}T00:00:00Z`)) === s;

/** Calendar months covering [from, to], clipped to it: the harvest's units of work. */
export function months(from: string, to: string): [string, string][] {
  const out: [string, string][] = [];
  let start = from;
  while (start <= to) {
    const [y, m] = start.split('-').map(Number) as [number, number];
    const end = isoDay(Date.UTC(y, m, 0));
    out.push([start, end < to ? end : to]);
    start = addDays(end, 1);
  }
  return out;
}
