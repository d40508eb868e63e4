/** Guessing protection of the sign-in form: per account and per address, growing delays, shared through Redis. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFailures, RedisFailures, SigninThrottle, THROTTLE, delayAfter, type FailureStore } from '../src/services/protocols/signin-throttle.js';
import type { TestApp } from './helpers/app.js';
import { Jar, addUser, formValue, PASSWORD, protoApp, loadProtocols } from './helpers/protocols.js';
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

const kinds: { name: string; make(clock: () => number): FailureStore }[] = [{ name: 'memory', make: (clock) => new MemoryFailures(clock) }];
if (REDIS_URL) kinds.push({ name: 'redis', make: () => new RedisFailures(REDIS_URL as string, `bmtest:signin:${randomBytes(4).toString('hex')}:`) });

describe.each(kinds)('the throttle on $name', (kind) => {
  it('owes a growing delay per account, whatever the address, and clears it on success', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const t = new SigninThrottle(kind.make(clock), clock);
    try {
      for (let i = 0; i < 3; i++) await t.failed('Alice', `10.0.0.${i}`);
      expect(await t.wait('alice', '10.9.9.9')).toBe(1000);
      now += 1000;
      expect(await t.wait('alice', '10.9.9.9')).toBe(0);
      await t.failed('alice', '10.9.9.9');
      expect(await t.wait('ALICE', '10.0.0.1')).toBe(2000);
      await t.succeeded('alice');
      expect(await t.wait('alice', '10.0.0.7')).toBe(0);
      // Another account from a fresh address is not slowed.
      expect(await t.wait('bob', '10.0.0.8')).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('owes a delay per address across accounts', async () => {
    let now = 5_000_000;
    const clock = () => now;
    const t = new SigninThrottle(kind.make(clock), clock);
    try {
      for (let i = 0; i < THROTTLE.freeAddress; i++) await t.failed(`user${i}`, '192.0.2.1');
      expect(await t.wait('someone-else', '192.0.2.1')).toBe(1000);
      expect(await t.wait('someone-else', '192.0.2.2')).toBe(0);
      now += 1000;
      expect(await t.wait('someone-else', '192.0.2.1')).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!REDIS_URL)(`the throttle shared by two processes${REDIS_URL ? '' : ' (skipped: needs Redis, TEST_REDIS_URL)'}`, () => {
  it('makes a failure counted by one process owe the delay at the other', async () => {
    const prefix = `bmtest:signin:${randomBytes(4).toString('hex')}:`;
    const a = new SigninThrottle(new RedisFailures(REDIS_URL as string, prefix));
    const b = new SigninThrottle(new RedisFailures(REDIS_URL as string, prefix));
    try {
      for (let i = 0; i < 3; i++) await a.failed('carol', '198.51.100.1');
      expect(await b.wait('carol', '198.51.100.2')).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

for (const target of STORES) {
  describe(`sign-in form on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await protoApp(s);
      await loadProtocols(s.db, t.generations);
      await addUser(s.db, 'dave');
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('slows guessing down: after three wrong passwords even the right one must wait, with Retry-After', async () => {
      const jar = new Jar();
      const attempt = async (password: string) => {
        const page = await t.app.inject({ url: '/protocols/login', headers: { cookie: jar.header() } });
        jar.take(page.headers['set-cookie']);
        const r = await t.app.inject({
          method: 'POST',
          url: '/protocols/login',
          headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ csrf_token: formValue(page.body, 'csrf_token') as string, next: '/protocols/account', username: 'dave', password }).toString(),
        });
        jar.take(r.headers['set-cookie']);
        return r;
      };
      for (let i = 0; i < 3; i++) expect((await attempt('wrong')).statusCode).toBe(401);
      const right = await attempt(PASSWORD);
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(right.body).toMatch(/Too many failed sign-ins/);
      // Once the delay has passed, the right password signs in.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await attempt(PASSWORD)).statusCode).toBe(303);
    });
  });
}
