import { describe, expect, it } from 'vitest';
import { ByteBudget } from '../src/core/limits/byte-budget.js';

describe('a budget of bytes held at once', () => {
  it('grants what fits, makes the rest wait in order, and grants them as bytes come back', async () => {
    const b = new ByteBudget(100);
    expect(await b.acquire(60, 1000)).toBe(true);
    const order: string[] = [];
    const second = b.acquire(50, 1000).then((ok) => order.push(`second ${String(ok)}`));
    const third = b.acquire(10, 1000).then((ok) => order.push(`third ${String(ok)}`));
    // Nobody passes those waiting, even bytes that would fit.
    expect(b.tryTake(10)).toBe(false);
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    b.release(60);
    await Promise.all([second, third]);
    expect(order).toEqual(['second true', 'third true']);
    expect(b.inUse).toBe(60);
  });

  it('refuses what can never fit at once, and a wait that runs out, which then holds nobody up', async () => {
    const b = new ByteBudget(100);
    expect(await b.acquire(101, 1000)).toBe(false);
    expect(b.tryTake(90)).toBe(true);
    expect(await b.acquire(20, 20)).toBe(false);
    expect(b.tryTake(10)).toBe(true);
    b.release(100);
    expect(b.inUse).toBe(0);
  });
});
