import { describe, expect, it } from 'vitest';
import { includesAny } from './includes-any.js';

describe('includesAny', () => {
  it('tells whether any part occurs in the text, as parts.some(includes) does', () => {
    const parts = ['[CLS]', '<mask>', 'ё'];
    for (const text of ['', 'plain', 'x[CLS]y', '[CLS', 'a<mask>', 'ёлка', 'ЁЛКА'])
      expect(includesAny(text, parts)).toBe(parts.some((p) => text.includes(p)));
    expect(includesAny('anything', [])).toBe(false);
    expect(includesAny('abc', [''])).toBe(true);
  });
});
