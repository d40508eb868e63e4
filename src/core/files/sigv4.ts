/**
 * AWS Signature Version 4 for S3-compatible object stores (AWS S3, MinIO, Ceph RGW, R2, GCS in
 * interoperability mode), with node:crypto: the canonical request, the string to sign and the
 * derived key, as AWS documents them. Payloads are signed by their SHA-256 (not UNSIGNED-PAYLOAD).
 */
import { createHash, createHmac } from 'node:crypto';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials' token (sent as x-amz-security-token). */
  sessionToken?: string | undefined;
}

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/** RFC 3986 encoding of one path segment or query component, as SigV4 wants it. */
export function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20130524T000000Z` for a date. */
export function amzDate(d: Date): string {
  return d.toISOString().replace(/[:-]|\.\d{3}/g, '');
}

export interface SignInput {
  method: string;
  url: URL;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (names in any case). */
  headers?: Record<string, string>;
  payloadSha256: string;
  region: string;
  service?: string;
  now?: Date;
}

/** The headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256 and Authorization. */
export function signRequest(c: Credentials, s: SignInput): Record<string, string> {
  const date = amzDate(s.now ?? new Date());
  const day = date.slice(0, 8);
  const service = s.service ?? 's3';
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.headers ?? {})) headers[k.toLowerCase()] = v.trim().replace(/\s+/g, ' ');
  headers.host = s.url.host;
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = s.payloadSha256;
  if (c.sessionToken) headers['x-amz-security-token'] = c.sessionToken;
  const names = Object.keys(headers).sort();
  const query = [...s.url.searchParams]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [s.method.toUpperCase(), s.url.pathname || '/', query, names.map((n) => `${n}:${headers[n] as string}\n`).join(''), names.join(';'), s.payloadSha256].join('\n');
  const scope = `${day}/${s.region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${c.secretAccessKey}`, day), s.region), service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${c.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`;
  return headers;
}
