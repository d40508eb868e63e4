import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../src/core/http/errors.js';
import { clinicaltrials } from '../src/services/clinicaltrials/index.js';
import type { ServiceModule } from '../src/services/types.js';
import { ConfigError, DEFAULT_CONFIG, resolveConfig, type Config } from '../src/server/config.js';
import { startServer } from '../src/server/serve.js';
import { ListenError, plannedPorts } from '../src/server/ports.js';
import { SERVICES } from '../src/services/registry.js';
import { parseForm } from '../src/server/app.js';
import { PG_URL, tempDir } from './helpers/stores.js';

function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

/** A service whose one route waits until released: to watch a request in flight during shutdown. */
function slowService(gate: Promise<void>, started: () => void): ServiceModule {
  const body = (code: number, message: string) => new ServiceError(code, { message });
  return {
    id: 'slow',
    title: 'test service',
    mount: '/slow',
    baseUrls: { slow_url: '' },
    defaultPort: 0,
    limits: [],
    migrations: [],
    datasets: [],
    errors: {
      routeNotFound: () => body(404, 'no'),
      rateLimited: () => body(429, 'slow down'),
      badRequest: (m, s) => body(s, m),
      internal: () => body(500, 'oops'),
    },
    routes(app) {
      app.get('/wait', async () => {
        started();
        await gate;
        return { done: true };
      });
      app.get('/boom', async () => {
        throw new Error('secret internal detail');
      });
    },
  };
}

function config(over: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, port: 0, dataDir: tempDir(), databaseUrl: undefined, limits: false, ...over, services: { ...over.services } };
}

describe('server', () => {
  it('says a service has nothing loaded, and how to load it, where an empty service would answer "not found"', async () => {
    const server = await startServer(config({ demo: false }), SERVICES, pino({ level: 'silent' }));
    try {
      const base = server.apps[0]?.url as string;
      for (const [path, id] of [
        ['/clinicaltrials/api/v2/studies/NCT02513394', 'clinicaltrials'],
        ['/rcsb/data/rest/v1/core/entry/4HHB', 'rcsb-data'],
        ['/alphafold/api/prediction/P69905', 'alphafold'],
      ] as const) {
        const r = await fetch(`${base}${path}`);
        expect(r.status, path).toBe(404);
        const text = await r.text();
        expect(text, path).toMatch(/No data is loaded for .* on this server \(its datasets? .* empty\)/);
        expect(text, path).toContain(`biomirror demo ${id}`);
      }
      // A wrong address is still just not found.
      expect(await (await fetch(`${base}/clinicaltrials/api/v2/nothing-here`)).text()).not.toMatch(/No data is loaded/);
    } finally {
      await server.close();
    }
  });

  it('listens before its demo data is loaded: live at once, each loading service 503 with Retry-After in its own shape, /ready when done', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    // ClinicalTrials.gov whose demo load waits until the test lets it go on.
    const gated: ServiceModule = {
      ...clinicaltrials,
      datasets: clinicaltrials.datasets.map((d) => ({
        ...d,
        read: async function* (input: string, ctx: Parameters<typeof d.read>[1]) {
          await gate;
          yield* d.read(input, ctx);
        },
      })),
    } as ServiceModule;
    const server = await startServer(config(), [gated], pino({ level: 'silent' }), { listenFirst: true });
    try {
      const base = server.apps[0]?.url as string;
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { ready: boolean }).ready).toBe(false);
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(await ready.json()).toMatchObject({ status: 'loading', services: { clinicaltrials: { state: 'loading', step: 'loading the demo dataset studies' } } });
      const study = await fetch(`${base}/clinicaltrials/api/v2/studies/NCT02710084`);
      expect(study.status).toBe(503);
      expect(study.headers.get('retry-after')).toBe('5');
      // ClinicalTrials.gov's own error body, saying why.
      expect(await study.text()).toMatch(/still loading its data on this server \(loading the demo dataset studies\); retry in 5 seconds/);
      const status = (await (await fetch(`${base}/status`)).json()) as { services: { state: string }[] };
      expect(status.services[0]?.state).toBe('loading');
      open();
      await server.ready;
      expect((await fetch(`${base}/ready`)).status).toBe(200);
      expect((await fetch(`${base}/clinicaltrials/api/v2/studies/NCT02710084`)).status).toBe(200);
      const after = (await (await fetch(`${base}/status`)).json()) as { services: { state: string }[] };
      expect(after.services[0]?.state).toBe('ready');
    } finally {
      open();
      await server.close();
    }
  });

  it('serves health and status, echoes or creates request ids, and logs one line per request', async () => {
    const { lines, log } = captureLogs();
    const server = await startServer(config(), [clinicaltrials], log);
    try {
      const base = server.apps[0]?.url as string;
      const health = await fetch(`${base}/health`);
      expect(await health.json()).toEqual({ status: 'ok', pid: process.pid, database: 'sqlite', services: ['clinicaltrials'], ready: true, engines: {} });
      const generated = health.headers.get('x-request-id');
      expect(generated).toMatch(/^[0-9a-f-]{36}$/);
      const mine = await fetch(`${base}/clinicaltrials/api/v2/studies/NCT02710084`, { headers: { 'x-request-id': 'trace-42' } });
      expect(mine.status).toBe(200);
      expect(mine.headers.get('x-request-id')).toBe('trace-42');
      const status = (await (await fetch(`${base}/status`)).json()) as { services: { datasets: { records: number }[] }[] };
      expect(status.services[0]?.datasets[0]?.records).toBe(18);
      const line = lines.find((l) => l.reqId === 'trace-42' && l.msg === 'request');
      expect(line).toMatchObject({ method: 'GET', url: '/clinicaltrials/api/v2/studies/NCT02710084', status: 200 });
      expect(typeof line?.ms).toBe('number');
      expect(lines.some((l) => l.msg === 'demo data loaded')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('gives each service its own port with the upstream paths at the root', async () => {
    const server = await startServer(config({ portPerService: true, services: { clinicaltrials: { port: 0 } } }), [clinicaltrials], pino({ level: 'silent' }));
    try {
      const own = server.apps.find((a) => a.service === 'clinicaltrials')?.url as string;
      expect(own).toBeDefined();
      const r = await fetch(`${own}/api/v2/studies?query.intr=oxytocin&fields=NCTId`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { totalCount: number }).totalCount).toBe(1);
      const shared = server.apps[0]?.url as string;
      expect((await fetch(`${shared}/clinicaltrials/api/v2/studies/NCT02710084`)).status).toBe(200);
      expect((await fetch(`${own}/_biomirror/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('fails to start with the port and the setting that moves it when an own port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen({ host: '127.0.0.1', port: 0 }, r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const start = startServer(config({ demo: false, portPerService: true, services: { clinicaltrials: { port } } }), [clinicaltrials], pino({ level: 'silent' }));
      await expect(start).rejects.toThrow(`port ${port} on 127.0.0.1, the own port of clinicaltrials (--port-per-service; set by services.clinicaltrials.port in the config file), is already in use`);
      await expect(start).rejects.toThrow(ListenError);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('lets in-flight requests finish on shutdown, then closes the database', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inFlight = new Promise<void>((r) => (started = r));
    const server = await startServer(config({ demo: false }), [slowService(gate, () => started()), clinicaltrials], pino({ level: 'silent' }));
    const base = server.apps[0]?.url as string;
    const pending = fetch(`${base}/slow/wait`);
    await inFlight;
    const closing = server.close();
    // New connections are refused while the old request is still being answered.
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    await expect(server.runtime.db.query('SELECT 1')).rejects.toThrow();
  });

  it('never lets an internal error message reach the client', async () => {
    const { lines, log } = captureLogs();
    const server = await startServer(config({ demo: false }), [slowService(Promise.resolve(), () => undefined)], log);
    try {
      const r = await fetch(`${server.apps[0]?.url as string}/slow/boom`);
      expect(r.status).toBe(500);
      const text = await r.text();
      expect(text).not.toContain('secret');
      expect(JSON.parse(text)).toEqual({ message: 'oops' });
      const err = lines.find((l) => l.msg === 'request failed');
      expect(err?.reqId).toBe(r.headers.get('x-request-id'));
    } finally {
      await server.close();
    }
  });

  it.skipIf(!PG_URL)('runs on PostgreSQL when DATABASE_URL is set', async () => {
    const server = await startServer(config({ databaseUrl: PG_URL }), [clinicaltrials], pino({ level: 'silent' }));
    try {
      const health = (await (await fetch(`${server.apps[0]?.url as string}/health`)).json()) as { database: string };
      expect(health.database).toBe('postgres');
    } finally {
      await server.close();
    }
  });
});

describe('requests the router cannot read', () => {
  it('get the error format of the service their path points into', async () => {
    const server = await startServer(config({ demo: false }), [clinicaltrials], pino({ level: 'silent' }));
    try {
      const base = server.apps[0]?.url as string;
      const r = await fetch(`${base}/clinicaltrials/api/v2/studies/%E0%A4%A`);
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ error: { code: 400, message: expect.stringMatching(/^Malformed request/) } });
    } finally {
      await server.close();
    }
  });
});

describe('form bodies', () => {
  it('arrive as an object, repeated names as arrays', () => {
    expect(parseForm('db=gene&id=1&id=2&term=a%20b+c')).toEqual({ db: 'gene', id: ['1', '2'], term: 'a b c' });
  });
});

describe('configuration', () => {
  it('layers defaults, file, environment and flags', () => {
    const dir = tempDir();
    const file = join(dir, 'biomirror.config.json');
    writeFileSync(file, JSON.stringify({ port: 9000, limits: 'off', services: { clinicaltrials: { port: 9100 } } }));
    const c = resolveConfig({ config: file }, { PORT: '9001' });
    expect(c.port).toBe(9001);
    expect(c.limits).toBe(false);
    expect(c.services.clinicaltrials?.port).toBe(9100);
    expect(resolveConfig({ config: file, port: '9002', limits: 'on' }, {}).port).toBe(9002);
    expect(resolveConfig({ config: file, limits: 'on' }, {}).limits).toBe(true);
    expect(resolveConfig({}, { DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://z' })).toMatchObject({
      databaseUrl: 'postgres://x/y',
      redisUrl: 'redis://z',
    });
  });

  it('moves the own ports with the main port, keeps a configured one, and refuses clashes', () => {
    const ids = (c: Config) => Object.fromEntries(plannedPorts(c, SERVICES).map((p) => [p.service ?? 'main', p.port]));
    const base = { ...DEFAULT_CONFIG, portPerService: true, services: {} };
    expect(ids(base)).toMatchObject({ main: 8080, clinicaltrials: 8081, eutils: 8082, exec: 8094 });
    const moved = ids({ ...base, port: 18100, services: { eutils: { port: 9000 } } });
    expect(moved).toMatchObject({ main: 18100, clinicaltrials: 18101, eutils: 9000, pubchem: 18104, exec: 18114 });
    expect(Object.keys(moved)).toHaveLength(SERVICES.length + 1);
    // Main port 0: every port is any free one.
    expect(new Set(Object.values(ids({ ...base, port: 0 })))).toEqual(new Set([0]));
    expect(ids({ ...base, portPerService: false, port: 18100 })).toEqual({ main: 18100 });
    expect(() => plannedPorts({ ...base, services: { eutils: { port: 8081 } } }, SERVICES)).toThrow(
      'port 8081 is both the own port of clinicaltrials (--port-per-service; --port 8080 + 1) and the own port of eutils (--port-per-service; set by services.eutils.port in the config file)',
    );
    expect(() => plannedPorts({ ...base, port: 65530 }, SERVICES)).toThrow(/past 65535/);
  });

  it('refuses what it cannot use, saying what is wrong', () => {
    expect(() => resolveConfig({ port: 'eighty' }, {})).toThrow(ConfigError);
    expect(() => resolveConfig({ limits: 'sometimes' }, {})).toThrow(/--limits must be on or off/);
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ prot: 1 }));
    expect(() => resolveConfig({ config: file }, {})).toThrow(/unknown setting "prot"/);
  });
});
