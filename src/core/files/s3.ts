/**
 * Files in an S3-compatible bucket, so that every replica of a deployment reads the same files and
 * the database stays small: the full AlphaFold archive is tens of terabytes. Objects are named by
 * their SHA-256 under a prefix (`prefix/ab/cd/abcd…`), which is also the signed payload hash.
 */
import { createHash } from 'node:crypto';
import { fileKey, isFileKey, type FileStore } from './store.js';
import { EMPTY_SHA256, signRequest, uriEncode, type Credentials } from './sigv4.js';

export interface S3Options extends Credentials {
  /** Service endpoint, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (MinIO). */
  endpoint: string;
  bucket: string;
  region: string;
  /** Key prefix inside the bucket (no leading or trailing slash needed). */
  prefix?: string;
  /** Bucket in the host name (virtual-hosted style) instead of the path; AWS prefers it, MinIO takes both. */
  virtualHosted?: boolean;
  timeoutMs?: number;
}

export class S3Error extends Error {
  override readonly name = 'S3Error';
}

export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private readonly base: URL;
  private readonly prefix: string;

  constructor(private readonly o: S3Options) {
    const u = new URL(o.endpoint);
    if (o.virtualHosted) u.hostname = `${o.bucket}.${u.hostname}`;
    u.pathname = o.virtualHosted ? '/' : `/${uriEncode(o.bucket)}/`;
    this.base = u;
    this.prefix = (o.prefix ?? '').replace(/^\/+|\/+$/g, '');
  }

  private urlOf(key: string): URL {
    const parts = [...(this.prefix ? this.prefix.split('/') : []), key.slice(0, 2), key.slice(2, 4), key];
    return new URL(parts.map(uriEncode).join('/'), this.base);
  }

  private async send(method: string, url: URL, body?: Buffer, payload = EMPTY_SHA256): Promise<Response> {
    const headers = signRequest(this.o, {
      method,
      url,
      payloadSha256: payload,
      region: this.o.region,
      headers: body ? { 'content-type': 'application/octet-stream', 'content-length': String(body.length) } : {},
    });
    delete headers.host;
    try {
      return await fetch(url, { method, headers, body: body ? new Uint8Array(body) : undefined, signal: AbortSignal.timeout(this.o.timeoutMs ?? 60_000) });
    } catch (err) {
      throw new S3Error(`${method} ${url.pathname}: ${(err as Error).message}`);
    }
  }

  private async fail(r: Response, what: string): Promise<never> {
    const text = await r.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    throw new S3Error(`${what}: HTTP ${r.status}${code ? ` ${code}` : ''}`);
  }

  async put(bytes: Buffer): Promise<string> {
    const key = fileKey(bytes);
    const url = this.urlOf(key);
    // Content-addressed: an object already there holds these bytes.
    const head = await this.send('HEAD', url);
    if (head.status === 200) return key;
    if (head.status !== 404) await this.fail(head, `HEAD ${key}`);
    const r = await this.send('PUT', url, bytes, key);
    if (!r.ok) await this.fail(r, `PUT ${key}`);
    await r.arrayBuffer().catch(() => undefined);
    return key;
  }

  async get(key: string): Promise<Buffer | undefined> {
    if (!isFileKey(key)) return undefined;
    const r = await this.send('GET', this.urlOf(key));
    if (r.status === 404) {
      await r.arrayBuffer().catch(() => undefined);
      return undefined;
    }
    if (!r.ok) await this.fail(r, `GET ${key}`);
    const b = Buffer.from(await r.arrayBuffer());
    // A store that hands back other bytes than were put is not to be served from.
    if (createHash('sha256').update(b).digest('hex') !== key) throw new S3Error(`GET ${key}: content does not match its key`);
    return b;
  }

  describe(): string {
    return `s3 ${this.base.origin}${this.o.virtualHosted ? '' : `/${this.o.bucket}`}${this.prefix ? `/${this.prefix}` : ''}`;
  }
}

/**
 * The S3 store configured by the environment, or undefined: BIOMIRROR_FILES_S3 =
 * `https://endpoint/bucket[/prefix]` with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN (optional) and AWS_REGION (default us-east-1).
 */
export function s3StoreFromEnv(env: NodeJS.ProcessEnv = process.env): S3FileStore | undefined {
  const spec = env.BIOMIRROR_FILES_S3;
  if (!spec) return undefined;
  const u = new URL(spec);
  const [bucket, ...prefix] = u.pathname.replace(/^\/+/, '').split('/');
  if (!bucket) throw new Error('BIOMIRROR_FILES_S3 must name a bucket: https://endpoint/bucket[/prefix]');
  if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) throw new Error('BIOMIRROR_FILES_S3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  return new S3FileStore({
    endpoint: u.origin,
    bucket,
    prefix: prefix.join('/'),
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    accessKeyId: env.AWS_ACCESS_KEY_ID,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    sessionToken: env.AWS_SESSION_TOKEN,
  });
}
