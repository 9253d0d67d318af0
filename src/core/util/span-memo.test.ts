import { describe, expect, it } from 'vitest';
import { hashOf, SPAN_HASH_SEED, spanHash, SpanMemo } from './span-memo.js';

/** Look `word` up as a span of a longer text, the way a scan does. */
const lookup = <V>(memo: SpanMemo<V>, word: string) => {
  const text = `«${word}» and more`;
  return memo.get(text, 1, 1 + word.length, hashOf(word));
};

describe('SpanMemo', () => {
  it('finds a value by any span holding the same characters, and not by a span that only shares its hash', () => {
    const memo = new SpanMemo<string>(8);
    memo.set('harbor', hashOf('harbor'), 'harbor-stem');
    expect(lookup(memo, 'harbor')).toBe('harbor-stem');
    expect(memo.get('the harbor', 4, 10, hashOf('the harbor', 4, 10))).toBe('harbor-stem');
    // The same hash with other characters, and the same characters one short.
    expect(memo.get('harbuz', 0, 6, hashOf('harbor'))).toBeUndefined();
    expect(memo.get('harbor', 0, 5, hashOf('harbor'))).toBeUndefined();
  });

  it('hashes a span as a scan does, from a seed of its own', () => {
    let h = SPAN_HASH_SEED;
    for (const c of 'таможня') h = spanHash(h, c.charCodeAt(0));
    expect(hashOf('таможня')).toBe(h);
    expect(hashOf('xx таможня yy', 3, 10)).toBe(h);
  });

  it('holds at most max entries, keeps a word in use across turnovers, and drops one unused for two', () => {
    const memo = new SpanMemo<number>(4);
    memo.set('hot', hashOf('hot'), 1);
    for (let i = 0; i < 100; i++) {
      expect(lookup(memo, 'hot')).toBe(1);
      memo.set(`cold${i}`, hashOf(`cold${i}`), i);
      expect(memo.size).toBeLessThanOrEqual(4);
    }
    expect(lookup(memo, 'cold0')).toBeUndefined();
    expect(lookup(memo, 'cold99')).toBe(99);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(lookup(memo, 'hot')).toBeUndefined();
  });

  it('gives up on a probe past 16 slots: words of one hash (a hostile text) are computed again, never a wrong value', () => {
    const memo = new SpanMemo<string>(1000);
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    // Every word under one hash: each insert walks the same chain.
    for (const w of words) memo.set(w, 7, w.toUpperCase());
    const found = words.map((w) => memo.get(w, 0, w.length, 7));
    expect(found.slice(0, 16)).toEqual(words.slice(0, 16).map((w) => w.toUpperCase()));
    expect(found.slice(16)).toEqual(new Array(24).fill(undefined));
    expect(memo.size).toBe(16);
  });
});
