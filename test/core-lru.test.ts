import { describe, expect, it } from 'vitest';
import { SizedLru } from '../src/core/cache/lru.js';

describe('size-bounded LRU', () => {
  it('evicts the least recently used past its budget, counts a replaced value once, and keeps no value over a quarter of it', () => {
    const c = new SizedLru<string>(100);
    c.set('a', 'A', 20);
    c.set('b', 'B', 20);
    c.set('a', 'A2', 25);
    expect(c.size).toBe(45);
    expect(c.get('b')).toBe('B');
    c.set('c', 'C', 25);
    c.set('d', 'D', 25);
    // 95 held; one more evicts the least recently used ('a', since 'b' was read after it).
    c.set('e', 'E', 10);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('b')).toBe('B');
    expect(c.size).toBe(80);
    c.set('big', 'X', 26);
    expect(c.get('big')).toBeUndefined();
    c.set('b', 'B', 30);
    expect(c.get('b')).toBeUndefined();
    expect(c.size).toBe(60);
  });
});
