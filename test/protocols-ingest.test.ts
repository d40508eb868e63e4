import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runCli } from './helpers/cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormatError } from '../src/core/ingest/errors.js';
import { runLoad } from '../src/core/ingest/load.js';
import { checkLogin, findClient, findUser, secretMatches } from '../src/services/protocols/accounts.js';
import { commands } from '../src/services/protocols/commands.js';
import { DEMO } from '../src/services/protocols/demo.js';
import { protocols } from '../src/services/protocols/index.js';
import type { ServiceContext } from '../src/services/types.js';
import { silent, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { PROTOCOLS, api, loadProtocols, protoApp } from './helpers/protocols.js';

const proto = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Protocol ${id}`,
  uri: `protocol-${id}`,
  public: 1,
  published_on: 1600000000 + id,
  created_on: 1500000000,
  creator: { name: 'Someone', username: 'someone' },
  steps: [{ id: id * 10, components: [{ type_id: 1, source: { description: '<p>x</p>' } }] }],
  ...extra,
});

async function run(name: string, args: string[], ctx: ServiceContext): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const cmd = commands[name];
  if (!cmd) throw new Error(`no command ${name}`);
  const code = await cmd.run(args, ctx, (l) => lines.push(l));
  return { code, lines };
}

const value = (lines: string[], label: string) => lines.find((l) => l.startsWith(`${label}: `))?.slice(label.length + 2) as string;

for (const target of STORES) {
  describe(`protocol ingest on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let token: string;

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      const ctx = { db: s.db, generations: t.generations, log: silent };
      await run('add-user', ['someone', 'password=long enough pw'], ctx);
      await run('add-client', ['App', 'someone', 'https://app.example/cb'], ctx);
      const id = (await s.db.one<{ client_id: string }>('SELECT client_id FROM proto_clients'))?.client_id as string;
      token = value((await run('client-token', [id], ctx)).lines, 'CLIENT_ACCESS_TOKEN');
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    const listed = async () => {
      const r = await api(t.app, 'protocols?filter=public&order_field=id&order_dir=asc&page_size=100', token);
      return (r.body.items as { id: number }[]).map((p) => p.id);
    };

    it('loads the demo folder: one protocol per file, or a saved Get Protocol response', async () => {
      const r = await loadProtocols(s.db, t.generations);
      expect(r).toMatchObject({ records: 7, skipped: 0 });
    });

    it('loads lists, Get List pages and JSON lines (gzipped too), skipping what is not a protocol', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'a-list.json'), JSON.stringify([proto(1), { title: 'no id' }, proto(2)]));
      writeFileSync(join(dir, 'b-page.json'), JSON.stringify({ items: [proto(3), proto(4, { uri: 'has space' })], total: 2, total_pages: 1, status_code: 0 }));
      const lines = [JSON.stringify(proto(5)), 'not json', JSON.stringify([proto(6), proto(7)]), JSON.stringify({ protocol: proto(8), status_code: 0 }), ''];
      writeFileSync(join(dir, 'c-lines.jsonl.gz'), gzipSync(lines.join('\n')));
      writeFileSync(join(dir, 'd-dupes.json'), JSON.stringify([proto(1, { uri: 'another-uri' }), proto(9, { uri: 'protocol-2' }), proto(10)]));
      writeFileSync(join(dir, 'notes.txt'), 'ignored');
      const r = await loadProtocols(s.db, t.generations, dir);
      expect(r.records).toBe(8);
      expect(r.skipped).toBe(5);
      t.generations.invalidate();
      expect(await listed()).toEqual([1, 2, 3, 5, 6, 7, 8, 10]);
      const one = await api(t.app, 'protocols/protocol-8', token);
      expect(one.body.protocol).toMatchObject({ id: 8, number_of_steps: 1 });
    });

    it('reads the current API’s answers: a v4 payload, Draft.js rich text, boolean public', async () => {
      const dir = tempDir();
      const draft = JSON.stringify({
        blocks: [{ key: 'a1b2c', text: 'Keep cells on ice.', type: 'unstyled', depth: 0, inlineStyleRanges: [{ offset: 5, length: 5, style: 'BOLD' }], entityRanges: [], data: {} }],
        entityMap: {},
      });
      const doc = proto(30, { public: true, description: draft, steps: [{ id: 301, step: draft, components: [] }] });
      writeFileSync(join(dir, 'v4.json'), JSON.stringify({ payload: doc, status_code: 0 }));
      const r = await loadProtocols(s.db, t.generations, dir);
      expect(r).toMatchObject({ records: 1, skipped: 0 });
      t.generations.invalidate();
      const html = await api(t.app, 'protocols/30', token);
      expect((html.body.protocol as Record<string, unknown>).description).toBe('<p>Keep <b>cells</b> on ice.</p>');
      const md = await api(t.app, 'protocols/30/steps?content_format=markdown', token);
      expect((md.body.steps as { step: string }[])[0]?.step).toBe('Keep **cells** on ice.');
      const found = await api(t.app, 'protocols?filter=public&key=cells%20ice', token);
      expect(found.body.total).toBe(1);
    });

    it('reports the reason of each skipped record', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'x.json'), JSON.stringify([proto(20), { id: 21, uri: 'u21' }, 'text', proto(20, { uri: 'dup' })]));
      const reasons: string[] = [];
      const r = await runLoad(s.db, t.generations, PROTOCOLS, dir, { onSkip: (p, why) => reasons.push(`${p.position}: ${why}`) });
      expect(r.records).toBe(1);
      expect(reasons).toEqual(['item 1: protocol 21: no "title"', 'item 2: not a JSON object', 'item 3: duplicate: a record with the same identifier was already loaded from an earlier place']);
    });

    it('refuses input that holds no protocols, leaving the served data as it was', async () => {
      t.generations.invalidate();
      const before = await listed();
      const dir = tempDir();
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, 'this is not json');
      await expect(loadProtocols(s.db, t.generations, bad)).rejects.toThrow(FormatError);
      const empty = join(dir, 'empty.json');
      writeFileSync(empty, JSON.stringify([{ nope: 1 }]));
      await expect(loadProtocols(s.db, t.generations, empty)).rejects.toThrow(/no protocols records found/);
      const none = join(dir, 'sub');
      mkdirSync(none);
      writeFileSync(join(none, 'readme.md'), '#');
      await expect(loadProtocols(s.db, t.generations, none)).rejects.toThrow(/no protocol files found/);
      t.generations.invalidate();
      expect(await listed()).toEqual(before);
    });
  });

  describe(`protocol commands and demo accounts on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let ctx: ServiceContext;

    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      ctx = { db: s.db, generations: t.generations, log: silent };
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('adds users with a given or generated password, stored as a slow hash', async () => {
      const a = await run('add-user', ['alice', 'password=alice password', 'name=Alice Adams', 'affiliation=Lab A'], ctx);
      expect(a).toEqual({ code: 0, lines: ['user alice created'] });
      expect(await findUser(s.db, 'alice')).toMatchObject({ name: 'Alice Adams', affiliation: 'Lab A' });
      expect(await checkLogin(s.db, 'alice', 'alice password')).toMatchObject({ username: 'alice' });
      const row = await s.db.one<{ password_hash: string }>("SELECT password_hash FROM proto_users WHERE username = 'alice'");
      expect(row?.password_hash).toMatch(/^scrypt\$/);
      expect(row?.password_hash).not.toContain('alice password');
      const b = await run('add-user', ['bob'], ctx);
      const generated = value(b.lines, 'password');
      expect(generated.length).toBeGreaterThanOrEqual(16);
      expect(await checkLogin(s.db, 'bob', generated)).toBeDefined();
      await expect(run('add-user', ['alice', 'password=whatever123'], ctx)).rejects.toThrow('user "alice" already exists');
      await expect(run('add-user', ['bad name'], ctx)).rejects.toThrow(/invalid username/);
      await expect(run('add-user', ['carl', 'password=short'], ctx)).rejects.toThrow(/at least 8/);
      await expect(run('add-user', [], ctx)).rejects.toThrow(/one username/);
    });

    it('registers applications with a secret shown once and stored as a digest', async () => {
      const r = await run('add-client', ['Alice app', 'alice', 'https://app.example/cb', 'http://127.0.0.1/cb?x=1'], ctx);
      const id = value(r.lines, 'client_id');
      const secret = value(r.lines, 'client_secret');
      expect(id).toMatch(/^pr_live_id_[0-9a-f]{20}$/);
      expect(secret).toMatch(/^pr_live_sc_[0-9a-f]{48}$/);
      const client = await findClient(s.db, id);
      expect(client?.redirectUris).toEqual(['https://app.example/cb', 'http://127.0.0.1/cb?x=1']);
      expect(secretMatches(client as NonNullable<typeof client>, secret)).toBe(true);
      const stored = await s.db.one<{ secret_hash: string }>('SELECT secret_hash FROM proto_clients WHERE client_id = ?', [id]);
      expect(stored?.secret_hash).not.toContain(secret);
      await expect(run('add-client', ['X', 'nobody', 'https://x.example/cb'], ctx)).rejects.toThrow(/no user "nobody"/);
      await expect(run('add-client', ['X', 'alice', 'https://x.example/cb#f'], ctx)).rejects.toThrow(/fragment/);
      await expect(run('add-client', ['X', 'alice'], ctx)).rejects.toThrow(/at least one redirect URI/);
    });

    it('issues a CLIENT_ACCESS_TOKEN for the client user', async () => {
      await loadProtocols(s.db, t.generations);
      const id = (await s.db.one<{ client_id: string }>("SELECT client_id FROM proto_clients WHERE name = 'Alice app'"))?.client_id as string;
      const r = await run('client-token', [id], ctx);
      const token = value(r.lines, 'CLIENT_ACCESS_TOKEN');
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(Date.parse(value(r.lines, 'expires')) - Date.now()).toBeGreaterThan(364 * 86400_000);
      expect((await api(t.app, 'protocols?filter=public', token)).status).toBe(200);
      await expect(run('client-token', ['pr_live_id_none'], ctx)).rejects.toThrow(/no client/);
    });

    it('creates the demo account and application only while the demo protocols are served, and disables them after', async () => {
      const notes = protocols.startupNotes as NonNullable<typeof protocols.startupNotes>;
      // Served data that is not the demo's: no demo accounts.
      await s.db.run("UPDATE bm_loads SET source = 'elsewhere.json'");
      t.generations.invalidate();
      expect(await notes(ctx)).toEqual([]);
      expect(await findUser(s.db, DEMO.username)).toBeUndefined();
      await s.db.run("UPDATE bm_loads SET source = 'demo:protocols/protocols'");
      const lines = await notes(ctx);
      expect(lines.join('\n')).toContain(`demo user ${DEMO.username}, password ${DEMO.password}`);
      expect(lines.join('\n')).toContain(`client_id ${DEMO.clientId}, client_secret ${DEMO.clientSecret}`);
      expect(lines.join('\n')).toContain(`CLIENT_ACCESS_TOKEN ${DEMO.clientToken}`);
      expect(await notes(ctx)).toEqual(lines);
      expect(await checkLogin(s.db, DEMO.username, DEMO.password)).toBeDefined();
      const mine = await api(t.app, 'protocols?filter=user_private', DEMO.clientToken);
      expect((mine.body.items as { id: number }[]).map((p) => p.id).sort()).toEqual([90005, 90006]);
      const client = await findClient(s.db, DEMO.clientId);
      expect(secretMatches(client as NonNullable<typeof client>, DEMO.clientSecret)).toBe(true);

      // Real data replaces the demo: the public credentials stop working.
      await s.db.run("UPDATE bm_loads SET source = 'real-export.json'");
      const retired = await notes(ctx);
      expect(retired).toEqual([`the demo account ${DEMO.username} and application ${DEMO.clientId} are disabled: the demo protocols are no longer served`]);
      expect(await notes(ctx)).toEqual([]);
      expect(await checkLogin(s.db, DEMO.username, DEMO.password)).toBeUndefined();
      expect((await api(t.app, 'protocols?filter=public', DEMO.clientToken)).status).toBe(401);
      const off = await findClient(s.db, DEMO.clientId);
      expect(secretMatches(off as NonNullable<typeof off>, DEMO.clientSecret)).toBe(false);
      // Serving the demo again brings them back.
      await s.db.run("UPDATE bm_loads SET source = 'demo:protocols/protocols'");
      await notes(ctx);
      expect(await checkLogin(s.db, DEMO.username, DEMO.password)).toBeDefined();
      expect((await api(t.app, 'protocols?filter=public', DEMO.clientToken)).status).toBe(200);
    });
  });
}

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

describe('biomirror protocols <command> on the command line', () => {
  it('adds a user and a client and prints a token, through the built command', async () => {
    if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: npm test builds it first (npm run build)');
    const target = STORES[0];
    if (!target) throw new Error('no store');
    const s = await target.open();
    await s.db.close();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: s.options.dataDir };
    delete env.DATABASE_URL;
    const cli = async (args: string[]) => {
      const r = await runCli(CLI, args, env);
      return { status: r.code, stdout: r.out, stderr: r.err };
    };
    try {
      // Options as flags, with the platform's own --data-dir among them.
      const u = await cli(['protocols', 'add-user', 'dana', '--password', 'dana password', '--name=Dana D', '--data-dir', s.options.dataDir]);
      expect(u.status, u.stderr).toBe(0);
      expect(u.stdout).toBe('user dana created\n');
      const e = await cli(['protocols', 'add-user', 'erin', 'password=erin password']);
      expect(e.status, e.stderr).toBe(0);
      const c = await cli(['protocols', 'add-client', 'Dana app', 'dana', 'https://dana.example/cb']);
      expect(c.status, c.stderr).toBe(0);
      const id = /client_id: (\S+)/.exec(c.stdout)?.[1] as string;
      const tk = await cli(['protocols', 'client-token', id]);
      expect(tk.status, tk.stderr).toBe(0);
      expect(tk.stdout).toMatch(/^CLIENT_ACCESS_TOKEN: [0-9a-f]{64}\n/);
      const dup = await cli(['protocols', 'add-user', 'dana', 'password=dana password']);
      expect(dup.status).toBe(1);
      expect(dup.stderr).toContain('user "dana" already exists');
      // Without a command, the service's page lists its commands (and is not an error).
      const usage = await cli(['protocols']);
      expect(usage.status, usage.stderr).toBe(0);
      expect(usage.stdout).toContain('biomirror protocols add-user <username>');
      const unknown = await cli(['protocols', 'frobnicate']);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain('unknown command "frobnicate"');
    } finally {
      await s.cleanup();
    }
  });
});
