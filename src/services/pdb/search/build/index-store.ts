/**
 * The engines' indexes as folders named by what they were built from (`<kind>-<sha256 of the
 * inputs>`), under the process's folder of derived files. The archive load builds them before it
 * switches generations; any process that finds a generation's folder missing (data loaded by an
 * older version, or on another host) builds it again from the database, which gives the same
 * folder. A folder is written under a temporary name and renamed once whole, so a reader never
 * sees half an index; a build holds a lock folder so that processes sharing the folder build once.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { processAlive } from '../../../../core/process.js';

export type IndexKind = 'sequences' | 'structures';

/** A build's own work: it writes the index's files into `dir`. */
export type IndexMaker = (dir: string) => Promise<void>;

const READY = 'READY';
/** Touched by a process that opens the index (once), so that sweeps spare what is in use. */
const USED = 'USED';
/** Folders no generation serves are removed once unused for this long (other databases may share the folder). */
const SWEEP_AFTER_MS = Number(process.env.BIOMIRROR_INDEX_KEEP_HOURS ?? 24) * 3600_000;
/** How often a process waiting on another's build looks again. */
const POLL_MS = 250;
/** A lock whose owner cannot be checked (another host) counts as abandoned after this long. */
const STALE_MS = 6 * 3600_000;
/** A failed background build is tried again on a query after this long. */
const RETRY_MS = 60_000;

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

export type IndexState = { state: 'ready'; dir: string } | { state: 'building'; since: number } | { state: 'failed'; error: string; at: number };

export class IndexStore {
  private readonly running = new Map<string, { since: number; done: Promise<string> }>();
  private readonly failures = new Map<string, { error: string; at: number }>();
  private readonly touched = new Set<string>();

  constructor(readonly root: string) {}

  dir(kind: IndexKind, hash: string): string {
    return join(this.root, `${kind}-${hash}`);
  }

  async ready(kind: IndexKind, hash: string): Promise<string | undefined> {
    const d = this.dir(kind, hash);
    if (!(await exists(join(d, READY)))) return undefined;
    if (!this.touched.has(d)) {
      this.touched.add(d);
      await writeFile(join(d, USED), `${new Date().toISOString()}\n`).catch(() => undefined);
    }
    return d;
  }

  /** The index's folder, building it here (or waiting for the process that is) when missing. */
  async build(kind: IndexKind, hash: string, make: IndexMaker): Promise<string> {
    const name = `${kind}-${hash}`;
    const mine = this.running.get(name);
    if (mine) return mine.done;
    const done = this.buildOnce(kind, hash, make);
    this.running.set(name, { since: Date.now(), done });
    try {
      const d = await done;
      this.failures.delete(name);
      return d;
    } catch (err) {
      this.failures.set(name, { error: (err as Error).message, at: Date.now() });
      throw err;
    } finally {
      this.running.delete(name);
    }
  }

  /**
   * Whether the index is there; when not, its build starts in the background (once per process)
   * and the caller learns since when it runs, or why the last attempt failed.
   */
  async state(kind: IndexKind, hash: string, make: IndexMaker): Promise<IndexState> {
    const d = await this.ready(kind, hash);
    if (d) return { state: 'ready', dir: d };
    const name = `${kind}-${hash}`;
    const run = this.running.get(name);
    if (run) return { state: 'building', since: run.since };
    const failed = this.failures.get(name);
    if (failed && Date.now() - failed.at < RETRY_MS) return { state: 'failed', ...failed };
    this.build(kind, hash, make).catch(() => undefined);
    return { state: 'building', since: Date.now() };
  }

  private async buildOnce(kind: IndexKind, hash: string, make: IndexMaker): Promise<string> {
    const final = this.dir(kind, hash);
    await mkdir(this.root, { recursive: true });
    const lock = join(this.root, `.lock-${kind}-${hash}`);
    for (;;) {
      if (await exists(join(final, READY))) return final;
      if (await this.takeLock(lock)) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const tmp = join(this.root, `.tmp-${kind}-${hash}-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      if (await exists(join(final, READY))) return final;
      await mkdir(tmp, { recursive: true });
      await make(tmp);
      await writeFile(join(tmp, READY), `${new Date().toISOString()}\n`);
      // A folder left by an interrupted rename (no READY inside) is replaced.
      await rm(final, { recursive: true, force: true });
      await rename(tmp, final);
      return final;
    } finally {
      await rm(tmp, { recursive: true, force: true });
      await rm(lock, { recursive: true, force: true });
    }
  }

  /** Takes the build lock, or frees one whose owner is gone; false while another process holds it. */
  private async takeLock(lock: string): Promise<boolean> {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'owner'), `${hostname()} ${process.pid}\n`);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await readFile(join(lock, 'owner'), 'utf8').catch(() => '');
    const [host, pid] = owner.trim().split(' ');
    const since = await stat(lock).then(
      (s) => s.mtimeMs,
      () => Date.now(),
    );
    const gone = owner === '' ? Date.now() - since > 10_000 : host === hostname() ? !processAlive(Number(pid)) : Date.now() - since > STALE_MS;
    if (gone) await rm(lock, { recursive: true, force: true });
    return false;
  }

  /**
   * Removes the folders of this kind that no generation served or being loaded uses, once no
   * process has opened or built them for a while (a folder may serve another database too).
   */
  async sweep(kind: IndexKind, keep: Set<string>): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch {
      return;
    }
    const mtime = (p: string) =>
      stat(p).then(
        (x) => x.mtimeMs,
        () => 0,
      );
    for (const n of names) {
      const d = join(this.root, n);
      // A build's temporary folder left by a process that died.
      if (n.startsWith(`.tmp-${kind}-`)) {
        if (Date.now() - (await mtime(d)) > SWEEP_AFTER_MS) await rm(d, { recursive: true, force: true });
        continue;
      }
      if (!n.startsWith(`${kind}-`) || keep.has(n.slice(kind.length + 1))) continue;
      const last = Math.max(await mtime(join(d, READY)), await mtime(join(d, USED)));
      if (Date.now() - last > SWEEP_AFTER_MS) await rm(d, { recursive: true, force: true });
    }
  }
}

const stores = new Map<string, IndexStore>();

/** One store per folder in a process, so its builds are shared by every request. */
export function indexStore(root: string): IndexStore {
  let s = stores.get(root);
  if (!s) stores.set(root, (s = new IndexStore(root)));
  return s;
}
