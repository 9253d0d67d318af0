import { describe, expect, it } from 'vitest';
import { characterErrorRate, editDistance, normalizeForCer } from './cer.js';
import { cleanOcrText } from './text-cleanup.js';

describe("cleaning Tesseract's text", () => {
  it('removes the spaces Tesseract puts between Chinese characters and joins wrapped Chinese lines', () => {
    expect(cleanOcrText('委员 会 审议 了 季度 预算 ，\n并 批准')).toBe('委员会审议了季度预算，并批准');
  });

  it('joins the lines of a paragraph and mends words hyphenated at a line end', () => {
    expect(cleanOcrText('approved funding for the new labo-\nratory.  Members\nnoted')).toBe(
      'approved funding for the new laboratory. Members noted',
    );
    expect(cleanOcrText('финанси-\nрование')).toBe('финансирование');
    // A hyphen before an upper-case word is a real one.
    expect(cleanOcrText('Jean-\nPierre')).toBe('Jean- Pierre');
  });
});

describe('character error rate', () => {
  it('counts edits over the known text, code point by code point', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('二千', '二干')).toBe(1);
    expect(characterErrorRate('hello world', 'hello world')).toBe(0);
    expect(characterErrorRate('hallo world', 'hello world')).toBeCloseTo(1 / 11);
    expect(characterErrorRate('', 'abc')).toBe(1);
  });

  it('compares as a reader would: full-width punctuation, spacing around Chinese, whitespace runs', () => {
    expect(normalizeForCer('增长 百分之九 ， 主要')).toBe('增长百分之九,主要');
    expect(characterErrorRate('增长百分之九，主要', '增长 百分之九, 主要')).toBe(0);
    expect(characterErrorRate('one\n two', 'one two')).toBe(0);
  });
});
