import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../src/core/http/redact.js';
import { openStore } from '../src/core/store/open.js';
import { clinicaltrials } from '../src/services/clinicaltrials/index.js';
import { eutils } from '../src/services/eutils/index.js';
import { protocols } from '../src/services/protocols/index.js';
import { DEFAULT_CONFIG } from '../src/server/config.js';
import { startServer } from '../src/server/serve.js';
import { tempDir } from './helpers/stores.js';

describe('secrets in logs', () => {
  it('redacts codes, tokens, secrets, passwords and API keys from URLs, and nothing else', () => {
    expect(redactUrl('/protocols/api/v3/oauth/test?code=abc123&state=s1')).toBe('/protocols/api/v3/oauth/test?code=REDACTED&state=s1');
    expect(redactUrl('/x?client_secret=s3cr3t&client_id=app&access_token=t&refresh_token=r&password=p&api_key=k&Code=1')).toBe(
      '/x?client_secret=REDACTED&client_id=app&access_token=REDACTED&refresh_token=REDACTED&password=REDACTED&api_key=REDACTED&Code=REDACTED',
    );
    expect(redactUrl('/eutils/esearch.fcgi?db=gene&term=BRCA1')).toBe('/eutils/esearch.fcgi?db=gene&term=BRCA1');
    expect(redactUrl('/x?client%5Fsecret=s')).toBe('/x?client%5Fsecret=REDACTED');
  });

  it('writes no secret of a request into the request log, on any service', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = await startServer({ ...DEFAULT_CONFIG, port: 0, dataDir: tempDir(), demo: false }, [clinicaltrials, eutils, protocols], pino({ level: 'info' }, sink));
    try {
      const base = server.apps[0]?.url as string;
      await (await fetch(`${base}/protocols/api/v3/oauth/test?code=the-code-value&state=x`)).arrayBuffer();
      await (await fetch(`${base}/protocols/api/v3/oauth/token?client_secret=the-secret-value&grant_type=x`, { method: 'POST' })).arrayBuffer();
      await (await fetch(`${base}/eutils/entrez/eutils/einfo.fcgi?api_key=the-key-value`)).arrayBuffer();
    } finally {
      await server.close();
    }
    const log = lines.join('');
    expect(log).toContain('"msg":"request"');
    expect(log).toContain('code=REDACTED');
    for (const secret of ['the-code-value', 'the-secret-value', 'the-key-value']) expect(log).not.toContain(secret);
  });
});

describe('the database file', () => {
  it('is created readable by its owner only, in a folder only the owner can enter', async () => {
    const dir = join(tempDir(), 'data');
    const db = await openStore({ dataDir: dir });
    try {
      await db.run('CREATE TABLE t (x INTEGER)');
      await db.run('INSERT INTO t VALUES (1)');
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of ['biomirror.sqlite', 'biomirror.sqlite-wal', 'biomirror.sqlite-shm']) expect(statSync(join(dir, f)).mode & 0o077, f).toBe(0);
    } finally {
      await db.close();
    }
  });
});
