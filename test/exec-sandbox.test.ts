/**
 * The sandbox's rules, each tried by a fixture script that attempts the forbidden thing: the
 * network, writes outside the run's temp folder, a fork bomb, a memory hog, a hang with a
 * grandchild, a flood of output, and many runs at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { execApp, execute, FIXTURE_SKILLS, missingSandbox } from './helpers/exec.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { RunCgroups } from '../src/services/exec/sandbox/cgroup.js';
import { AUDIT_ARCH, DENIED_SYSCALLS, type SeccompArch } from '../src/services/exec/sandbox/seccomp.js';

const skip = missingSandbox();

/** '' when runs can be grouped here (control groups writable); otherwise why not (or a throw in CI). */
function missingCgroups(): string {
  const c = RunCgroups.open();
  c.close();
  if (c.state.kind !== 'none') return '';
  if (process.env.BIOMIRROR_REQUIRE_TOOLS === '1') throw new Error(`BIOMIRROR_REQUIRE_TOOLS is set but runs cannot be grouped: ${c.state.detail}`);
  return ` (skipped: needs writable control groups, as a server running as root has: ${c.state.detail})`;
}
const skipGroups = skip || missingCgroups();

/** Processes on this machine whose command line contains `needle`. */
function processesWith(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(needle)) found.push(`${pid}: ${cmd}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe.skipIf(skip !== '')(`the sandbox${skip}`, () => {
  let store: OpenedStore;
  let t: TestApp;
  let hostPort: number;
  let listener: Server;

  beforeAll(async () => {
    store = await (STORES[0] as (typeof STORES)[number]).open();
    t = await execApp(store, { limits: { wallMs: 4000, outputBytes: 64 * 1024, processes: 64, memoryBytes: 512 * 1024 * 1024, runMemoryBytes: 512 * 1024 * 1024 } as never });
    // A port on the host's loopback, which a run must not reach.
    listener = createServer((s) => s.end('hello from the host\n'));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    hostPort = (listener.address() as { port: number }).port;
  });
  afterAll(async () => {
    listener.close();
    await t.close();
    await store.cleanup();
  });

  it('passes the arguments as a vector, never through a shell, as an unprivileged user in a fresh /tmp', async () => {
    const args = ['a b', '$(id)', '`uname`', '; rm -rf /', "it's", '--flag=1', '', 'ünïcode'];
    const r = await execute(t.app, 'probe', 'echo_args', args);
    expect(r.status).toBe(200);
    expect(r.json.success).toBe(true);
    const out = JSON.parse(r.json.stdout) as { args: string[]; uid: number; cwd: string; env: Record<string, string> };
    expect(out.args).toEqual(args);
    expect(out.uid).toBe(65534);
    expect(out.cwd).toBe('/tmp');
    expect(r.json.command).toBe(`python3 scripts/echo_args.py 'a b' '$(id)' '\`uname\`' '; rm -rf /' 'it'\\''s' --flag=1 '' 'ünïcode'`);
  });

  it('scrubs the environment to the base URLs, the proxy, the CA and what the skill declares', async () => {
    process.env.PROBE_DECLARED = 'declared-value';
    process.env.PROBE_UNDECLARED = 'undeclared-value';
    try {
      const r = await execute(t.app, 'probe', 'echo_args');
      const env = (JSON.parse(r.json.stdout) as { env: Record<string, string> }).env;
      expect(env.PROBE_DECLARED).toBe('declared-value');
      expect(env.PROBE_UNDECLARED).toBeUndefined();
      const allowed =
        /^(PATH|HOME|TMPDIR|PWD|LANG|LC_ALL|PYTHONDONTWRITEBYTECODE|PYTHONUNBUFFERED|PROBE_DECLARED|BIOMIRROR_[A-Z_]+|(HTTP|HTTPS|ALL|NO)_PROXY|https?_proxy|no_proxy|SSL_CERT_FILE|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|NODE_EXTRA_CA_CERTS)$/;
      for (const k of Object.keys(env)) expect(k, `${k} is not a variable the run should get`).toMatch(allowed);
      expect(env.PATH).toBe('/usr/bin:/bin');
      expect(env.HTTPS_PROXY).toBe('http://127.0.0.1:3128');
      expect(env.SSL_CERT_FILE).toBe(env.REQUESTS_CA_BUNDLE);
      expect(env.NODE_EXTRA_CA_CERTS).toBe(env.SSL_CERT_FILE);
      expect(env.BIOMIRROR_EUTILS_URL).toBe('http://biomirror/eutils');
    } finally {
      delete process.env.PROBE_DECLARED;
      delete process.env.PROBE_UNDECLARED;
    }
  });

  it('refuses the network to anywhere but the mirrored hosts, including the host and its loopback', async () => {
    const r = await execute(t.app, 'probe', 'net_out', [hostPort]);
    expect(r.status).toBe(200);
    const out = JSON.parse(r.json.stdout) as Record<string, string>;
    for (const [target, result] of Object.entries(out)) expect(result, target).toMatch(/^refused/);
    expect(out['https://example.com/']).toMatch(/403|Forbidden|not reachable/i);
    expect(out['http://example.com/']).toContain('HTTP 403');
    expect(out['http://example.com/']).toContain('not reachable from the sandbox');
  });

  it('refuses writes outside the temp folder, which is fresh for every run', async () => {
    const first = JSON.parse((await execute(t.app, 'probe', 'write_outside')).json.stdout) as Record<string, unknown>;
    expect(first['/tmp/planted']).toBe('written');
    for (const path of ['/skill/planted.txt', '/skill/scripts/planted.py', '/usr/planted', '/etc/planted', '/planted', '/opt/biomirror/run/planted', '/proc/planted']) {
      expect(first[path], path).toMatch(/^refused/);
    }
    // The next run does not see what the last one left.
    const second = JSON.parse((await execute(t.app, 'probe', 'write_outside')).json.stdout) as Record<string, unknown>;
    expect(second.tmp_before).toEqual([]);
    expect(readdirSync(`${FIXTURE_SKILLS}probe`)).not.toContain('planted.txt');
  });

  it('contains a fork bomb: forks are refused at the process limit, and nothing outlives the run', async () => {
    const r = await execute(t.app, 'probe', 'fork_bomb');
    const out = JSON.parse(r.json.stdout) as { forked: number; refused: string | null };
    expect(out.refused).toBe('BlockingIOError');
    expect(out.forked).toBeLessThan(64);
    expect(await until(() => processesWith('fork_bomb.py').length === 0, 3000)).toBe(true);
    // The classic bomb runs into the wall-time limit and is killed with all it started.
    const bomb = await execute(t.app, 'probe', 'shell_bomb.sh');
    expect([200, 504]).toContain(bomb.status);
    expect(await until(() => processesWith('shell_bomb.sh').length === 0, 3000)).toBe(true);
    // The server still answers.
    expect((await execute(t.app, 'probe', 'echo_args', ['alive'])).json.success).toBe(true);
  }, 30_000);

  it('contains a memory hog at the memory limit', async () => {
    const r = await execute(t.app, 'probe', 'memory_hog', [4096]);
    const out = JSON.parse(r.json.stdout) as { allocated_mib: number; error: string | null };
    expect(out.error).toBe('MemoryError');
    expect(out.allocated_mib).toBeLessThan(512);
    const small = JSON.parse((await execute(t.app, 'probe', 'memory_hog', [128])).json.stdout) as { allocated_mib: number; error: string | null };
    expect(small).toEqual({ allocated_mib: 128, error: null });
  });

  it('bounds /dev: /dev/shm holds at most the file-size limit, and /dev itself is read-only', async () => {
    const r = await execute(t.app, 'probe', 'fill_dev', [256]);
    const out = JSON.parse(r.json.stdout) as Record<string, unknown>;
    expect(out.shm_written_mib).toBeLessThanOrEqual(64);
    expect(out.shm_error).toMatch(/No space left|File too large/);
    for (const path of ['/dev/planted', '/dev/pts/planted', '/dev/mqueue/planted']) expect(out[path], path).toMatch(/^refused/);
    // Nothing of it is left for the next run.
    const next = JSON.parse((await execute(t.app, 'probe', 'fill_dev', [8])).json.stdout) as Record<string, unknown>;
    expect(next.shm_written_mib).toBe(8);
  });

  it.skipIf(skipGroups !== '')(
    `bounds the memory of the run as a whole, not only of each process${skipGroups}`,
    async () => {
      // Four children of 300 MiB, each under the 512 MiB per-process limit, 1.2 GiB together.
      const r = await execute(t.app, 'probe', 'fork_hog', [4, 300]);
      const ends = JSON.parse(r.json.stdout) as { filled: boolean; exit: number }[];
      expect(ends).toHaveLength(4);
      expect(ends.filter((e) => e.exit === 0).length, JSON.stringify(ends)).toBeLessThanOrEqual(1);
      expect(ends.some((e) => e.exit === -9)).toBe(true);
      expect(r.json.stderr).toContain(`together used more than ${512 * 1024 * 1024} bytes of memory`);
      // Within the bound, the same children run to the end.
      const small = await execute(t.app, 'probe', 'fork_hog', [4, 64]);
      expect(JSON.parse(small.json.stdout)).toEqual(Array.from({ length: 4 }, () => ({ filled: true, exit: 0 })));
      expect(small.json.stderr).toBe('');
    },
    30_000,
  );

  it.skipIf(!(process.arch in AUDIT_ARCH))('refuses io_uring, bpf and the other filtered system calls with EPERM, and allows ordinary ones', async () => {
    const arch = process.arch as SeccompArch;
    const denied = (['io_uring_setup', 'bpf', 'perf_event_open', 'unshare', 'keyctl', 'userfaultfd'] as const).map((n) => DENIED_SYSCALLS[n][arch]);
    // getpid and sched_yield: allowed, they succeed.
    const allowed = arch === 'x64' ? [39, 24] : [172, 124];
    const r = await execute(t.app, 'probe', 'syscalls', [...denied, ...allowed]);
    expect(r.json.stderr).toBe('');
    const errnos = JSON.parse(r.json.stdout) as Record<string, number>;
    for (const n of denied) expect(errnos[String(n)], `system call ${n}`).toBe(1);
    for (const n of allowed) expect(errnos[String(n)], `system call ${n}`).toBe(0);
    const health = (await t.app.inject('/exec/api/health')).json() as { seccomp_denied: string[] };
    expect(health.seccomp_denied).toContain('io_uring_setup');
  });

  it('keeps declared secrets off every command line of the machine while the run lasts', async () => {
    const secret = `probe-secret-${Math.random().toString(36).slice(2)}`;
    process.env.PROBE_DECLARED = secret;
    try {
      const run = execute(t.app, 'probe', 'slow', [2]);
      let seenRun = false;
      let leaked: string[] = [];
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        if (processesWith('slow.py').length > 0) seenRun = true;
        leaked = leaked.concat(processesWith(secret));
        await new Promise((r) => setTimeout(r, 50));
      }
      const r = await run;
      expect(r.json.stdout).toBe('done\n');
      expect(seenRun).toBe(true);
      expect(leaked).toEqual([]);
      // The run still gets it, from its environment.
      const env = (JSON.parse((await execute(t.app, 'probe', 'echo_args')).json.stdout) as { env: Record<string, string> }).env;
      expect(env.PROBE_DECLARED).toBe(secret);
    } finally {
      delete process.env.PROBE_DECLARED;
    }
  });

  it('kills the whole run, grandchildren too, at the wall-time limit', async () => {
    const marker = `${100000 + Math.floor(Math.random() * 800000)}.25`;
    const started = Date.now();
    const r = await execute(t.app, 'probe', 'grandchild', [marker]);
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(r.status).toBe(504);
    expect(r.json.success).toBe(false);
    expect(r.json.returncode).toBe(124);
    expect(r.json.stdout).toContain('grandchild started');
    expect(r.json.stderr).toContain('longer than 4000 ms');
    expect(await until(() => processesWith(`sleep ${marker}`).length === 0, 3000)).toBe(true);
  }, 20_000);

  it('cuts output at the cap with a marker, and says so', async () => {
    const r = await execute(t.app, 'probe', 'flood', [10 * 1024 * 1024]);
    expect(r.status).toBe(413);
    expect(r.json.success).toBe(false);
    expect(r.json.stdout.startsWith('y'.repeat(64 * 1024))).toBe(true);
    expect(r.json.stdout).toMatch(/\n\.\.\.\[output truncated at 65536 bytes\]$/);
    expect(r.json.stderr).toContain('more than 65536 bytes to stdout');
  });

  it('answers a failing script with success=false, its exit status and its stderr', async () => {
    const r = await execute(t.app, 'probe', 'fail', [3]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ success: false, returncode: 3, stdout: '', stderr: 'something went wrong\n' });
  });

  it("runs JavaScript and TypeScript on the server's Node and shell scripts with sh, arguments intact", async () => {
    const js = await execute(t.app, 'probe', 'echo', ['x y', '$HOME']);
    expect(js.json.success).toBe(true);
    expect(JSON.parse(js.json.stdout)).toEqual({ args: ['x y', '$HOME'], node: process.version });
    const ts = await execute(t.app, 'probe', 'typed', ['world']);
    expect(ts.json.stderr).toBe('');
    expect(JSON.parse(ts.json.stdout)).toEqual({ text: 'hello world' });
    const sh = await execute(t.app, 'probe', 'argv', ['one two', '*', '$(id)']);
    expect(sh.json.stdout).toBe('one two\n*\n$(id)\n');
  });
});

describe.skipIf(skip !== '')(`the run queue${skip}`, () => {
  it('runs at most `concurrency` scripts at once, queues the rest, and refuses beyond the queue', async () => {
    const store = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await execApp(store, { concurrency: 2, maxQueued: 3 });
    try {
      const started = Date.now();
      const runs = Array.from({ length: 5 }, () => execute(t.app, 'probe', 'slow', [1.5]));
      await new Promise((r) => setTimeout(r, 500));
      const health = (await t.app.inject('/exec/api/health')).json() as { runs: { in_flight: number; queued: number } };
      expect(health.runs).toMatchObject({ in_flight: 2, queued: 3 });
      const refused = await execute(t.app, 'probe', 'slow', [0]);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json.stderr).toContain('not started');
      const done = await Promise.all(runs);
      for (const d of done) expect(d.json.stdout).toBe('done\n');
      // Five runs of 1.5 s, two at a time: three rounds.
      expect(Date.now() - started).toBeGreaterThanOrEqual(4400);
    } finally {
      await t.close();
      await store.cleanup();
    }
  }, 30_000);
});
