import { describe, expect, it } from 'vitest';
import { forEachSegment, lineRanges, sentenceRanges, splitByCharacters, wordPieces } from './segment.js';
import { EN_SENTENCES, RU_SENTENCES, ZH_SENTENCES, repeatSentences } from './test-support.js';

const texts = (text: string, ranges: Array<[number, number]>): string[] => ranges.map(([s, e]) => text.slice(s, e));

describe('sentenceRanges', () => {
  it.each([
    ['English', EN_SENTENCES, ' '],
    ['Russian', RU_SENTENCES, ' '],
    ['Chinese (。！？)', ZH_SENTENCES, ''],
  ])('splits %s sentences', (_lang, sentences, sep) => {
    const text = sentences.join(sep);
    expect(texts(text, sentenceRanges(text))).toEqual(sentences);
  });

  it('breaks at line ends and skips blank lines', () => {
    const text = '# Title\n\nFirst. Second\n\n  \n- item';
    expect(texts(text, sentenceRanges(text))).toEqual(['# Title', 'First.', 'Second', '- item']);
  });

  it('gives the same sentences on a long text as on its parts (windowed segmentation)', () => {
    const para = repeatSentences([...EN_SENTENCES, ...RU_SENTENCES], 1) + repeatSentences(ZH_SENTENCES, 1, '');
    const text = Array.from({ length: 60 }, () => para).join('\n');
    const got = texts(text, sentenceRanges(text));
    const expected = Array.from({ length: 60 }, () => [...EN_SENTENCES, ...RU_SENTENCES, ...ZH_SENTENCES]).flat();
    expect(got).toEqual(expected);
  });
});

describe('forEachSegment', () => {
  it('matches one-shot segmentation on a text many windows long', () => {
    const seg = new Intl.Segmenter(undefined, { granularity: 'word' });
    const text = repeatSentences([...EN_SENTENCES, ...RU_SENTENCES, ...ZH_SENTENCES], 12);
    const direct = [...seg.segment(text)].map((s) => [s.index, s.index + s.segment.length]);
    const windowed: number[][] = [];
    forEachSegment(seg, text, 0, text.length, (s, e) => windowed.push([s, e]));
    expect(windowed).toEqual(direct);
  });

  it('cuts a segment longer than a window instead of stalling', () => {
    const seg = new Intl.Segmenter(undefined, { granularity: 'word' });
    const text = `a ${'x'.repeat(10_000)} b`;
    const got: string[] = [];
    forEachSegment(seg, text, 0, text.length, (s, e) => got.push(text.slice(s, e)));
    expect(got.join('')).toBe(text);
  });
});

describe('wordPieces', () => {
  it('attaches leading whitespace and trailing punctuation to words', () => {
    const text = 'Hello, world. Привет-мир 今天天气很好。';
    const { starts, ends } = wordPieces(text);
    const pieces = starts.map((s, i) => text.slice(s, ends[i]));
    expect(pieces).toEqual(['Hello,', ' world.', ' Привет-', 'мир', ' 今天', '天气', '很好。']);
  });
});

describe('lineRanges and splitByCharacters', () => {
  it('lists non-blank trimmed lines', () => {
    const text = 'a\n\n  b  \nc';
    expect(texts(text, lineRanges(text))).toEqual(['a', 'b', 'c']);
  });

  it('cuts into slices that fit the budget', () => {
    const text = 'y'.repeat(1000);
    const { ranges, costs } = splitByCharacters(text, 0, 1000, 64, (t) => t.length);
    expect(costs.every((c) => c <= 64)).toBe(true);
    expect(ranges[0]![0]).toBe(0);
    expect(ranges.at(-1)![1]).toBe(1000);
  });
});
