/**
 * `serve --workers N`: several processes share the port, the demo is loaded once, state made on one
 * is read on another (they share the database), and a worker that dies is replaced.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORES, tempDir } from './helpers/stores.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: npm test builds it first (npm run build)');

/** A GET on a new connection each time, so the cluster may hand it to any worker. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    r.on('error', reject);
    r.setTimeout(5_000, () => r.destroy(new Error(`no answer from ${url}`)));
    r.end();
  });
}

async function pids(base: string, n: number): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) seen.add((JSON.parse((await get(`${base}/health`)).body) as { pid: number }).pid);
  return seen;
}

function start(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; err: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--workers', '2'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /serving on (http:\/\/[\d.:]+)/.exec(seen);
      if (m) resolve({ child, url: m[1] as string, err: () => seen });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${seen}`)));
  });
}

for (const target of STORES) {
  describe(`serve --workers 2 on ${target.name}`, () => {
    it('answers from two processes that share the data and state, and replaces one that dies', async () => {
      const s = await target.open();
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'warn', DATA_DIR: s.options.dataDir ?? tempDir(), BIOMIRROR_PUBCHEM_SYNC_MS: '0' };
      delete env.DATABASE_URL;
      if (s.options.databaseUrl) {
        const u = s.options.databaseUrl;
        env.DATABASE_URL = `${u}${u.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${s.options.schema as string}`)}`;
      }
      const srv = await start(env);
      try {
        expect(srv.err()).toMatch(/with 2 worker processes/);
        // The banner is printed once, by the first worker.
        expect(srv.err().match(/serving on/g)?.length).toBe(1);
        // The banner comes once the first worker listens; the second may still be starting.
        let seen = await pids(srv.url, 20);
        for (let i = 0; i < 80 && seen.size < 2; i++) {
          await new Promise((res) => setTimeout(res, 250));
          seen = new Set([...seen, ...(await pids(srv.url, 10))]);
        }
        expect(seen.size).toBe(2);
        expect((await get(`${srv.url}/clinicaltrials/api/v2/studies/NCT02513394`)).status).toBe(200);

        // A ListKey made by whichever worker answered is read by every worker.
        const made = await get(`${srv.url}/pubchem/rest/pug/compound/substructure/smiles/${encodeURIComponent('C(=O)O')}/cids/JSON`);
        expect(made.status).toBe(202);
        const key = (JSON.parse(made.body) as { Waiting: { ListKey: string } }).Waiting.ListKey;
        let done = 0;
        for (let i = 0; i < 200 && done < 6; i++) {
          const r = await get(`${srv.url}/pubchem/rest/pug/compound/listkey/${key}/cids/JSON`);
          if (r.status === 200) done++;
          else await new Promise((res) => setTimeout(res, 50));
        }
        expect(done).toBe(6);

        // One worker killed: the other answers meanwhile, and a new one takes its place.
        const [victim] = [...seen];
        process.kill(victim as number, 'SIGKILL');
        // A connection the primary handed to the dying process is lost with it, as behind any
        // balancer; once the primary has seen the exit, every request goes to a live one.
        await new Promise((res) => setTimeout(res, 500));
        for (let i = 0; i < 6; i++) expect((await get(`${srv.url}/clinicaltrials/api/v2/version`)).status).toBe(200);
        let replaced = false;
        for (let i = 0; i < 60 && !replaced; i++) {
          const now = await pids(srv.url, 6);
          replaced = now.size === 2 && !now.has(victim as number);
          if (!replaced) await new Promise((res) => setTimeout(res, 250));
        }
        expect(replaced).toBe(true);
      } finally {
        const code = await new Promise<number | null>((res) => {
          srv.child.once('exit', (c) => res(c));
          srv.child.kill('SIGTERM');
        });
        expect(code).toBe(0);
        await s.cleanup();
      }
    }, 90_000);
  });
}
