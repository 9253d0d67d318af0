import { describe, expect, it } from 'vitest';
import { prng } from '../util/prng.js';
import { PIECE_SPAN, pieceFinder, pieceTrie } from './piece-trie.js';

/** The longest match by slicing and looking up, as WordPiece does it: the reference. */
function bySlicing(vocab: Map<string, number>, prefix: string, w: string, start: number): number {
  for (let end = w.length; end > start; end--) {
    const id = vocab.get(start > 0 ? prefix + w.slice(start, end) : w.slice(start, end));
    if (id !== undefined) return id * PIECE_SPAN + (end - start);
  }
  return -1;
}

describe('pieceTrie', () => {
  it('finds the longest piece from any start as slicing and looking up does', () => {
    const keys = ['a', 'ab', 'abc', 'b', 'bca', '##a', '##b', '##bc', '##cab', '#', '##', '###', 'ж', '##жы', 'é', '##é', 'x'];
    const vocab = new Map(keys.map((k, i) => [k, i + 3]));
    const trie = pieceTrie(vocab, '##')!;
    expect(trie).toBeDefined();
    const rand = prng(7);
    const letters = 'abc#жыéxq';
    for (let n = 0; n < 3000; n++) {
      const len = 1 + Math.floor(rand() * 9);
      let w = '';
      for (let i = 0; i < len; i++) w += letters[Math.floor(rand() * letters.length)];
      for (let start = 0; start < w.length; start++)
        expect(trie.longest(w, start), `${w} @${start}`).toBe(bySlicing(vocab, '##', w, start));
    }
  });

  it('gives no trie when number keys would not stay small, and then finds the same pieces by slicing', () => {
    const vocab = new Map<string, number>();
    const ch = (i: number) => String.fromCharCode(0x4e00 + i);
    for (let i = 0; i < 40_000; i++) vocab.set(ch(i) + ch((i * 7) % 20_000), i);
    vocab.set(`##${ch(5)}`, 40_000);
    expect(pieceTrie(vocab, '##')).toBeUndefined();
    const finder = pieceFinder(vocab, '##');
    expect(pieceFinder(vocab, '##')).toBe(finder);
    const rand = prng(11);
    for (let n = 0; n < 500; n++) {
      const w = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => ch(Math.floor(rand() * 40))).join('');
      for (let start = 0; start < w.length; start++)
        expect(finder.longest(w, start), `${w} @${start}`).toBe(bySlicing(vocab, '##', w, start));
    }
  });
});
