import { createHash } from 'node:crypto';

/**
 * Opaque page tokens: base64url JSON plus a short checksum, so a truncated or edited token is
 * recognised and refused with a clear message instead of being half-understood.
 */
function check(data: string): string {
  return createHash('sha256').update(data).digest('base64url').slice(0, 6);
}

export function encodeToken(payload: unknown): string {
  const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return data + check(data);
}

export function decodeToken(token: string): unknown {
  if (token.length < 8 || token.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const data = token.slice(0, -6);
  if (check(data) !== token.slice(-6)) return undefined;
  try {
    return JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A stable digest of the parameters a token belongs to, to refuse a token used with another query. */
export function paramsDigest(params: Record<string, unknown>): string {
  const keys = Object.keys(params).sort();
  const canonical = JSON.stringify(keys.map((k) => [k, params[k]]));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
}
