/**
 * The S3-compatible file store against a small in-process S3 fake that checks every request's
 * Signature Version 4 the way S3 does (recomputed here from the request as received), and the
 * signer against AWS's documented example.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Error, S3FileStore, s3StoreFromEnv } from '../src/core/files/s3.js';
import { EMPTY_SHA256, signRequest } from '../src/core/files/sigv4.js';
import { fileKey } from '../src/core/files/store.js';

const SECRET = 'test-secret-key';
const AKID = 'TESTAKID';

describe('SigV4 signer', () => {
  it("reproduces AWS's GET Object example (S3 API reference, Signature Version 4 examples)", () => {
    const h = signRequest(
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadSha256: EMPTY_SHA256,
        region: 'us-east-1',
        now: new Date('2013-05-24T00:00:00Z'),
      },
    );
    expect(h.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});

interface Seen {
  method: string;
  path: string;
  ok: boolean;
}

/** What S3 checks: the credential scope, the signed headers present, the signature, the payload hash. */
function verify(req: IncomingMessage, body: Buffer): string | undefined {
  const auth = String(req.headers.authorization ?? '');
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'AuthorizationHeaderMalformed';
  const [, akid, day, region, signed, signature] = m as unknown as string[];
  if (akid !== AKID) return 'InvalidAccessKeyId';
  const payload = String(req.headers['x-amz-content-sha256']);
  if (payload !== createHash('sha256').update(body).digest('hex')) return 'XAmzContentSHA256Mismatch';
  const names = (signed as string).split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'AccessDenied';
  const canonical = [req.method, (req.url ?? '/').split('?')[0], '', names.map((n) => `${n}:${String(req.headers[n]).trim()}\n`).join(''), signed, payload].join('\n');
  const date = String(req.headers['x-amz-date']);
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`;
  let k: Buffer = createHmac('sha256', `AWS4${SECRET}`)
    .update(day as string)
    .digest();
  for (const part of [region as string, 's3', 'aws4_request']) k = createHmac('sha256', k).update(part).digest();
  return createHmac('sha256', k).update(toSign).digest('hex') === signature ? undefined : 'SignatureDoesNotMatch';
}

describe('S3 file store', () => {
  let server: Server;
  let endpoint: string;
  const objects = new Map<string, Buffer>();
  const seen: Seen[] = [];
  let corrupt = false;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const path = (req.url ?? '/').split('?')[0] as string;
        const problem = verify(req, body);
        seen.push({ method: req.method ?? '', path, ok: !problem });
        if (problem) {
          res.writeHead(403, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><Error><Code>${problem}</Code></Error>`);
          return;
        }
        if (req.method === 'PUT') {
          objects.set(path, body);
          res.writeHead(200, { etag: '"x"' }).end();
        } else {
          const o = objects.get(path);
          if (!o) res.writeHead(404, { 'content-type': 'application/xml' }).end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code></Error>');
          else res.writeHead(200, { 'content-length': o.length }).end(req.method === 'HEAD' ? undefined : corrupt ? Buffer.from('other bytes') : o);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const store = (secret = SECRET) => new S3FileStore({ endpoint, bucket: 'models', prefix: 'afdb/v4', region: 'eu-west-2', accessKeyId: AKID, secretAccessKey: secret });

  it('puts bytes under their SHA-256 with signed requests, once, and reads them back', async () => {
    const s = store();
    const bytes = Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 255]);
    const key = await s.put(bytes);
    expect(key).toBe(fileKey(bytes));
    const path = `/models/afdb/v4/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
    expect(objects.get(path)?.equals(bytes)).toBe(true);
    expect(seen.slice(-2)).toEqual([
      { method: 'HEAD', path, ok: true },
      { method: 'PUT', path, ok: true },
    ]);
    // The same bytes again: the HEAD finds them, nothing is uploaded.
    await s.put(bytes);
    expect(seen.at(-1)).toEqual({ method: 'HEAD', path, ok: true });
    expect((await s.get(key))?.equals(bytes)).toBe(true);
    expect(await s.get('0'.repeat(64))).toBeUndefined();
    expect(await s.get('../../etc/passwd')).toBeUndefined();
    expect(s.describe()).toBe(`s3 ${endpoint}/models/afdb/v4`);
  });

  it('reports a refused signature with the S3 error code, and never serves bytes that do not match their key', async () => {
    // HEAD answers carry no body, so only the status; a GET names the code.
    await expect(store('wrong-secret').put(Buffer.from('x'))).rejects.toThrow(/HEAD [0-9a-f]{64}: HTTP 403/);
    const s = store();
    const key = await s.put(Buffer.from('kept'));
    await expect(store('wrong-secret').get(key)).rejects.toThrow(/HTTP 403 SignatureDoesNotMatch/);
    corrupt = true;
    try {
      await expect(s.get(key)).rejects.toThrow(S3Error);
    } finally {
      corrupt = false;
    }
  });

  it('is configured from the environment', () => {
    const s = s3StoreFromEnv({ BIOMIRROR_FILES_S3: `${endpoint}/models/afdb`, AWS_ACCESS_KEY_ID: AKID, AWS_SECRET_ACCESS_KEY: SECRET, AWS_REGION: 'eu-west-2' });
    expect(s?.describe()).toBe(`s3 ${endpoint}/models/afdb`);
    expect(s3StoreFromEnv({})).toBeUndefined();
    expect(() => s3StoreFromEnv({ BIOMIRROR_FILES_S3: `${endpoint}/models` })).toThrow(/AWS_ACCESS_KEY_ID/);
  });
});
