/**
 * `biomirror serve` as a process among others on a machine, through the real command: a taken port
 * or a held data folder fails the start at once with what to change; SIGTERM stops it within 5 s
 * whatever it is doing (loading the demo data, answering a long request, building a search index),
 * leaving no program of its own behind, and the next start serves the data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import Database from '../src/core/store/sqlite-driver.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/stores.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: npm test builds it first (npm run build)');

/** From SIGTERM to the end of the process, at most (what container runtimes allow, with room). */
const STOP_BOUND_MS = 5_000;

const started: ChildProcess[] = [];
const held: Server[] = [];
afterEach(async () => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, BIOMIRROR_LIMITS: 'off', LOG_LEVEL: 'info' };
  // Search indexes in the data folder, as a user has them (not the test run's shared folder).
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'DATA_DIR', 'BIOMIRROR_CONFIG', 'BIOMIRROR_INDEX_DIR']) delete e[k];
  return e;
}

interface Serve {
  child: ChildProcess;
  err: () => string;
  out: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serve(args: string[]): Serve {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let err = '';
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, err: () => err, out: () => out, exited };
}

async function until<T>(what: string, f: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const urlOf = (s: Serve) =>
  until('the server to listen', () => /serving on (http:\/\/[\d.:]+)/.exec(s.err())?.[1] ?? (s.child.exitCode !== null ? Promise.reject(new Error(s.err())) : undefined), 120_000);

/** Sends SIGTERM and measures until the process has ended (killing it past `waitMs`). */
async function terminate(s: Serve, waitMs = 20_000): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null }> {
  const t0 = Date.now();
  s.child.kill('SIGTERM');
  const late = setTimeout(() => s.child.kill('SIGKILL'), waitMs);
  const r = await s.exited;
  clearTimeout(late);
  return { ms: Date.now() - t0, ...r };
}

/** Programs still running in `dir` (MMseqs2 runs in the index folder): the server's, left behind. */
function programsIn(dir: string): string[] {
  if (!existsSync('/proc/self/cwd')) return [];
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/cwd`).startsWith(dir);
      } catch {
        return false;
      }
    });
}

/** A port held by another program. */
async function holdPort(port = 0): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen({ host: '127.0.0.1', port }, resolve);
  });
  held.push(s);
  return (s.address() as { port: number }).port;
}

function loads(dir: string, where = "service = 'rcsb-data' AND dataset = 'archive'"): { state: string }[] {
  try {
    const db = new Database(join(dir, 'biomirror.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`SELECT state FROM bm_loads WHERE ${where} ORDER BY id`).all() as { state: string }[];
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

/** A data folder with the demo data loaded (by the test that loads it, or here). */
let loaded: string | undefined;
async function loadedFolder(): Promise<string> {
  if (loaded) return loaded;
  const dir = tempDir();
  const s = serve(['--port', '0', '--data-dir', dir]);
  await urlOf(s);
  expect((await terminate(s)).code).toBe(0);
  return (loaded = dir);
}

describe('serve among other programs', () => {
  it('exits at once, naming the port and --port, when its port is taken', async () => {
    const port = await holdPort();
    const t0 = Date.now();
    const s = serve(['--port', String(port), '--data-dir', tempDir()]);
    const { code } = await Promise.race([s.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running: ${s.err()}`)), 15_000))]);
    expect(code, s.err()).toBe(1);
    // Before the demo data is loaded (that alone takes longer).
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(s.err()).toContain(`port ${port} on 127.0.0.1, the main port (--port ${port}), is already in use`);
    expect(s.err()).toContain('choose another with --port');
  }, 30_000);

  it('exits at once, naming the service and how to move it, when an own port is taken under --port-per-service', async () => {
    // Own ports follow --port: clinicaltrials is --port + 1.
    const own = await holdPort();
    const main = own - 1;
    const s = serve(['--port', String(main), '--port-per-service', '--data-dir', tempDir()]);
    const { code } = await Promise.race([s.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running: ${s.err()}`)), 15_000))]);
    expect(code, s.err()).toBe(1);
    expect(s.err()).toContain(`port ${own} on 127.0.0.1, the own port of clinicaltrials (--port-per-service; --port ${main} + 1), is already in use`);
    expect(s.err()).toMatch(/move every own port with --port .*"services": \{"clinicaltrials": \{"port": N\}\}/);
  }, 30_000);

  it('listens at once on a first start: live, not ready, services 503 until their demo data is in; then the banner', async () => {
    const dir = tempDir();
    const s = serve(['--port', '0', '--data-dir', dir]);
    const url = await until(
      'the early listening line',
      () => /listening on (http:\/\/[\d.:]+); loading the demo data of/.exec(s.err())?.[1] ?? (s.child.exitCode !== null ? Promise.reject(new Error(s.err())) : undefined),
      60_000,
    );
    // Before the banner: the process answers, says what is loading, and refuses what is not ready.
    expect(s.err()).not.toMatch(/serving on/);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const ready = await fetch(`${url}/ready`);
    const body = (await ready.json()) as { status: string; services: Record<string, { state: string }> };
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(body.status).toBe('loading');
    // The structure archive loads last: its services answer 503 in their own shape, saying why.
    expect(body.services['rcsb-data']?.state).toBe('loading');
    const entry = await fetch(`${url}/rcsb/data/rest/v1/core/entry/4HHB`);
    expect(entry.status).toBe(503);
    expect(entry.headers.get('retry-after')).toBe('5');
    expect(await entry.text()).toMatch(/still loading its data on this server/);
    await urlOf(s);
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    expect((await fetch(`${url}/rcsb/data/rest/v1/core/entry/4HHB`)).status).toBe(200);
    expect((await terminate(s)).code).toBe(0);
  }, 240_000);

  it('stops within 5 s of SIGTERM while the demo data loads, leaves no program behind, and the next start serves the data', async () => {
    const dir = tempDir();
    const s = serve(['--port', '0', '--data-dir', dir]);
    // The structure archive's load: its search indexes are built by MMseqs2 programs and a thread.
    await until('the structure archive to load', () => loads(dir).some((l) => l.state === 'loading') || undefined, 120_000);
    await new Promise((r) => setTimeout(r, 300));
    const stop = await terminate(s);
    expect(stop.code, s.out()).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_BOUND_MS);
    await new Promise((r) => setTimeout(r, 200));
    expect(programsIn(dir)).toEqual([]);
    // The stopped load was dropped, not switched to.
    expect(loads(dir).map((l) => l.state)).not.toContain('active');
    expect(loads(dir).map((l) => l.state)).not.toContain('loading');

    const again = serve(['--port', '0', '--data-dir', dir]);
    const url = await urlOf(again);
    const entry = await fetch(`${url}/rcsb/data/rest/v1/core/entry/4HHB`);
    expect(entry.status).toBe(200);
    expect(loads(dir).map((l) => l.state)).toContain('active');
    const end = await terminate(again);
    expect(end.code).toBe(0);
    loaded = dir;
  }, 240_000);

  it('refuses a second server on a data folder a running one holds, naming both; status and read-only readers work beside it', async () => {
    const dir = await loadedFolder();
    const first = serve(['--port', '0', '--data-dir', dir]);
    const url = await urlOf(first);
    const second = serve(['--port', '0', '--data-dir', dir]);
    const { code } = await second.exited;
    expect(code).toBe(1);
    expect(second.err()).toContain(`the data folder ${dir} is in use by another biomirror serve (pid ${first.child.pid}, ${url})`);
    expect(second.err()).toContain('--data-dir');
    // Readers beside it: the status command, and a read-only connection to the database.
    const st = spawnSync(process.execPath, [CLI, 'status', '--data-dir', dir], { env: env(), encoding: 'utf8', timeout: 60_000 });
    expect(st.status, st.stderr).toBe(0);
    expect(st.stdout).toContain(`server: ${url} (pid ${first.child.pid}`);
    expect(loads(dir, "service = 'clinicaltrials'").map((l) => l.state)).toEqual(['active']);
    // The first one kept serving.
    expect((await fetch(`${url}/clinicaltrials/api/v2/studies/NCT02710084?fields=NCTId`)).status).toBe(200);
    expect((await terminate(first)).code).toBe(0);
    // Once it is gone the folder is free again.
    const third = serve(['--port', '0', '--data-dir', dir]);
    await urlOf(third);
    expect((await terminate(third)).code).toBe(0);
  }, 240_000);

  it('stops within 5 s of SIGTERM with a request in flight and a search index building, leaving no program behind', async () => {
    const dir = await loadedFolder();
    // Indexes missing (data loaded elsewhere): the first search request starts building them.
    rmSync(join(dir, 'index'), { recursive: true, force: true });
    const s = serve(['--port', '0', '--data-dir', dir, '--faults', 'on']);
    const url = await urlOf(s);
    // A request answered only after a minute.
    const slow = fetch(`${url}/clinicaltrials/api/v2/studies?pageSize=1`, { headers: { 'x-biomirror-fault': 'slow;ms=60000' } }).then(
      (r) => r.status,
      () => 'cut',
    );
    const search = await fetch(`${url}/rcsb/search/rcsbsearch/v2/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { type: 'terminal', service: 'full_text', parameters: { value: 'hemoglobin' } }, return_type: 'entry' }),
    });
    expect(search.status).toBe(200);
    // MMseqs2 at work on the sequence index (on a fast machine the build may be over first).
    await until('MMseqs2 to run', () => programsIn(join(dir, 'index')).length > 0 || undefined, 5_000).catch(() => undefined);
    const stop = await terminate(s, 90_000);
    expect(stop.code, s.out()).toBe(0);
    expect(stop.ms).toBeLessThan(STOP_BOUND_MS);
    expect(await slow).toBe('cut');
    await new Promise((r) => setTimeout(r, 200));
    expect(programsIn(dir)).toEqual([]);
  }, 240_000);
});
