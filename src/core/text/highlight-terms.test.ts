import { describe, expect, it } from 'vitest';
import { highlightTerms } from './highlight-terms.js';

describe('highlightTerms', () => {
  it('gives stems as prefixes for English and Russian, so inflected forms get marked', () => {
    const t = highlightTerms('Shipped таможенной пошлины of the goods');
    expect(t.prefixes).toEqual(expect.arrayContaining(['ship', 'тамож', 'пошли', 'good']));
    expect(t.prefixes).not.toContain('the');
    for (const form of ['таможня', 'таможенные', 'shipping']) expect(t.prefixes.some((p) => form.startsWith(p))).toBe(true);
  });

  it('keeps CJK runs and numbers exact', () => {
    expect(highlightTerms('退货 2024 海关申报')).toEqual({ prefixes: [], exact: ['海关申报', '2024', '退货'] });
  });
});
