import { describe, expect, it } from 'vitest';
import { fuse, type Ranked } from './fusion.js';

const list = (pairs: Array<[string, number]>): Array<Ranked<string>> => pairs.map(([key, score]) => ({ key, score, item: key }));

describe('fuse', () => {
  it('rrf rewards agreement', () => {
    const out = fuse(
      [
        list([
          ['a', 9],
          ['b', 8],
          ['c', 1],
        ]),
        list([
          ['b', 0.9],
          ['c', 0.8],
          ['a', 0.1],
        ]),
      ],
      'rrf',
    );
    expect(out[0]!.key).toBe('b');
  });

  it('adaptive follows the ranking that separates its top hits, not the flat one', () => {
    const peaked = list([
      ['a', 20],
      ['b', 5],
      ['c', 4.9],
      ['d', 4.8],
      ['e', 4.7],
    ]);
    const flat = list([
      ['e', 0.51],
      ['d', 0.505],
      ['c', 0.5],
      ['b', 0.499],
      ['a', 0.498],
    ]);
    expect(fuse([peaked, flat], 'adaptive')[0]!.key).toBe('a');
    // A peaked vector ranking over a flat lexical one moves its best hit up, within the bound on its weight.
    const order = fuse([flat, peaked], 'adaptive').map((r) => r.key);
    expect(order.indexOf('a')).toBeLessThan(4);
  });

  it('passes a single non-empty ranking through unchanged', () => {
    expect(
      fuse(
        [
          list([
            ['x', 3],
            ['y', 1],
          ]),
          [],
        ],
        'adaptive',
      ).map((r) => r.key),
    ).toEqual(['x', 'y']);
  });

  it('includes documents found by only one side', () => {
    const out = fuse(
      [
        list([
          ['a', 3],
          ['b', 2],
        ]),
        list([
          ['c', 0.9],
          ['a', 0.8],
        ]),
      ],
      'adaptive',
    );
    expect(out.map((r) => r.key).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('adaptive fusion bounds the vector ranking by the lexical one', () => {
  it('a very confident vector ranking cannot outvote a clear lexical winner', () => {
    const lexical = list([
      ['a', 10],
      ['b', 6],
      ['c', 5],
      ['d', 4.5],
      ['e', 4],
    ]);
    const vector = list([
      ['e', 0.99],
      ['d', 0.2],
      ['c', 0.19],
      ['b', 0.18],
      ['a', 0.17],
    ]);
    expect(fuse([lexical, vector], 'adaptive')[0]!.key).toBe('a');
  });
  it('still lets the vector ranking decide among lexical ties', () => {
    const lexical = list([
      ['a', 5],
      ['b', 5],
      ['c', 1],
      ['d', 1],
      ['e', 1],
    ]);
    const vector = list([
      ['b', 0.9],
      ['a', 0.5],
      ['c', 0.4],
      ['d', 0.3],
      ['e', 0.2],
    ]);
    expect(fuse([lexical, vector], 'adaptive')[0]!.key).toBe('b');
  });
});
