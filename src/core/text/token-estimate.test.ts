import { describe, expect, it } from 'vitest';
import { estimateTokenCounter } from '../chunk/estimate.js';
import { estimateTokens } from './token-estimate.js';

describe('estimateTokens', () => {
  it('is 0 for empty or blank text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('  \n\t ')).toBe(0);
  });

  it('counts ceil(chars / 4) word pieces per word, at least one', () => {
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('cat')).toBe(1);
    expect(estimateTokens('word')).toBe(1);
    expect(estimateTokens('words')).toBe(2);
    expect(estimateTokens('internationalization')).toBe(5); // 20 chars
    expect(estimateTokens('the cat sat')).toBe(3);
  });

  it('treats Cyrillic words like other words', () => {
    expect(estimateTokens('таможенной')).toBe(3); // 10 chars
    expect(estimateTokens('и в на')).toBe(3);
  });

  it('counts one token per CJK character', () => {
    expect(estimateTokens('中华人民共和国')).toBe(7);
    expect(estimateTokens('ひらがなカタカナ')).toBe(8);
    expect(estimateTokens('한국어')).toBe(3);
  });

  it('splits mixed scripts and counts punctuation', () => {
    expect(estimateTokens('abc中文')).toBe(3); // "abc" + 中 + 文
    expect(estimateTokens('Hello, world!')).toBe(2 + 1 + 2 + 1); // hello(5)=2 , world(5)=2 !
    expect(estimateTokens('版本2.0发布')).toBe(2 + 1 + 1 + 1 + 2);
  });

  it('counts a character outside the BMP once', () => {
    expect(estimateTokens('𐐀𐐁𐐂𐐃')).toBe(1); // 4 Deseret letters, 8 UTF-16 units
  });

  it('is exposed as the `estimate` TokenCounter', () => {
    expect(estimateTokenCounter.id).toBe('estimate');
    expect(estimateTokenCounter.count('heart disease')).toBe(estimateTokens('heart disease'));
  });

  it('grows roughly linearly with text length', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(1000);
    expect(estimateTokens(text)).toBe(1000 * (2 + 2 + 2 + 1 + 1));
  });
});
