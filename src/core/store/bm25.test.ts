import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25, dfFromScore, dfsFromScores, indexLength, indexTokens, queryTerms, termCounts, type LexStats } from './bm25.js';

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

describe('document frequencies from the scores of one query', () => {
  const rowsOf = (tfs: Array<Record<string, number>>, stats: LexStats, dls: number[]) =>
    tfs.map((tf, i) => {
      const m = new Map(Object.entries(tf).filter(([, n]) => n > 0));
      // LanceDB hands scores back as float32.
      return { tf: m, dl: dls[i]!, score: Math.fround(bm25(m, dls[i]!, stats)) };
    });

  it('solves the counts of the terms the rows hold, exactly, for any counts up to a million rows, given the known ones', () => {
    let asked = 0;
    let solved = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 50, max: 1_000_000 }),
        fc.array(fc.double({ min: 0, max: 0.6, noNaN: true }), { minLength: 2, maxLength: 6 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 6, maxLength: 6 }), { minLength: 12, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (docs, shares, tfRows, seed) => {
          const terms = shares.map((_, i) => `t${i}`);
          const df = new Map(terms.map((t, i) => [t, Math.max(1, Math.round(shares[i]! * docs))]));
          const stats: LexStats = { docs, tokens: docs * 90, df };
          const tfs = tfRows.map((row) => Object.fromEntries(terms.map((t, i) => [t, row[i]!])));
          const rows = rowsOf(
            tfs,
            stats,
            tfRows.map((row, i) => 20 + ((seed + i * 37) % 200) + row.reduce((a, b) => a + b, 0)),
          );
          const known = new Map([[terms[0]!, df.get(terms[0]!)!]]);
          const got = dfsFromScores(rows, known, docs, stats.tokens);
          // A count given is exact; one the scores do not pin down is left out.
          for (const [t, n] of got) expect(n, t).toBe(df.get(t));
          asked += terms.slice(1).filter((t) => rows.some((r) => r.tf.has(t))).length;
          solved += got.size;
        },
      ),
    );
    // Most are pinned down (the rest: very common terms in large tables, where float32 scores cannot tell n from n ± 1).
    expect(solved / asked).toBeGreaterThan(0.8);
  });

  it('solves a typical candidate list: rows holding several terms each, none holding one alone', () => {
    const stats: LexStats = {
      docs: 9640,
      tokens: 9640 * 210,
      df: new Map([
        ['cell', 1200],
        ['tumor', 310],
        ['growth', 880],
      ]),
    };
    const tfs: Array<Record<string, number>> = [
      { cell: 3, tumor: 2, growth: 1 },
      { cell: 1, tumor: 1, growth: 2 },
      { cell: 2, tumor: 3 },
      { tumor: 1, growth: 1 },
      { cell: 5, growth: 3 },
    ];
    const got = dfsFromScores(rowsOf(tfs, stats, [180, 240, 200, 90, 310]), new Map(), stats.docs, stats.tokens);
    expect(Object.fromEntries(got)).toEqual({ cell: 1200, tumor: 310, growth: 880 });
  });

  it('gives nothing where the rows cannot tell two terms apart, or the scores come from other statistics', () => {
    const stats: LexStats = {
      docs: 5000,
      tokens: 5000 * 100,
      df: new Map([
        ['a', 40],
        ['b', 900],
        ['c', 75],
      ]),
    };
    // `b` and `c` always together, the same number of times: only their sum is known.
    const together = rowsOf([{ a: 1, b: 2, c: 2 }, { b: 1, c: 1 }, { a: 3 }, { a: 1, b: 1, c: 1 }], stats, [80, 120, 60, 150]);
    expect(dfsFromScores(together, new Map(), stats.docs, stats.tokens).size).toBe(0);
    // Scores of an index that still counts 300 removed rows: no whole counts fit (or they fail the check).
    const stale = rowsOf([{ a: 1, b: 2 }, { b: 1, c: 1 }, { a: 3, c: 1 }, { c: 2 }], { ...stats, docs: 5300 }, [80, 120, 60, 150]);
    expect(dfsFromScores(stale, new Map(), stats.docs, stats.tokens).size).toBe(0);
    // No rows, or nothing unknown.
    expect(dfsFromScores([], new Map(), stats.docs, stats.tokens).size).toBe(0);
    expect(dfsFromScores(together.slice(2, 3), new Map([['a', 40]]), stats.docs, stats.tokens).size).toBe(0);
  });
});
