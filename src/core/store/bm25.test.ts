import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25, dfFromScore, indexLength, indexTokens, queryTerms, termCounts } from './bm25.js';

/** The reference: split the whole text into the index's tokens and count the query's terms among them. */
function fullSplit(analyzed: string, terms: ReadonlySet<string>): { tf: Map<string, number>; dl: number } {
  const tokens = indexTokens(analyzed);
  const tf = new Map<string, number>();
  for (const t of tokens) if (terms.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, dl: tokens.length };
}

describe('term counts for BM25', () => {
  it('equal the counts of a full split of the text, for any analysed text and query', () => {
    // Tokens on both sides of the 40-byte limit: ASCII, two-byte Cyrillic, three-byte CJK, four-byte pairs, lone
    // surrogates (three bytes each, as U+FFFD).
    const token = fc.constantFrom(
      ...['a', 'ab', 'b', 'ba', 'aa', 'таможня', '海关', 'x'.repeat(40), '', 'a1'],
      ...['x'.repeat(13), 'x'.repeat(14), 'x'.repeat(39), 'ж'.repeat(19), 'ж'.repeat(20), '海'.repeat(13), '海'.repeat(14)],
      ...['😀'.repeat(9), '😀'.repeat(10), '\ud83d'.repeat(13), '\ude00'.repeat(14), `${'x'.repeat(36)}\ud83d`, `${'x'.repeat(37)}\ud83d`],
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(token, { maxLength: 6 }), (text, query) => {
        const analyzed = text.join(' ');
        const terms = new Set(queryTerms(query.join(' ')));
        const reference = fullSplit(analyzed, terms);
        expect(termCounts(analyzed, terms)).toEqual(reference.tf);
        expect(indexLength(analyzed)).toBe(reference.dl);
        // Both count bytes through bm25.ts; Node's own count is the independent reference for the 40-byte limit.
        expect(reference.dl).toBe(text.filter((t) => t !== '' && Buffer.byteLength(t, 'utf8') < 40).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('count a term only as a whole token, adjacent repeats included', () => {
    expect(termCounts('ab a a ba aab a', new Set(['a', 'ab', 'b']))).toEqual(
      new Map([
        ['a', 3],
        ['ab', 1],
      ]),
    );
  });
});

describe('document frequency from a one-term score', () => {
  it('inverts bm25 for any count up to a million rows (float32 scores), and refuses a score no whole count gives', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 400 }),
        (docs, share, tf, dl) => {
          const df = Math.max(1, Math.round(share * docs));
          const tokens = docs * 120;
          const stats = { docs, tokens, df: new Map([['t', df]]) };
          // LanceDB hands scores back as float32.
          const score = Math.fround(bm25(new Map([['t', tf]]), Math.max(dl, tf), stats));
          expect(dfFromScore(score, tf, Math.max(dl, tf), docs, tokens)).toBe(df);
        },
      ),
    );
    // A score no whole count gives (as from statistics other than the ones passed in) is refused.
    const half = bm25(new Map([['t', 2]]), 100, { docs: 100_000, tokens: 12_000_000, df: new Map([['t', 40_000.5]]) });
    expect(dfFromScore(half, 2, 100, 100_000, 12_000_000)).toBeUndefined();
  });
});
