/** Guessing protection of the sign-in form: attempts counted before the check, per account and per address, shared through Redis. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProtocolsService } from '../src/services/protocols/index.js';
import { MemoryAttempts, RedisAttempts, SigninThrottle, THROTTLE, delayAfter, type Attempt, type AttemptStore } from '../src/services/protocols/signin-throttle.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { Jar, addUser, formValue, PASSWORD, loadProtocols } from './helpers/protocols.js';
import { REDIS_URL, STORES, type OpenedStore } from './helpers/stores.js';

describe('delays', () => {
  it('start after the free failures and double with each further one, up to 15 minutes', () => {
    expect(delayAfter(2, 3)).toBe(0);
    expect(delayAfter(3, 3)).toBe(1000);
    expect(delayAfter(4, 3)).toBe(2000);
    expect(delayAfter(8, 3)).toBe(32_000);
    expect(delayAfter(40, 3)).toBe(THROTTLE.maxDelayMs);
  });
});

const prefix = () => `bmtest:signin:${randomBytes(4).toString('hex')}:`;
const kinds: { name: string; make(): AttemptStore }[] = [{ name: 'memory', make: () => new MemoryAttempts() }];
if (REDIS_URL) kinds.push({ name: 'redis', make: () => new RedisAttempts(REDIS_URL as string, prefix()) });

/** The wait owed (0: the attempt was counted and its password may be checked). */
const waitOf = (a: Attempt) => (a.allowed ? 0 : a.waitMs);

describe.each(kinds)('the throttle on $name', (kind) => {
  let now = 1_000_000;
  const clock = () => now;

  it('owes a growing delay per account, whatever the address, and clears it on success', async () => {
    const t = new SigninThrottle(kind.make(), clock);
    try {
      for (let i = 0; i < 3; i++) expect((await t.attempt('Alice', `10.0.0.${i}`)).allowed).toBe(true);
      expect(waitOf(await t.attempt('alice', '10.9.9.9'))).toBe(1000);
      now += 1000;
      expect((await t.attempt('alice', '10.9.9.9')).allowed).toBe(true);
      expect(waitOf(await t.attempt('ALICE', '10.0.0.1'))).toBe(2000);
      now += 2000;
      const right = await t.attempt('alice', '10.0.0.1');
      if (!right.allowed) throw new Error('expected an allowed attempt');
      await right.succeeded();
      expect((await t.attempt('alice', '10.0.0.7')).allowed).toBe(true);
      // Another account from a fresh address is not slowed.
      expect((await t.attempt('bob', '10.0.0.8')).allowed).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('counts concurrent attempts before any is checked: only the free ones go ahead', async () => {
    const t = new SigninThrottle(kind.make(), clock);
    try {
      const all = await Promise.all(Array.from({ length: 30 }, () => t.attempt('carol', '10.1.1.1')));
      expect(all.filter((a) => a.allowed)).toHaveLength(THROTTLE.freeAccount);
      expect(all.filter((a) => !a.allowed && a.waitMs > 0)).toHaveLength(30 - THROTTLE.freeAccount);
    } finally {
      await t.close();
    }
  });

  it('owes the address delay only for accounts with failures of their own', async () => {
    now += 60_000;
    const t = new SigninThrottle(kind.make(), clock);
    try {
      for (let i = 0; i < THROTTLE.freeAddress; i++) expect((await t.attempt(`user${i}`, '192.0.2.1')).allowed).toBe(true);
      // user0 failed once (within its own free failures): from this address it waits, from another it does not.
      expect(waitOf(await t.attempt('user0', '192.0.2.1'))).toBe(1000);
      expect((await t.attempt('user0', '192.0.2.2')).allowed).toBe(true);
      // An account without failures is checked, and its success gives the address's count back.
      const fresh = await t.attempt('someone-else', '192.0.2.1');
      if (!fresh.allowed) throw new Error('expected an allowed attempt');
      await fresh.succeeded();
      // A wrong guess at a fresh account is checked once; its next attempt waits for the address.
      expect((await t.attempt('another', '192.0.2.1')).allowed).toBe(true);
      expect(waitOf(await t.attempt('another', '192.0.2.1'))).toBe(2000);
      now += 2000;
      expect((await t.attempt('user0', '192.0.2.1')).allowed).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('lets concurrent attempts at a fresh account from an address past its free failures check only one', async () => {
    now += 60_000;
    const t = new SigninThrottle(kind.make(), clock);
    try {
      for (let i = 0; i < THROTTLE.freeAddress; i++) await t.attempt(`spray${i}`, '192.0.2.9');
      const all = await Promise.all(Array.from({ length: 30 }, () => t.attempt('dora', '192.0.2.9')));
      expect(all.filter((a) => a.allowed)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!REDIS_URL)(`the throttle shared by two processes${REDIS_URL ? '' : ' (skipped: needs Redis, TEST_REDIS_URL)'}`, () => {
  it('makes an attempt counted by one process owe the delay at the other', async () => {
    const p = prefix();
    const a = new SigninThrottle(new RedisAttempts(REDIS_URL as string, p));
    const b = new SigninThrottle(new RedisAttempts(REDIS_URL as string, p));
    try {
      for (let i = 0; i < 3; i++) await a.attempt('carol', '198.51.100.1');
      expect(waitOf(await b.attempt('carol', '198.51.100.2'))).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('counts concurrent attempts through both processes atomically', async () => {
    const p = prefix();
    const a = new SigninThrottle(new RedisAttempts(REDIS_URL as string, p));
    const b = new SigninThrottle(new RedisAttempts(REDIS_URL as string, p));
    try {
      const all = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).attempt('erin', '198.51.100.3')));
      expect(all.filter((x) => x.allowed)).toHaveLength(THROTTLE.freeAccount);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** The sign-in form of one browser at one address: a session and its CSRF token, then posts. */
async function browserAt(app: FastifyInstance, ip: string) {
  const jar = new Jar();
  const page = await app.inject({ url: '/protocols/login', remoteAddress: ip });
  jar.take(page.headers['set-cookie']);
  const csrf = formValue(page.body, 'csrf_token') as string;
  return (username: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/protocols/login',
      remoteAddress: ip,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf_token: csrf, next: '/protocols/account', username, password }).toString(),
    });
}

// Addresses and user names of their own: counters in Redis are shared by the apps and outlive the run.
const address = () =>
  `2001:db8:${randomBytes(6)
    .toString('hex')
    .replace(/(....)(?!$)/g, '$1:')}::1`;
const backends: { name: string; redisUrl?: string }[] = [{ name: 'memory' }];
if (REDIS_URL) backends.push({ name: 'redis', redisUrl: REDIS_URL });

for (const target of STORES) {
  describe.each(backends)(`sign-in form on ${target.name}, attempts counted in $name`, (backend) => {
    let s: OpenedStore;
    let t: TestApp;
    const tag = randomBytes(4).toString('hex');
    const user = (name: string) => `${name}-${tag}`;
    beforeAll(async () => {
      s = await target.open();
      t = await makeApp(s, { services: [createProtocolsService()], config: backend.redisUrl ? { redisUrl: backend.redisUrl } : {} });
      await loadProtocols(s.db, t.generations);
      for (const name of ['dave', 'erin', 'fay', 'gus', 'hal']) await addUser(s.db, user(name));
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('slows guessing down: after three wrong passwords even the right one must wait, with Retry-After', async () => {
      const attempt = await browserAt(t.app, address());
      for (let i = 0; i < 3; i++) expect((await attempt(user('dave'), 'wrong')).statusCode).toBe(401);
      const right = await attempt(user('dave'), PASSWORD);
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(right.body).toMatch(/Too many failed sign-ins/);
      // Once the delay has passed, the right password signs in.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await attempt(user('dave'), PASSWORD)).statusCode).toBe(303);
    });

    it('checks at most the free attempts of 30 concurrent wrong passwords, and locks no other account out', async () => {
      const ip = address();
      const attempt = await browserAt(t.app, ip);
      const codes = (await Promise.all(Array.from({ length: 30 }, () => attempt(user('erin'), 'wrong')))).map((r) => r.statusCode);
      const checked = codes.filter((c) => c === 401).length;
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(THROTTLE.freeAccount);
      expect(codes.filter((c) => c === 429)).toHaveLength(30 - checked);
      // The guessed account still waits, even with its right password and from elsewhere...
      expect((await attempt(user('erin'), PASSWORD)).statusCode).toBe(429);
      expect((await (await browserAt(t.app, address()))(user('erin'), PASSWORD)).statusCode).toBe(429);
      // ...while another account signs in from the same address.
      expect((await attempt(user('fay'), PASSWORD)).statusCode).toBe(303);
    });

    it('past the free failures of an address, still signs in an account without failures from it', async () => {
      const ip = address();
      const attempt = await browserAt(t.app, ip);
      // Wrong passwords for many accounts from one address (one of them real), two past its free ones.
      for (let i = 0; i < THROTTLE.freeAddress + 1; i++) expect((await attempt(user(`nobody${i}`), 'wrong')).statusCode).toBe(401);
      expect((await attempt(user('gus'), 'wrong')).statusCode).toBe(401);
      // An account that has not failed is checked and signs in from that address.
      expect((await attempt(user('hal'), PASSWORD)).statusCode).toBe(303);
      // The one that failed waits for the address there, but not elsewhere (one failure is within its own free ones).
      // (A fresh browser at that address: the sign-in replaced this one's session and its CSRF token.)
      const there = await (await browserAt(t.app, ip))(user('gus'), PASSWORD);
      expect(there.statusCode).toBe(429);
      expect(Number(there.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await (await browserAt(t.app, address()))(user('gus'), PASSWORD)).statusCode).toBe(303);
    });
  });
}
