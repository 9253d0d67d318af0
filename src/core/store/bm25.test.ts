import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexLength, indexTokens, queryTerms, termCounts } from './bm25.js';

/** The reference: split the whole text into the index's tokens and count the query's terms among them. */
function fullSplit(analyzed: string, terms: ReadonlySet<string>): { tf: Map<string, number>; dl: number } {
  const tokens = indexTokens(analyzed);
  const tf = new Map<string, number>();
  for (const t of tokens) if (terms.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, dl: tokens.length };
}

describe('term counts for BM25', () => {
  it('equal the counts of a full split of the text, for any analysed text and query', () => {
    const token = fc.constantFrom('a', 'ab', 'b', 'ba', 'aa', 'таможня', '海关', 'x'.repeat(40), '', 'a1');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(token, { maxLength: 6 }), (text, query) => {
        const analyzed = text.join(' ');
        const terms = new Set(queryTerms(query.join(' ')));
        const reference = fullSplit(analyzed, terms);
        expect(termCounts(analyzed, terms)).toEqual(reference.tf);
        expect(indexLength(analyzed)).toBe(reference.dl);
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
