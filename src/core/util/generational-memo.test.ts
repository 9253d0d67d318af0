import { describe, expect, it } from 'vitest';
import { GenerationalMemo } from './generational-memo.js';

describe('GenerationalMemo', () => {
  it('holds at most max entries, and keeps a key in use across turnovers where an emptied map forgets it', () => {
    const memo = new GenerationalMemo<string, number>(4);
    memo.set('hot', 1);
    for (let i = 0; i < 100; i++) {
      // 'hot' is looked up between every two new keys: each turnover finds it in the young or the old generation.
      expect(memo.get('hot')).toBe(1);
      memo.set(`cold${i}`, i);
      expect(memo.size).toBeLessThanOrEqual(4);
    }
    expect(memo.get('cold0')).toBeUndefined();
    expect(memo.get('cold99')).toBe(99);
  });

  it('drops a key not used for two generations', () => {
    const memo = new GenerationalMemo<string, number>(4);
    memo.set('a', 1);
    memo.set('b', 2);
    memo.set('c', 3); // the young {a, b} becomes the old one
    expect(memo.get('a')).toBe(1); // copied into the young {c, a}
    memo.set('d', 4); // the young {c, a} becomes the old one; {b} is gone
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBe(1);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(memo.get('a')).toBeUndefined();
  });

  it('keeps the key set() is given, and the key own() makes for a hit copied into the young generation', () => {
    const owned: string[] = [];
    const memo = new GenerationalMemo<string, number>(2, (k) => {
      owned.push(k);
      return k;
    });
    memo.set('x', 1);
    memo.set('y', 2); // {x} becomes old
    expect(memo.get('x')).toBe(1);
    // set() keeps its key as given (the caller made it its own once); only the copy of the old hit goes through own().
    expect(owned).toEqual(['x']);
  });
});
