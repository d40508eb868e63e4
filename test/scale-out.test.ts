/**
 * Several biomirror processes on one PostgreSQL and one Redis, as behind any balancer: every piece of
 * short-lived state made by one process is usable at the other (PubChem ListKeys, E-utilities
 * history, OAuth sign-in sessions, codes and tokens, rate budgets), and killing one process in the
 * middle of a request loses nothing the other serves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, STORES, type OpenedStore } from './helpers/stores.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
const pg = STORES.find((s) => s.name === 'postgres');
const reason = !pg ? 'needs PostgreSQL (TEST_DATABASE_URL)' : !REDIS_URL ? 'needs Redis (TEST_REDIS_URL)' : !existsSync(CLI) ? 'needs the build (npm run build)' : '';

interface Proc {
  child: ChildProcess;
  url: string;
}

function envFor(s: OpenedStore): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn', BIOMIRROR_LIMITS: 'off', BIOMIRROR_FAULTS: 'on', REDIS_URL };
  const url = s.options.databaseUrl as string;
  env.DATABASE_URL = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${s.options.schema as string}`)}`;
  env.DATA_DIR = s.options.dataDir;
  // Every non-fast structure search answers with a ListKey at once, so the list is polled elsewhere.
  env.BIOMIRROR_PUBCHEM_SYNC_MS = '0';
  // Searches go on the shared queue; a prefix of this run's own keeps other runs' jobs apart.
  env.BIOMIRROR_QUEUE_PREFIX = `bmtest${s.options.schema as string}`;
  return env;
}

function serve(env: NodeJS.ProcessEnv, args: string[] = []): Promise<Proc> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /serving on (http:\/\/[\d.:]+)/.exec(seen);
      if (m) resolve({ child, url: m[1] as string });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${seen}`)));
  });
}

function stop(p: Proc | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => {
    p.child.once('exit', () => r());
    p.child.kill(signal);
  });
}

/** A browser's cookies across both processes. */
class Jar {
  private readonly c = new Map<string, string>();
  take(r: Response): void {
    for (const line of r.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const i = pair.indexOf('=');
      if (/Max-Age=0/i.test(line)) this.c.delete(pair.slice(0, i));
      else this.c.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
  get header(): string {
    return [...this.c].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function hidden(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1] as string] = (m[2] as string).replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  }
  return out;
}

describe.skipIf(!!reason)(`several processes on one PostgreSQL and Redis${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let store: OpenedStore;
  let a: Proc;
  let b: Proc;
  beforeAll(async () => {
    store = await (pg as NonNullable<typeof pg>).open();
    const env = envFor(store);
    // The first process loads the demo data; the second finds it loaded.
    a = await serve(env);
    b = await serve(env);
  }, 120_000);
  afterAll(async () => {
    await stop(a);
    await stop(b);
    await store?.cleanup();
  });

  it('polls at one process the PubChem ListKey another made', async () => {
    const r = await fetch(`${a.url}/pubchem/rest/pug/compound/substructure/smiles/${encodeURIComponent('C(=O)O')}/cids/JSON`);
    expect(r.status).toBe(202);
    const key = ((await r.json()) as { Waiting: { ListKey: string } }).Waiting.ListKey;
    let body: { IdentifierList?: { CID: number[] } } = {};
    for (let i = 0; i < 100 && !body.IdentifierList; i++) {
      const p = await fetch(`${b.url}/pubchem/rest/pug/compound/listkey/${key}/cids/JSON`);
      body = (await p.json()) as typeof body;
      if (!body.IdentifierList) await new Promise((res) => setTimeout(res, 100));
    }
    expect(body.IdentifierList?.CID).toContain(2244);
  });

  it('reuses at one process the E-utilities history another made', async () => {
    const s = await fetch(`${a.url}/eutils/entrez/eutils/esearch.fcgi?db=gene&term=BRCA1[sym]&usehistory=y&retmode=json`);
    const r = (await s.json()) as { esearchresult: { webenv: string; querykey: string; idlist: string[] } };
    expect(r.esearchresult.webenv).toBeTruthy();
    const sum = await fetch(`${b.url}/eutils/entrez/eutils/esummary.fcgi?db=gene&WebEnv=${r.esearchresult.webenv}&query_key=${r.esearchresult.querykey}&retmode=json`);
    expect(sum.status).toBe(200);
    const uids = ((await sum.json()) as { result: { uids: string[] } }).result.uids;
    expect(uids).toEqual(r.esearchresult.idlist);
  });

  it('signs in at one process, consents at the other, and exchanges the code at the first', async () => {
    const jar = new Jar();
    const redirect = 'http://127.0.0.1/protocols/api/v3/oauth/test';
    const q = new URLSearchParams({ client_id: 'biomirror-demo-client', redirect_uri: redirect, response_type: 'code', state: 's1' });
    const go = async (base: string, path: string, form?: Record<string, string>) => {
      const r = await fetch(base + path, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { cookie: jar.header, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      jar.take(r);
      return r;
    };
    let page = await go(a.url, `/protocols/api/v3/oauth/authorize?${q.toString()}`);
    let html = await page.text();
    expect(html).toContain('name="password"');
    const login = await go(b.url, '/protocols/login', { ...hidden(html), username: 'biomirror-demo', password: 'demo-password' });
    expect(login.status).toBe(303);
    page = await go(a.url, login.headers.get('location') as string);
    html = await page.text();
    expect(html).toContain('value="allow"');
    const allowed = await go(b.url, '/protocols/api/v3/oauth/authorize', { ...hidden(html), decision: 'allow' });
    expect(allowed.status).toBe(303);
    const code = new URL(allowed.headers.get('location') as string).searchParams.get('code') as string;
    expect(code).toBeTruthy();
    const tok = await fetch(`${a.url}/protocols/api/v3/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'biomirror-demo-client', client_secret: 'demo-client-secret', redirect_uri: redirect }).toString(),
    });
    expect(tok.status).toBe(200);
    const access = ((await tok.json()) as { access_token: string }).access_token;
    const me = await fetch(`${b.url}/protocols/api/v3/protocols?filter=user_private`, { headers: { authorization: `Bearer ${access}` } });
    expect(me.status).toBe(200);
    // The same code a second time, at the other process: refused, as codes are single-use.
    const again = await fetch(`${b.url}/protocols/api/v3/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'biomirror-demo-client', client_secret: 'demo-client-secret', redirect_uri: redirect }).toString(),
    });
    expect(again.status).toBe(400);
  });

  it('shares rate budgets through Redis', async () => {
    const env = { ...envFor(store), BIOMIRROR_LIMITS: 'on' };
    const c = await serve(env);
    const d = await serve(env);
    try {
      // ClinicalTrials.gov: about 50 requests per minute per IP, counted across both processes.
      let refused = 0;
      for (let i = 0; i < 60; i++) {
        const r = await fetch(`${(i % 2 ? c : d).url}/clinicaltrials/api/v2/version`);
        if (r.status === 429) refused++;
        await r.arrayBuffer();
      }
      expect(refused).toBeGreaterThanOrEqual(5);
    } finally {
      await stop(c);
      await stop(d);
    }
  }, 60_000);

  it('loses nothing the other process serves when one is killed in the middle of a request', async () => {
    const key = await fetch(`${b.url}/pubchem/rest/pug/compound/substructure/smiles/${encodeURIComponent('c1ccccc1')}/cids/JSON`);
    const listKey = ((await key.json()) as { Waiting: { ListKey: string } }).Waiting.ListKey;
    const pending = fetch(`${a.url}/clinicaltrials/api/v2/studies/NCT02513394`, { headers: { 'x-biomirror-fault': 'slow;ms=5000' } }).then(
      (r) => r.status,
      () => 'dropped',
    );
    await new Promise((r) => setTimeout(r, 200));
    await stop(a, 'SIGKILL');
    expect(await pending).toBe('dropped');
    expect((await fetch(`${b.url}/clinicaltrials/api/v2/studies/NCT02513394`)).status).toBe(200);
    let ok = false;
    for (let i = 0; i < 100 && !ok; i++) {
      const r = await fetch(`${b.url}/pubchem/rest/pug/compound/listkey/${listKey}/cids/JSON`);
      ok = r.status === 200;
      await r.arrayBuffer();
      if (!ok) await new Promise((res) => setTimeout(res, 100));
    }
    expect(ok).toBe(true);
  });
});

if (reason && (process.env.BIOMIRROR_REQUIRE_PG || process.env.BIOMIRROR_REQUIRE_REDIS)) {
  throw new Error(`the scale-out tests cannot run: ${reason}`);
}
