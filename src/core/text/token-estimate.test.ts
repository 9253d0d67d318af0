import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { estimateTokenCounter } from '../chunk/estimate.js';
import { estimateTokens, estimateTokensByPattern } from './token-estimate.js';

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

describe('estimateTokens against the pattern it implements', () => {
  it('counts exactly as PIECE over mixed scripts, marks, digits, symbols, surrogate pairs and lone surrogates', () => {
    const alphabet = [
      ...'ab Zz09 \t\n.,;-_|#*`()[]{}"\'!?',
      ...'таможнёЁ',
      ...'中华海关ひらがなカタカナ한국어',
      '\u0301', // combining acute (a mark)
      '\u00a0', // no-break space
      '\u3000', // ideographic space
      '⿅',
      '⻔',
      'Ⅻ', // a letter number
      '٣', // Arabic-Indic digit
      '𐐀', // Deseret (outside the BMP)
      '𠀀', // Han outside the BMP
      '😀',
      '\ud800', // a lone high surrogate
      '\udc00', // a lone low surrogate
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 2000; n++) {
      const len = next() % 40;
      let text = '';
      for (let k = 0; k < len; k++) text += alphabet[next() % alphabet.length];
      expect(estimateTokens(text), JSON.stringify(text)).toBe(estimateTokensByPattern(text));
    }
  });

  it('counts the sample KB exactly as the pattern does', () => {
    const dir = fileURLToPath(new URL('../../../rag_data/', import.meta.url));
    for (const name of fs.readdirSync(dir).filter((f) => /\.(md|txt|html)$/.test(f))) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(estimateTokens(text), name).toBe(estimateTokensByPattern(text));
    }
  });
});
