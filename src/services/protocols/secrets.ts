/**
 * Secrets: random tokens, their digests, slow password hashes and comparisons that take the same
 * time whatever the input, so that response times tell an attacker nothing.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** A random token of `bytes` bytes as hex (64 characters by default, like the upstream's tokens). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

/** SHA-256 as hex. Enough for random tokens: they carry 256 bits, so nothing is gained by a slow hash. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Two hex digests compared in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** Two secrets compared in constant time, whatever their lengths (their digests are compared). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

// scrypt with N = 2^15, r = 8: 32 MiB and tens of milliseconds per guess.
const SCRYPT = { logN: 15, r: 8, p: 1, keylen: 32 };

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, keylen: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A salted scrypt hash carrying its parameters: `scrypt$logN$r$p$salt$hash` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT.logN, SCRYPT.r, SCRYPT.p, SCRYPT.keylen);
  return ['scrypt', SCRYPT.logN, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

let dummy: string | undefined;

/**
 * Checks a password against a stored hash. Without a stored hash (unknown user) a dummy one is
 * checked instead, so an unknown user name takes as long as a wrong password.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (stored === undefined) {
    dummy ??= await hashPassword(randomToken(16));
    await verifyPassword(password, dummy);
    return false;
  }
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64');
  const got = await derive(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p), want.length);
  return timingSafeEqual(got, want);
}
