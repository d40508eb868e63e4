import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicaltrials } from '../src/services/clinicaltrials/index.js';
import { pubchem } from '../src/services/pubchem/index.js';
import { drawFault, parseFaultHeader } from '../src/server/faults.js';
import { DEFAULT_CONFIG, resolveConfig, type Config } from '../src/server/config.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { STORES, tempDir, type OpenedStore, type StoreTarget } from './helpers/stores.js';

const STUDY = '/clinicaltrials/api/v2/studies/NCT02513394';

function start(over: Partial<Config>): Promise<RunningServer> {
  return startServer({ ...DEFAULT_CONFIG, port: 0, dataDir: tempDir(), ...over, services: { ...over.services } }, [clinicaltrials, pubchem], pino({ level: 'silent' }));
}

describe('fault header', () => {
  it('reads each kind with its options and ignores anything else', () => {
    expect(parseFaultHeader('503')).toEqual({ kind: '503', ms: 2000, retryAfter: 1 });
    expect(parseFaultHeader('429; retry-after=7')).toEqual({ kind: '429', ms: 2000, retryAfter: 7 });
    expect(parseFaultHeader('slow;ms=150')?.ms).toBe(150);
    expect(parseFaultHeader('timeout;ms=999999999')?.ms).toBe(300_000);
    expect(parseFaultHeader('explode')).toBeUndefined();
    expect(parseFaultHeader('__proto__')).toBeUndefined();
  });

  it('draws faults at the configured rate from the configured kinds', () => {
    let i = 0;
    const seq = [0.05, 0.9, 0.5, 0.99];
    const random = () => seq[i++ % seq.length] as number;
    expect(drawFault({ rate: 0.1, kinds: ['drop', '503'] }, random)?.kind).toBe('503');
    expect(drawFault({ rate: 0.1 }, random)).toBeUndefined();
    expect(drawFault({ rate: 0 }, () => 0)).toBeUndefined();
  });

  it('is switched on by --faults or BIOMIRROR_FAULTS and off by default', () => {
    expect(resolveConfig({}, {}).faults).toBe(false);
    expect(resolveConfig({ faults: 'on' }, {}).faults).toBe(true);
    expect(resolveConfig({}, { BIOMIRROR_FAULTS: 'on' }).faults).toBe(true);
  });
});

/** The database URL of a test store, its schema in the search path (PostgreSQL), or undefined (SQLite). */
function urlOf(store: OpenedStore): string | undefined {
  const o = store.options;
  return o.databaseUrl ? `${o.databaseUrl}${o.databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${o.schema as string}`)}` : undefined;
}

describe.each(STORES)('faults on demand on $name', (target: StoreTarget) => {
  let store: OpenedStore;
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    store = await target.open();
    server = await start({ faults: true, databaseUrl: urlOf(store) });
    base = server.apps[0]?.url as string;
  });
  afterAll(async () => {
    await server.close();
    await store.cleanup();
  });
  const ask = (path: string, fault: string) => fetch(base + path, { headers: { 'x-biomirror-fault': fault } });

  it('answers the service’s own 429 with Retry-After', async () => {
    const r = await ask(STUDY, '429;retry-after=9');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('9');
    expect(await r.json()).toEqual({ error: { code: 429, message: expect.any(String) } });
    const p = await ask('/pubchem/rest/pug/compound/cid/2244/cids/JSON', '429');
    expect(p.status).toBe(503); // PubChem answers its throttling with 503 and a Fault body
    expect(((await p.json()) as { Fault: { Code: string } }).Fault.Code).toBe('PUGREST.ServerBusy');
  });

  it('answers a 503 in the service’s own body', async () => {
    const r = await ask(STUDY, '503;retry-after=3');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('3');
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(503);
  });

  it('answers slowly but fully', async () => {
    const t0 = Date.now();
    const r = await ask(STUDY, 'slow;ms=250');
    expect(r.status).toBe(200);
    expect(((await r.json()) as { protocolSection: unknown }).protocolSection).toBeDefined();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
  });

  it('drops the connection, or holds it and then drops it', async () => {
    await expect(ask(STUDY, 'drop')).rejects.toThrow();
    const t0 = Date.now();
    await expect(ask(STUDY, 'timeout;ms=300')).rejects.toThrow();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('cuts a body short of its announced length', async () => {
    const r = await ask(STUDY, 'truncate');
    expect(r.status).toBe(200);
    const whole = Number(r.headers.get('content-length'));
    expect(whole).toBeGreaterThan(100);
    await expect(r.text()).rejects.toThrow();
  });

  it('serves normally without the header, and after every fault', async () => {
    const r = await fetch(base + STUDY);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-biomirror-fault')).toBeNull();
  });
});

describe('faults off', () => {
  it('ignores the header unless faults are on', async () => {
    const server = await start({});
    try {
      const r = await fetch(`${server.apps[0]?.url as string}${STUDY}`, { headers: { 'x-biomirror-fault': '503' } });
      expect(r.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('draws faults for one service at its configured rate, not for the others', async () => {
    const server = await start({ services: { clinicaltrials: { faults: { rate: 1, kinds: ['503'], retryAfter: 2 } } } });
    try {
      const base = server.apps[0]?.url as string;
      for (let i = 0; i < 3; i++) expect((await fetch(base + STUDY)).status).toBe(503);
      expect((await fetch(`${base}/pubchem/rest/pug/compound/cid/2244/cids/JSON`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
