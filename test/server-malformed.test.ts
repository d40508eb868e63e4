import { connect } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth } from '../src/core/http/json-depth.js';
import { clinicaltrials } from '../src/services/clinicaltrials/index.js';
import { eutils } from '../src/services/eutils/index.js';
import { startServer, type RunningServer } from '../src/server/serve.js';
import { DEFAULT_CONFIG } from '../src/server/config.js';
import { tempDir } from './helpers/stores.js';

/** Sends raw bytes and reads the whole answer (the server closes the connection after a refusal). */
function raw(url: string, bytes: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sock = connect(Number(port), hostname, () => sock.write(bytes));
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', reject);
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    setTimeout(() => sock.destroy(new Error('no answer')), 5000).unref();
  });
}

describe('requests the HTTP parser refuses', () => {
  let server: RunningServer;
  let base: string;
  let own: string;
  beforeAll(async () => {
    server = await startServer(
      { ...DEFAULT_CONFIG, port: 0, dataDir: tempDir(), limits: false, demo: false, portPerService: true, services: { eutils: { port: 0 }, clinicaltrials: { port: 0 } } },
      [clinicaltrials, eutils],
      pino({ level: 'silent' }),
    );
    base = server.apps[0]?.url as string;
    own = server.apps.find((a) => a.service === 'eutils')?.url as string;
  });
  afterAll(() => server.close());

  it('answers a raw space in the path in the service’s own body, with a request id', async () => {
    const r = await raw(base, 'GET /clinicaltrials/api/v2/stu dies HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(r.body)).toEqual({ error: { code: 400, message: expect.stringMatching(/^Malformed request/) } });
  });

  // E-utilities answers what no utility saw in its JSON error form.
  it('answers a NUL or control byte in the path of E-utilities in its own error body', async () => {
    for (const bad of ['\0', '\x01', '\x7f']) {
      const r = await raw(base, `GET /eutils/entrez/eutils/esearch.fcgi${bad}?db=gene HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(r.status).toBe(400);
      expect(r.headers['x-request-id']).toBeTruthy();
      expect(JSON.parse(r.body)).toEqual({ error: expect.stringMatching(/^Malformed request: the request target contains characters/) });
    }
  });

  it('refuses dot segments and backslashes, raw or percent-encoded, before routing, in the service’s own body', async () => {
    for (const path of [
      '/clinicaltrials/../exec/api/health',
      '/clinicaltrials/%2e%2e/status',
      '/clinicaltrials/.%2E/health',
      '/clinicaltrials/api/v2/..\\studies',
      '/clinicaltrials/./api/v2/studies',
    ]) {
      const r = await raw(base, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(r.status, path).toBe(400);
      expect(r.headers['x-request-id'], path).toBeTruthy();
      expect(JSON.parse(r.body), path).toEqual({ error: { code: 400, message: expect.stringMatching(/^Malformed request: the path contains a (backslash|"[.%2eE]+" segment)/) } });
    }
    const mine = await raw(own, 'GET /entrez/eutils/../../status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(mine.status).toBe(400);
    expect(JSON.parse(mine.body)).toEqual({ error: expect.stringMatching(/^Malformed request: the path contains a "\.\." segment/) });
    // A dot inside a name, an encoded backslash (a SMILES trans bond) and dots in the query are not dot segments.
    for (const path of ['/clinicaltrials/api/v2/studies/NCT.1%5C', '/clinicaltrials/api/v2/studies?query.term=../x\\y', '/clinicaltrials/api/v2/..studies']) {
      const fine = await raw(base, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(fine.body, path).not.toMatch(/Malformed request/);
    }
  });

  it('answers an unknown method', async () => {
    const r = await raw(base, 'FROB /clinicaltrials/api/v2/studies HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toMatch(/unknown HTTP method/);
  });

  it('answers oversized headers with 431 in the service’s body, on a service’s own port too', async () => {
    const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
    const shared = await raw(base, `GET /clinicaltrials/api/v2/studies HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    expect(shared.status).toBe(431);
    expect(JSON.parse(shared.body)).toEqual({ error: { code: 431, message: expect.stringMatching(/larger than/) } });
    const mine = await raw(own, `GET /entrez/eutils/einfo.fcgi HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    expect(mine.status).toBe(431);
    expect(JSON.parse(mine.body)).toEqual({ error: expect.stringMatching(/^Malformed request: the request line or headers are larger/) });
  });

  it('keeps serving well-formed requests afterwards', async () => {
    const r = await fetch(`${base}/clinicaltrials/api/v2/studies?pageSize=1`);
    expect(r.status).toBe(200);
  });
});

describe('deeply nested JSON bodies', () => {
  it('measures nesting without counting brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    expect(jsonDepth('"\\"[[["')).toBe(0);
    expect(jsonDepth('[]')).toBe(1);
  });

  it('refuses a body nested thousands of levels deep with the service’s 400, and still serves', async () => {
    const server = await startServer({ ...DEFAULT_CONFIG, port: 0, dataDir: tempDir(), limits: false, demo: false }, [clinicaltrials, eutils], pino({ level: 'silent' }));
    try {
      const base = server.apps[0]?.url as string;
      const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
      const r = await fetch(`${base}/clinicaltrials/api/v2/studies`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/nests deeper than 128/);
      const e = await fetch(`${base}/eutils/entrez/eutils/esearch.fcgi`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '['.repeat(3000) + ']'.repeat(3000) });
      expect(e.status).toBe(400);
      expect(await e.json()).toEqual({ error: 'JSON body nests deeper than 128 levels' });
      expect((await fetch(`${base}/eutils/entrez/eutils/einfo.fcgi`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
