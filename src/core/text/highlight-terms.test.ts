import { describe, expect, it } from 'vitest';
import { highlightTerms, markRanges } from './highlight-terms.js';

/** The marked pieces of `text` for `query`. */
const marked = (query: string, text: string) => markRanges(query, text).map(([s, e]) => text.slice(s, e));

describe('markRanges', () => {
  it('the issue repro: never a letter inside a word, never a stop word', () => {
    const text =
      'Batteries must be shipped with a UN38.3 summary. How do I return a damaged product? Returns of damaged products are accepted.';
    expect(marked('how do I return a damaged product', text)).toEqual(['return', 'damaged', 'product', 'Returns', 'damaged', 'products']);
    expect(marked('with', 'Batteries ship with care')).toEqual([]);
    expect(marked('i', 'Batteries, I said')).toEqual([]);
  });

  it('marks whole words whose stems meet the query, as full-text search matched them', () => {
    expect(marked('shipped goods', 'Shipping and reshipped goods; a shipyard.')).toEqual(['Shipping', 'goods']);
    // Russian: the stem or its 5-letter prefix (the analyzer's), whole words only.
    expect(marked('таможенной пошлины', 'Таможня проверяет таможенные документы и пошлину.')).toEqual(['Таможня', 'таможенные', 'пошлину']);
    expect(marked('ёлка', 'Елка и ёлки')).toEqual(['Елка', 'ёлки']);
  });

  it('marks CJK by the query bigrams, a lone character only when the query is one', () => {
    expect(marked('退货', '客户申请退货。退款不是退货')).toEqual(['退货', '退货']);
    expect(marked('退货', '退款')).toEqual([]);
    expect(marked('海关申报', '请先办理海关申报手续')).toEqual(['海关申报']);
    expect(marked('税', '关税和税费')).toEqual(['税', '税']);
    // A character outside the BMP counts as one character (two UTF-16 units).
    expect(marked('𠀀好', 'x𠀀好y')).toEqual(['𠀀好']);
    // CJK radicals (as PDFs printed with some CJK fonts hold them) meet their ideographs either way.
    expect(marked('⻔到⻔', '门到门服务')).toEqual(['门到门']);
    expect(marked('门到门', '⻔到⻔服务')).toEqual(['⻔到⻔']);
  });

  it('mixed scripts in one word, numbers, and nothing for a query of stop words', () => {
    expect(marked('UN38 海关', 'UN38海关 2024')).toEqual(['UN38海关']);
    expect(marked('海关', 'UN38海关')).toEqual(['海关']);
    expect(marked('2024', 'In 2024 and 20245')).toEqual(['2024']);
    expect(marked('the of and', 'the of and')).toEqual([]);
  });
});

describe('highlightTerms', () => {
  it('gives ranges per text when texts are given', () => {
    const t = highlightTerms('damaged product', ['A damaged box', 'no match']);
    expect(t.marks).toEqual([[[2, 9]], []]);
  });

  it('keeps the text-free hint: stems as prefixes, CJK and numbers exact, no stop words or lone letters', () => {
    const t = highlightTerms('Shipped таможенной пошлины of the goods I');
    expect(t.prefixes).toEqual(expect.arrayContaining(['ship', 'тамож', 'пошли', 'good']));
    expect(t.prefixes).not.toContain('the');
    expect(t.exact).not.toContain('i');
    expect(highlightTerms('退货 2024 海关申报')).toEqual({ prefixes: [], exact: ['海关申报', '2024', '退货'] });
  });
});
