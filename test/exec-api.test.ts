/**
 * The service's HTTP interface: health, skills and their details, names checked against the
 * loaded skills, bodies checked, the token, skills that break the format, and what happens with no
 * sandbox.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecService } from '../src/services/exec/index.js';
import { DEFAULT_CONFIG } from '../src/server/config.js';
import { startServer } from '../src/server/serve.js';
import type { TestApp } from './helpers/app.js';
import { silent } from './helpers/app.js';
import { execApp, execute, FIXTURE_SKILLS, missingSandbox, TEST_SETTINGS, TEST_TOKEN } from './helpers/exec.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };
const skip = missingSandbox();

/** A skills folder with one good skill and several that break the format. */
function brokenSkills(): string {
  const dir = tempDir('biomirror-skills-');
  // Readable by the sandbox's user, as an operator's skills folder must be.
  chmodSync(dir, 0o755);
  const skill = (name: string, md: string, scripts: Record<string, string> = {}) => {
    mkdirSync(join(dir, name, 'scripts'), { recursive: true });
    writeFileSync(join(dir, name, 'SKILL.md'), md);
    for (const [f, text] of Object.entries(scripts)) writeFileSync(join(dir, name, 'scripts', f), text);
  };
  skill('good', '---\nname: good\ndescription: Fine.\n---\nBody.\n', { 'run.py': 'print("ok")\n' });
  skill('wrong-folder', '---\nname: other-name\ndescription: Name differs from folder.\n---\n');
  skill('no-description', '---\nname: no-description\n---\n');
  skill('Bad--Name', '---\nname: Bad--Name\ndescription: x\n---\n');
  skill('no-frontmatter', '# Just markdown\n');
  skill('bad-yaml', '---\nname: bad-yaml\ndescription: [unclosed\n---\n');
  skill('escapes', '---\nname: escapes\ndescription: A script that is a link out of its skill.\n---\n');
  symlinkSync('/etc/hostname', join(dir, 'escapes', 'scripts', 'leak.py'));
  mkdirSync(join(dir, 'not-a-skill'));
  return dir;
}

describe('the script-execution interface', () => {
  let store: OpenedStore;
  let t: TestApp;
  beforeAll(async () => {
    store = await (STORES[0] as (typeof STORES)[number]).open();
    t = await execApp(store, { skillDirs: [FIXTURE_SKILLS, brokenSkills()] });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('reports its health: version, sandbox, runs in flight and queued, skills left out', async () => {
    const res = await t.app.inject('/exec/api/health');
    expect(res.statusCode).toBe(200);
    const h = res.json() as { version: string; sandbox: { kind: string }; runs: Record<string, number>; skills: { count: number; invalid: { folder: string; problem: string }[] } };
    expect(h.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(h.sandbox.kind).toBe('bubblewrap');
    expect(h.runs).toMatchObject({ in_flight: 0, queued: 0, concurrency: 2 });
    const invalid = h.skills.invalid.map((p) => `${p.folder.split('/').pop()}: ${p.problem}`);
    expect(invalid).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^wrong-folder: .*differs from its folder/),
        expect.stringMatching(/^no-description: description/),
        expect.stringMatching(/^Bad--Name: name must be/),
        expect.stringMatching(/^no-frontmatter: .*frontmatter/),
        expect.stringMatching(/^bad-yaml: /),
        expect.stringMatching(/^escapes: .*outside the skill folder/),
        expect.stringMatching(/^not-a-skill: no SKILL.md/),
      ]),
    );
    expect(h.skills.count).toBe(2);
  });

  it('lists the skills with count, and each with its scripts, language and usage', async () => {
    const res = await t.app.inject('/exec/api/skills');
    const body = res.json() as { count: number; skills: { name: string; scripts: { name: string; language: string; usage: string | null }[] }[] };
    expect(body.count).toBe(2);
    expect(body.skills.map((s) => s.name)).toEqual(['probe', 'good']);
    const probe = body.skills[0];
    expect(probe).toMatchObject({ name: 'probe', license: 'MIT', compatibility: 'Needs python3.' });
    const scripts = Object.fromEntries((probe?.scripts ?? []).map((s) => [s.name, s]));
    expect(scripts.echo_args).toMatchObject({ language: 'python', usage: 'echo_args.py [ARGS...] - prints its arguments and its surroundings as JSON.' });
    expect(scripts.echo?.language).toBe('javascript');
    expect(scripts.typed?.language).toBe('typescript');
    expect(scripts.argv?.language).toBe('shell');
    expect(body.skills[1]?.scripts).toEqual([expect.objectContaining({ name: 'run', usage: null })]);
  });

  it('details one skill: frontmatter, body, scripts, references', async () => {
    const res = await t.app.inject('/exec/api/skills/probe');
    const d = res.json() as { frontmatter: unknown; body: string; env: string[]; references: string[]; scripts: unknown[] };
    expect(d.frontmatter).toMatchObject({ name: 'probe', license: 'MIT', metadata: { env: 'PROBE_DECLARED' } });
    expect(d.body).toMatch(/^# Probe/);
    expect(d.env).toEqual(['PROBE_DECLARED']);
    expect(d.references).toEqual([]);
    expect(d.scripts.length).toBeGreaterThan(5);
  });

  it.each([
    ['/exec/api/skills/nope', 404, 'no skill named "nope"'],
    ['/exec/api/skills/..', 404, 'no such endpoint'],
    ['/exec/api/skills/%2e%2e%2fprobe', 404, 'no skill'],
    ['/exec/api/skills/PROBE', 404, 'no skill'],
  ])('refuses %s with %i', async (url, status, message) => {
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, returncode: -1, stdout: '' });
    expect((res.json() as { stderr: string }).stderr).toContain(message);
  });

  it.each([
    ['probe', '..'],
    ['probe', '..%2f..%2fetc%2fpasswd'],
    ['probe', '%2e%2e'],
    ['probe', 'echo_args.py%2f..'],
    ['probe', 'echo_args%00'],
    ['probe', 'echo_args;id'],
    ['probe', 'ECHO_ARGS'],
    ['..', 'echo_args'],
    ['probe%2f..%2fprobe', 'echo_args'],
    ['wrong-folder', 'run'],
    ['escapes', 'leak'],
    ['good', '..%2f..%2fprobe%2fscripts%2fecho_args'],
  ])('refuses to run %s/%s (unknown or odd names) with 404', async (skill, script) => {
    const res = await t.app.inject({ method: 'POST', url: `/exec/api/execute/${skill}/${script}`, payload: { args: [] }, headers: AUTH });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, returncode: -1 });
  });

  it.each([
    ['args a string', { args: 'a b' }, '"args" must be an array'],
    ['an object argument', { args: [{}] }, 'args[0] must be a string'],
    ['a null argument', { args: [null] }, 'args[0] must be a string, not null'],
    ['a NUL byte', { args: ['a\0b'] }, 'NUL byte'],
    ['300 arguments', { args: Array.from({ length: 300 }, () => 'x') }, 'at most 256 arguments'],
    ['70 kB of arguments', { args: ['x'.repeat(70_000)] }, 'more than 65536'],
    ['an array body', [1, 2], 'must be a JSON object'],
  ])('refuses a body with %s with 400', async (_label, payload, message) => {
    const res = await t.app.inject({ method: 'POST', url: '/exec/api/execute/probe/echo_args', payload: payload as object, headers: AUTH });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, command: 'python3 scripts/echo_args.py' });
    expect((res.json() as { stderr: string }).stderr).toContain(message);
  });

  it('refuses malformed JSON and unknown endpoints in its own error shape', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/exec/api/execute/probe/echo_args', payload: '{"args": [', headers: { ...AUTH, 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, returncode: -1 });
    const nowhere = await t.app.inject('/exec/api/nothing');
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toMatchObject({ success: false });
  });

  it.skipIf(skip !== '')(`runs a script by its name or its file name, with no body or an empty one${skip}`, async () => {
    for (const payload of [undefined, {}, { args: [] }]) {
      const res = await t.app.inject({ method: 'POST', url: '/exec/api/execute/good/run.py', headers: AUTH, ...(payload ? { payload } : {}) });
      expect(res.json()).toMatchObject({ success: true, returncode: 0, stdout: 'ok\n', stderr: '', command: 'python3 scripts/run.py' });
    }
  });
});

describe('the bearer token', () => {
  it('is needed to run scripts when the token is required, and the right one is accepted', async () => {
    const store = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await execApp(store, { auth: 'always', token: 'secret-token-1' });
    try {
      const none = await execute(t.app, 'probe', 'echo_args');
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toContain('Bearer');
      expect(none.json.stderr).toContain('bearer token');
      expect((await execute(t.app, 'probe', 'echo_args', [], { authorization: 'Bearer wrong' })).status).toBe(401);
      // Reading the skills needs none.
      expect((await t.app.inject('/exec/api/skills')).statusCode).toBe(200);
      if (skip === '') expect((await execute(t.app, 'probe', 'echo_args', [], { authorization: 'Bearer secret-token-1' })).status).toBe(200);
    } finally {
      await t.close();
      await store.cleanup();
    }
  });

  it('is needed by a server that is not listening, which cannot see where a request came from', async () => {
    const store = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await execApp(store, { auth: 'auto', token: 'secret-token-2' });
    try {
      expect(t.app.server.address()).toBeNull();
      expect((await execute(t.app, 'probe', 'echo_args', [], { authorization: '' })).status).toBe(401);
      expect((await execute(t.app, 'probe', 'nope', [], { authorization: 'Bearer secret-token-2' })).status).toBe(404);
    } finally {
      await t.close();
      await store.cleanup();
    }
  });

  it('is needed when the server listens beyond loopback, not on loopback; made once and kept in the database', async () => {
    const dataDir = tempDir();
    const exec = createExecService({ ...TEST_SETTINGS, token: undefined });
    const run = async (host: string) => {
      const server = await startServer({ ...DEFAULT_CONFIG, host, port: 0, dataDir, demo: false }, [exec], silent);
      try {
        const port = new URL(server.apps[0]?.url as string).port;
        const res = await fetch(`http://127.0.0.1:${port}/exec/api/execute/probe/nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"args":[]}' });
        const notes = await exec.startupNotes?.({ db: server.runtime.db, generations: server.runtime.generations, log: silent });
        return { status: res.status, token: /execution token[^:]*: (\S+)/.exec(notes?.join('\n') ?? '')?.[1] };
      } finally {
        await server.close();
      }
    };
    const open = await run('0.0.0.0');
    expect(open.status).toBe(401);
    expect(open.token).toMatch(/^bmx_[A-Za-z0-9_-]{32}$/);
    const local = await run('127.0.0.1');
    // Past the token check: the unknown script is what is refused.
    expect(local.status).toBe(404);
    expect(local.token).toBe(open.token);
  });
});

describe('without a sandbox', () => {
  it('refuses to run scripts, saying why, unless the operator opted in', async () => {
    const store = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await execApp(store, { bwrap: '/nonexistent/bwrap' });
    try {
      const r = await execute(t.app, 'probe', 'echo_args');
      expect(r.status).toBe(503);
      expect(r.json.success).toBe(false);
      expect(r.json.stderr).toContain('no sandbox is available (/nonexistent/bwrap is not installed)');
      const h = (await t.app.inject('/exec/api/health')).json() as { status: string; sandbox: { state: string } };
      expect(h).toMatchObject({ status: 'degraded', sandbox: { state: 'unavailable' } });
    } finally {
      await t.close();
      await store.cleanup();
    }
  });

  it('runs unsandboxed when opted in, still with a scrubbed environment, a temp folder and the proxy', async () => {
    const store = await (STORES[0] as (typeof STORES)[number]).open();
    const t = await execApp(store, { sandbox: 'none' });
    try {
      const r = await execute(t.app, 'probe', 'echo_args', ['x']);
      expect(r.json.success).toBe(true);
      const out = JSON.parse(r.json.stdout) as { args: string[]; cwd: string; env: Record<string, string> };
      expect(out.args).toEqual(['x']);
      expect(out.env.HTTPS_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out.env.HOME).toBe(out.cwd);
      expect(Object.keys(out.env)).not.toContain('TEST_DATABASE_URL');
      const h = (await t.app.inject('/exec/api/health')).json() as { sandbox: { state: string } };
      expect(h.sandbox.state).toBe('unsandboxed');
    } finally {
      await t.close();
      await store.cleanup();
    }
  });
});

describe.each(STORES)('the service secrets on $name', (target) => {
  it('are made once and kept: the token and the CA survive a restart', async () => {
    const store = await target.open();
    try {
      const { secret } = await import('../src/services/exec/secrets.js');
      const { migrate } = await import('../src/core/store/migrations.js');
      const { SECRETS_MIGRATIONS } = await import('../src/services/exec/secrets.js');
      await migrate(store.db, 'exec', SECRETS_MIGRATIONS);
      let made = 0;
      const make = () => `value-${++made}`;
      const [a, b] = await Promise.all([secret(store.db, 'token', make), secret(store.db, 'token', make)]);
      expect(a).toBe(b);
      expect(await secret(store.db, 'token', make)).toBe(a);
    } finally {
      await store.cleanup();
    }
  });
});
