/**
 * A control group per run, so that the run as a whole is bounded: resident memory (its tmpfs files
 * included), process count and CPU share, however many processes it splits into. prlimit's limits
 * hold per process only: four children under a 1 GiB address-space limit can touch 4 GiB.
 *
 * cgroup v2 (one unified hierarchy) is used where its memory and pids controllers can be enabled
 * for a folder of our own; else cgroup v1's memory and pids hierarchies (cpu where mounted). Both
 * need write access to the cgroup file system, which in practice means a server running as root
 * (or a delegated subtree); without it, runs are bounded per process only, and the service says so
 * in /api/health.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunBounds {
  memoryBytes: number;
  processes: number;
  /** CPUs' worth of time per period (1 = one core). */
  cpus: number;
}

export interface CgroupState {
  kind: 'v2' | 'v1' | 'none';
  /** What is bounded per run, in words, or why nothing is. */
  detail: string;
}

/** Where the hierarchies are mounted, from /proc/self/mountinfo. */
interface Mounts {
  unified?: string;
  v1: Map<string, string>;
}

function mounts(): Mounts {
  const found: Mounts = { v1: new Map() };
  let text = '';
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return found;
  }
  for (const line of text.split('\n')) {
    const [pre, post] = line.split(' - ');
    if (!pre || !post) continue;
    const mountPoint = pre.split(' ')[4];
    const [fsType, , options = ''] = post.split(' ');
    if (!mountPoint) continue;
    if (fsType === 'cgroup2') found.unified ??= mountPoint;
    if (fsType === 'cgroup') {
      for (const c of options.split(',')) if (['memory', 'pids', 'cpu'].includes(c)) found.v1.set(c, mountPoint);
    }
  }
  return found;
}

/** This process's own cgroup path in each hierarchy ('' for v2's), from /proc/self/cgroup. */
function ownPaths(): Map<string, string> {
  const paths = new Map<string, string>();
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const m = /^\d+:([^:]*):(.*)$/.exec(line);
      if (!m) continue;
      for (const c of (m[1] ?? '').split(',')) paths.set(c, m[2] ?? '/');
    }
  } catch {
    // No cgroups.
  }
  return paths;
}

/** Servers opened in this process (tests start several): each gets a folder of its own. */
let opened = 0;

const write = (file: string, value: string) => writeFileSync(file, value);

/** Removes a run's folders; a folder still holding a process (a zombie being reaped) is retried. */
function removeLater(dirs: string[], tries = 20): void {
  const left = dirs.filter((d) => {
    try {
      if (existsSync(d)) rmdirSync(d);
      return false;
    } catch {
      return true;
    }
  });
  if (left.length && tries > 0) setTimeout(() => removeLater(left, tries - 1), 100).unref();
}

/** A run's control groups: the files its first process writes its pid to, and their removal. */
export interface RunGroup {
  procs: string[];
  /** Whether the kernel killed one of the run's processes for the group's memory bound. */
  oomKilled(): boolean;
  release(): void;
}

export class RunCgroups {
  readonly state: CgroupState;
  /** The folders holding this server's runs: one (v2) or one per v1 controller. */
  private readonly bases: { controller: string; dir: string }[] = [];
  private next = 0;

  private constructor(state: CgroupState, bases: { controller: string; dir: string }[]) {
    this.state = state;
    this.bases = bases;
  }

  /** Sets up this server's folder where the machine allows it; never throws. */
  static open(name = `biomirror-exec-${process.pid}-${opened++}`): RunCgroups {
    const m = mounts();
    const own = ownPaths();
    const why: string[] = [];
    if (m.unified) {
      const v2 = tryV2(m.unified, name);
      if (typeof v2 !== 'string') return new RunCgroups({ kind: 'v2', detail: 'cgroup v2: memory.max, pids.max and cpu.max per run' }, [{ controller: 'unified', dir: v2 }]);
      why.push(v2);
    }
    const memory = m.v1.get('memory');
    const pids = m.v1.get('pids');
    if (memory && pids) {
      const bases: { controller: string; dir: string }[] = [];
      try {
        for (const [controller, mount] of m.v1) {
          const dir = v1Base(mount, own.get(controller) ?? '/', name);
          bases.push({ controller, dir });
        }
        const cpu = bases.some((b) => b.controller === 'cpu') ? ', cpu.cfs_quota_us' : '';
        return new RunCgroups({ kind: 'v1', detail: `cgroup v1: memory.limit_in_bytes, pids.max${cpu} per run` }, bases);
      } catch (err) {
        for (const b of bases) removeLater([b.dir], 0);
        why.push(`cgroup v1: ${(err as Error).message}`);
      }
    } else if (!m.unified) {
      why.push('no cgroup file system is mounted');
    } else {
      why.push('no cgroup v1 memory and pids hierarchies');
    }
    return new RunCgroups({ kind: 'none', detail: `each process is bounded, not the run as a whole (${why.join('; ')})` }, []);
  }

  /** Makes the folders of one run with its bounds; undefined when runs are not grouped here. */
  create(b: RunBounds): RunGroup | undefined {
    if (this.bases.length === 0) return undefined;
    const name = `run-${this.next++}`;
    const made: string[] = [];
    try {
      for (const base of this.bases) {
        const dir = join(base.dir, name);
        mkdirSync(dir);
        made.push(dir);
        configure(base.controller, dir, b);
      }
    } catch {
      removeLater(made, 0);
      return undefined;
    }
    const memoryDir = this.bases.find((x) => x.controller === 'unified' || x.controller === 'memory');
    // v2 counts kills in memory.events, v1 in memory.oom_control, both as "oom_kill N".
    const events = memoryDir ? join(memoryDir.dir, name, memoryDir.controller === 'unified' ? 'memory.events' : 'memory.oom_control') : undefined;
    return {
      procs: made.map((d) => join(d, 'cgroup.procs')),
      oomKilled: () => {
        try {
          return events !== undefined && Number(/^oom_kill (\d+)$/m.exec(readFileSync(events, 'utf8'))?.[1] ?? 0) > 0;
        } catch {
          return false;
        }
      },
      release: () => removeLater(made),
    };
  }

  close(): void {
    for (const b of this.bases) {
      try {
        for (const e of readdirSync(b.dir, { withFileTypes: true })) if (e.isDirectory()) removeLater([join(b.dir, e.name)], 0);
        rmdirSync(b.dir);
      } catch {
        // A run still ending; the folder is empty and harmless, and cleared by the next start.
      }
    }
  }
}

function configure(controller: string, dir: string, b: RunBounds): void {
  const period = 100_000;
  const quota = String(Math.max(1000, Math.round(b.cpus * period)));
  switch (controller) {
    case 'unified':
      write(join(dir, 'memory.max'), String(b.memoryBytes));
      if (existsSync(join(dir, 'memory.swap.max'))) write(join(dir, 'memory.swap.max'), '0');
      write(join(dir, 'pids.max'), String(b.processes));
      if (existsSync(join(dir, 'cpu.max'))) write(join(dir, 'cpu.max'), `${quota} ${period}`);
      return;
    case 'memory':
      write(join(dir, 'memory.limit_in_bytes'), String(b.memoryBytes));
      // With swap accounting, memory and swap together are bounded by the same figure.
      if (existsSync(join(dir, 'memory.memsw.limit_in_bytes'))) {
        try {
          write(join(dir, 'memory.memsw.limit_in_bytes'), String(b.memoryBytes));
        } catch {
          // Swap accounting off.
        }
      }
      return;
    case 'pids':
      write(join(dir, 'pids.max'), String(b.processes));
      return;
    case 'cpu':
      write(join(dir, 'cpu.cfs_period_us'), String(period));
      write(join(dir, 'cpu.cfs_quota_us'), quota);
      return;
  }
}

/** Clears folders of earlier servers that ended without removing theirs (only empty ones go). */
function sweepStale(parent: string): void {
  let entries: string[] = [];
  try {
    entries = readdirSync(parent).filter((e) => /^biomirror-exec-\d+(-\d+)?$/.test(e));
  } catch {
    return;
  }
  for (const e of entries) {
    const pid = Number(/^biomirror-exec-(\d+)/.exec(e)?.[1]);
    try {
      process.kill(pid, 0);
      continue; // Its server still runs (this one included).
    } catch (err) {
      // Gone, unless it is only not ours to signal.
      if ((err as NodeJS.ErrnoException).code === 'EPERM') continue;
    }
    const dir = join(parent, e);
    try {
      for (const r of readdirSync(dir, { withFileTypes: true })) if (r.isDirectory()) rmdirSync(join(dir, r.name));
      rmdirSync(dir);
    } catch {
      // In use or not ours to remove.
    }
  }
}

/** This server's v2 folder under the hierarchy's root, with memory and pids for its children. */
function tryV2(mount: string, name: string): string {
  const controllers = (dir: string) => {
    try {
      return readFileSync(join(dir, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
    } catch {
      return [];
    }
  };
  const have = controllers(mount);
  if (!have.includes('memory') || !have.includes('pids')) return `cgroup v2 at ${mount} offers no memory and pids controllers to its children`;
  sweepStale(mount);
  const dir = join(mount, name);
  try {
    mkdirSync(dir, { recursive: true });
    const wanted = ['memory', 'pids', ...(controllers(dir).includes('cpu') ? ['cpu'] : [])];
    write(join(dir, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
    return dir;
  } catch (err) {
    try {
      rmdirSync(dir);
    } catch {
      // Never made.
    }
    return `cgroup v2: ${(err as Error).message}`;
  }
}

/** This server's folder in one v1 hierarchy: under its own group, else at the hierarchy's root. */
function v1Base(mount: string, own: string, name: string): string {
  const candidates = [join(mount, own), mount];
  let last: unknown;
  for (const parent of candidates) {
    sweepStale(parent);
    const dir = join(parent, name);
    try {
      mkdirSync(dir, { recursive: true });
      return dir;
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error(`cannot make a group in ${mount}`);
}
