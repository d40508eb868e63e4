import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { runCli } from './helpers/cli.js';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from '../src/core/store/sqlite-driver.js';
import { describe, expect, it } from 'vitest';
import { LineProgress, TerminalProgress } from '../src/core/ingest/progress.js';
import { syntheticFile } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: npm test builds it first (npm run build)');

function envFor(s: OpenedStore): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: s.options.dataDir, BIOMIRROR_PROGRESS_MS: '50' };
  delete env.DATABASE_URL;
  if (s.options.databaseUrl) {
    const sep = s.options.databaseUrl.includes('?') ? '&' : '?';
    env.DATABASE_URL = `${s.options.databaseUrl}${sep}options=${encodeURIComponent(`-c search_path=${s.options.schema as string}`)}`;
  }
  return env;
}

// Each call starts the CLI as a process (seconds apiece on a busy two-core machine): tests that make
// several allow 120 s, a bound such a machine meets.
const cli = (args: string[], env: NodeJS.ProcessEnv) => runCli(CLI, args, env);

async function statusJson(env: NodeJS.ProcessEnv) {
  const r = await cli(['status', '--json'], env);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as { services: { id: string; datasets: { records: number; generation: number | null; source?: string }[] }[] };
}

/** Kills a load mid-way, once its progress shows written batches, and waits for it to end. */
async function killOnceWriting(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      if (/ [1-9][\d,]* records/.test(seen)) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`ingest ended before it could be killed: ${seen}`)));
  });
  await new Promise((r) => child.once('exit', r));
}

for (const target of STORES) {
  describe(`biomirror command on ${target.name}`, () => {
    it('ingests with progress lines off a terminal, and status shows the load', async () => {
      const s = await target.open();
      try {
        const env = envFor(s);
        const file = syntheticFile(3000);
        const r = await cli(['ingest', 'clinicaltrials', file, '--batch-size', '100', '--release', '2026-11-01'], env);
        expect(r.code, r.err).toBe(0);
        expect(r.err).toMatch(/clinicaltrials\/studies: \d+% [\d,]+ records, 0 skipped, [\d,]+\/s, ETA/);
        expect(r.err).toMatch(/loaded 3,000 records as generation \d+ \(release 2026-11-01\)/);
        const st = (await statusJson(env)).services.find((x) => x.id === 'clinicaltrials');
        expect(st?.datasets[0]).toMatchObject({ records: 3000, source: file });
        const text = await cli(['status'], env);
        expect(text.out).toMatch(/studies: 3,000 records \(generation \d+\)/);
        expect(text.out).toMatch(/release 2026-11-01/);
      } finally {
        await s.cleanup();
      }
    }, 120_000);

    it('loads the demo data again with `demo`, replacing another load', async () => {
      const s = await target.open();
      try {
        const env = envFor(s);
        expect((await cli(['ingest', 'clinicaltrials', syntheticFile(50)], env)).code).toBe(0);
        const mine = (await statusJson(env)).services.find((x) => x.id === 'clinicaltrials')?.datasets[0];
        expect(mine?.records).toBe(50);
        const r = await cli(['demo', 'clinicaltrials'], env);
        expect(r.code, r.err).toBe(0);
        expect(r.err).toMatch(/loaded 18 records as generation \d+/);
        const after = (await statusJson(env)).services.find((x) => x.id === 'clinicaltrials')?.datasets[0];
        expect(after).toMatchObject({ records: 18, source: 'demo:clinicaltrials/studies' });
        expect(after?.generation).toBeGreaterThan(mine?.generation as number);
        expect(await cli(['demo', 'nosuch'], env)).toMatchObject({ code: 2 });
      } finally {
        await s.cleanup();
      }
    }, 120_000);

    it('exits 2 with a clear message on a file of the wrong format, and lists skipped records', async () => {
      const s = await target.open();
      try {
        const env = envFor(s);
        const dir = tempDir();
        const bad = join(dir, 'table.csv');
        writeFileSync(bad, 'a,b\n1,2\n');
        const r = await cli(['ingest', 'clinicaltrials', bad], env);
        expect(r.code).toBe(2);
        expect(r.err).toMatch(/table\.csv: not ClinicalTrials\.gov study JSON/);
        const mixed = join(dir, 'mixed.jsonl');
        writeFileSync(mixed, `${JSON.stringify({ protocolSection: { identificationModule: { nctId: 'NCT01234567' } } })}\nnot json\n`);
        const m = await cli(['ingest', 'clinicaltrials', mixed], env);
        expect(m.code).toBe(0);
        expect(m.err).toMatch(/skipped .*mixed\.jsonl at line 2: invalid JSON/);
        expect(m.err).toMatch(/loaded 1 records, skipped 1/);
        expect((await cli(['ingest', 'nosuchservice', mixed], env)).code).toBe(2);
        // A host without data of its own names the service whose loads it serves.
        const host = await cli(['ingest', 'rcsb-files', mixed], env);
        expect(host.code).toBe(2);
        expect(host.err).toContain('rcsb-files loads nothing of its own; it serves what rcsb-data loads');
      } finally {
        await s.cleanup();
      }
    }, 120_000);

    it('says what a load replaced and what an update changed; a killed update changes nothing', async () => {
      const s = await target.open();
      try {
        const env = envFor(s);
        const first = syntheticFile(20, { seed: 3 });
        const a = await cli(['ingest', 'clinicaltrials', first], env);
        expect(a.code, a.err).toBe(0);
        expect(a.out).toBe('clinicaltrials/studies: nothing was loaded before\n');
        // 5 studies of the first file again (replaced) and 5 new ones.
        const update = syntheticFile(10, { seed: 3, start: 15 });
        const u = await cli(['ingest', 'clinicaltrials', update, '--update'], env);
        expect(u.code, u.err).toBe(0);
        expect(u.out).toMatch(
          /^updated clinicaltrials\/studies: studies 5 added, 5 replaced, 0 deleted; now 25 studies \(generation \d+\)\n {2}started from 20 studies loaded \d{4}-\d{2}-\d{2} from .*studies-3-0-20\.jsonl, release \S+ \(generation \d+\)\n$/,
        );
        expect((await cli(['status'], env)).out).toMatch(/studies: 25 records \(generation \d+\), updated \S+ from generation \d+/);
        const before = (await statusJson(env)).services.find((x) => x.id === 'clinicaltrials')?.datasets[0];
        const big = syntheticFile(12_000, { seed: 6 });
        await killOnceWriting(spawn(process.execPath, [CLI, 'ingest', 'clinicaltrials', big, '--update', '--batch-size', '200'], { env }));
        expect((await statusJson(env)).services.find((x) => x.id === 'clinicaltrials')?.datasets[0]).toEqual(before);
        const full = await cli(['ingest', 'clinicaltrials', syntheticFile(2, { seed: 8 })], env);
        expect(full.code, full.err).toBe(0);
        expect(full.out).toMatch(/^replaced clinicaltrials\/studies: 25 studies loaded \d{4}-\d{2}-\d{2} from .*studies-3-15-10\.jsonl, release \S+ \(generation \d+\)\n$/);
        expect((await cli(['ingest', 'clinicaltrials', join(tempDir(), 'none.jsonl'), '--update'], env)).code).toBe(2);
      } finally {
        await s.cleanup();
      }
    }, 120_000);

    it('keeps serving the old data when a load is killed, and the next load clears what it left', async () => {
      const s = await target.open();
      try {
        const env = envFor(s);
        expect((await cli(['ingest', 'clinicaltrials', syntheticFile(50, { seed: 9 })], env)).code).toBe(0);
        const before = (await statusJson(env)).services[0]?.datasets[0];
        const big = syntheticFile(40_000, { seed: 4 });
        await killOnceWriting(spawn(process.execPath, [CLI, 'ingest', 'clinicaltrials', big, '--batch-size', '200'], { env }));
        const after = (await statusJson(env)).services[0]?.datasets[0];
        expect(after).toEqual(before);
        const leftovers = await loadingTables(s);
        expect(leftovers.length).toBeGreaterThan(0);
        expect((await cli(['ingest', 'clinicaltrials', syntheticFile(7, { seed: 5 })], env)).code).toBe(0);
        expect(await loadingTables(s, leftovers)).toEqual([]);
        expect((await statusJson(env)).services[0]?.datasets[0]?.records).toBe(7);
      } finally {
        await s.cleanup();
      }
    }, 120_000);

    it('serves, and stops cleanly on SIGTERM', async () => {
      const s = await target.open();
      try {
        const env = { ...envFor(s), PORT: '0', BIOMIRROR_LIMITS: 'off' };
        const child = spawn(process.execPath, [CLI, 'serve'], { env });
        const url = await new Promise<string>((resolve, reject) => {
          let seen = '';
          child.stderr.on('data', (d: Buffer) => {
            seen += d.toString();
            const m = /serving on (http:\/\/[\d.:]+)/.exec(seen);
            if (m) resolve(m[1] as string);
          });
          child.on('exit', () => reject(new Error(seen)));
        });
        // The demo token answers from the first request on (it is made before the server listens).
        const token = await fetch(`${url}/protocols/api/v3/protocols/90001`, { headers: { authorization: 'Bearer demo-client-token' } });
        expect(token.status).toBe(200);
        const r = await fetch(`${url}/clinicaltrials/api/v2/studies/NCT02710084?fields=NCTId`);
        expect(r.status).toBe(200);
        // A legacy-format file is converted on a pool thread, which must not keep the process alive.
        const pdb = await fetch(`${url}/rcsb/files/download/4hhb.pdb`);
        expect(pdb.status).toBe(200);
        expect(await pdb.text()).toMatch(/^HEADER/);
        // status names the address the running server took (an ephemeral port here), not the default.
        const st = await cli(['status'], env);
        expect(st.out).toContain(`server: ${url} (pid ${child.pid}`);
        expect(st.out).toContain(`https://clinicaltrials.gov/api/v2 = ${url}/clinicaltrials/api/v2`);
        const out: string[] = [];
        child.stdout.on('data', (d: Buffer) => out.push(d.toString()));
        child.kill('SIGTERM');
        const code = await new Promise<number | null>((res) => child.once('exit', (c) => res(c)));
        expect(code).toBe(0);
        expect(out.join('')).toMatch(/"msg":"stopped"/);
        expect((await cli(['status'], env)).out).toMatch(/server: not running \(serve would listen on http:\/\/127\.0\.0\.1:0\)/);
      } finally {
        await s.cleanup();
      }
    }, 120_000);
  });
}

/** Generation tables of loads still marked `loading` (or, given names, which of them remain). */
async function loadingTables(s: OpenedStore, names?: string[]): Promise<string[]> {
  if (s.db.dialect === 'sqlite') {
    const db = new Database(join(s.options.dataDir, 'biomirror.sqlite'), { readonly: true });
    try {
      const ids = names ? [] : (db.prepare("SELECT id FROM bm_loads WHERE state = 'loading'").all() as { id: number }[]).map((r) => r.id);
      const all = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ct_%'").all() as { name: string }[]).map((r) => r.name);
      return names ? all.filter((n) => names.includes(n)) : all.filter((n) => ids.some((id) => n.endsWith(`_g${id}`)));
    } finally {
      db.close();
    }
  }
  const ids = names ? [] : (await s.db.query<{ id: number }>("SELECT id FROM bm_loads WHERE state = 'loading'")).map((r) => Number(r.id));
  const all = (await s.db.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'ct_%'")).map((r) => r.name);
  return names ? all.filter((n) => names.includes(n)) : all.filter((n) => ids.some((id) => n.endsWith(`_g${id}`)));
}

describe('output to a reader that stops early', () => {
  it('ends quietly with status 0 when the pipe closes (biomirror services | head -1)', async () => {
    // Through a shell pipeline, as a user types it: head exits after its line and closes the pipe.
    const r = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${CLI}" services --port 18100 | head -c 1 >/dev/null`], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
    // The same with the status of biomirror itself, read from a pipe closed after one byte.
    const child = spawn(process.execPath, [CLI, 'services'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(err).not.toMatch(/EPIPE/);
    expect(code).toBe(0);
  });
});

describe('biomirror <service>', () => {
  it('tells, for every service, where it answers, how its data is loaded and its own commands', async () => {
    const env = { ...process.env, DATA_DIR: tempDir() };
    const eutils = await cli(['eutils'], env);
    expect(eutils.code, eutils.err).toBe(0);
    expect(eutils.out).toContain('served under /eutils');
    expect(eutils.out).toContain('biomirror ingest eutils <file-or-folder> --dataset clinvar');
    expect(eutils.out).toContain('biomirror fetch eutils clinvar');
    expect(eutils.out).toContain('eutils has no commands of its own');
    const exec = await cli(['exec'], env);
    expect(exec.out).toContain('it loads no data of its own');
    const protocols = await cli(['protocols'], env);
    expect(protocols.out).toContain('biomirror protocols add-user');
    const wrong = await cli(['gwas', 'frobnicate'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('unknown command "frobnicate"');
    expect(wrong.err).toContain('biomirror ingest gwas <file-or-folder> --dataset catalog');
  });
});

describe('biomirror services', () => {
  it('lists own ports that follow --port in the order of the defaults, with a configured one kept', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: tempDir() };
    delete env.PORT;
    delete env.BIOMIRROR_CONFIG;
    const own = (out: string): Record<string, number> =>
      Object.fromEntries([...out.matchAll(/^(\S+)\t.*\n(?: {2}(?!own port).*\n)+ {2}own port with --port-per-service: (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
    const defaults = await cli(['services'], env);
    expect(defaults.code, defaults.err).toBe(0);
    expect(own(defaults.out)).toMatchObject({ clinicaltrials: 8081, eutils: 8082, pubchem: 8084, 'rcsb-search': 8091, exec: 8094 });
    const moved = await cli(['services', '--port', '18100'], env);
    expect(moved.out).toContain('https://clinicaltrials.gov/api/v2 = http://127.0.0.1:18100/clinicaltrials/api/v2');
    // The real service's address each base URL stands for, not a placeholder's name.
    expect(moved.out).not.toMatch(/\{\w+_url\}/);
    expect(moved.out).toContain("biomirror's own = http://127.0.0.1:18100/exec");
    const ports = own(moved.out);
    expect(Object.keys(ports)).toHaveLength(14);
    for (const [id, p] of Object.entries(own(defaults.out))) expect(ports[id], id).toBe(p + 18100 - 8080);
    expect(moved.out).toContain('own port with --port-per-service: 18101 (--port 18100 + 1)');
    const config = join(tempDir(), 'biomirror.config.json');
    writeFileSync(config, JSON.stringify({ services: { pubchem: { port: 9999 } } }));
    const set = await cli(['services', '--port', '18100', '--config', config], env);
    expect(own(set.out)).toMatchObject({ pubchem: 9999, clinicaltrials: 18101 });
    expect(set.out).toContain('own port with --port-per-service: 9999 (set by services.pubchem.port in the config file)');
  });
});

describe('progress display', () => {
  it('draws a bar with records, rate and ETA on a terminal', () => {
    let written = '';
    const fake = { write: (s: string) => ((written += s), true), isTTY: true } as unknown as NodeJS.WriteStream;
    const p = new TerminalProgress(fake);
    p.update({ label: 'x/y', records: 5000, skipped: 2, fraction: 0.5, startedAt: Date.now() - 2000 });
    // The line is redrawn in place: carriage return, then "erase line".
    expect(written.startsWith('\r\u001b[2K')).toBe(true);
    expect(written).toMatch(/x\/y █{12}░{12} {2}50% 5,000 records, 2 skipped · 2,[45]\d\d\/s · ETA 0:0[12]/);
    p.done({ label: 'x/y', records: 10000, skipped: 2, fraction: 1, startedAt: Date.now() - 4000 }, 'finished');
    expect(written).toMatch(/100% 10,000 records.*in 0:04\nfinished\n$/);
  });

  it('writes plain lines at an interval elsewhere', () => {
    const lines: string[] = [];
    const p = new LineProgress((l) => lines.push(l), 0);
    p.update({ label: 'x/y', records: 10, skipped: 0, fraction: undefined, startedAt: Date.now() - 1000 });
    expect(lines[0]).toMatch(/^x\/y: 10 records, 0 skipped, 10\/s, ETA unknown$/);
  });
});
