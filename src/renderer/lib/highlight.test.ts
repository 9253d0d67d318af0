import { describe, expect, it } from 'vitest';
import { highlightSegments, queryTerms, segmentsFromMarks } from './highlight.js';

describe('highlighting query terms', () => {
  it('marks whole terms case-insensitively and keeps all the text', () => {
    const segs = highlightSegments('Customs clearance: the customs broker.', 'customs broker');
    expect(segs.map((s) => s.text).join('')).toBe('Customs clearance: the customs broker.');
    expect(segs.filter((s) => s.match).map((s) => s.text)).toEqual(['Customs', 'customs', 'broker']);
  });

  it('treats regex characters in the query as text', () => {
    expect(highlightSegments('a (b) c.*', '(b) .*')).toEqual([{ text: 'a (b) c.*', match: false }]);
    expect(() => highlightSegments('x', '[(*')).not.toThrow();
  });

  it('marks Cyrillic and Chinese terms', () => {
    expect(
      highlightSegments('Таможенные платежи уплачиваются', 'платежи')
        .filter((s) => s.match)
        .map((s) => s.text),
    ).toEqual(['платежи']);
    expect(
      highlightSegments('海关申报指南', '申报')
        .filter((s) => s.match)
        .map((s) => s.text),
    ).toEqual(['申报']);
  });

  it('never produces markup: HTML in the text stays a plain segment', () => {
    const segs = highlightSegments('<img src=x onerror=alert(1)>', 'alert');
    expect(segs.map((s) => s.text).join('')).toBe('<img src=x onerror=alert(1)>');
    expect(segs.find((s) => s.match)?.text).toBe('alert');
  });

  it('ignores one-letter words and repeats, longest first', () => {
    expect(queryTerms('a the THE theory')).toEqual(['theory', 'the']);
  });

  it("marks inflected forms by the server's stems, whole words only, and CJK runs exactly", () => {
    const stems = { prefixes: ['тамож', 'ship'], exact: ['退货'] };
    const marked = (text: string) =>
      highlightSegments(text, 'unused', stems)
        .filter((s) => s.match)
        .map((s) => s.text);
    expect(marked('Таможня проверяет таможенные документы.')).toEqual(['Таможня', 'таможенные']);
    expect(marked('Shipping and reshipped goods')).toEqual(['Shipping']);
    expect(marked('客户申请退货。')).toEqual(['退货']);
  });

  it('literal fallback: whole words only, never a piece of a longer word', () => {
    const marked = highlightSegments('Batteries ship without care; with care.', 'with care')
      .filter((s) => s.match)
      .map((s) => s.text);
    expect(marked).toEqual(['care', 'with', 'care']);
  });

  it("marks exactly the server's ranges, keeping all the text", () => {
    const text = 'A damaged box, damaged twice';
    const segs = segmentsFromMarks(text, [
      [15, 22],
      [2, 9],
      [40, 50],
    ]);
    expect(segs.map((s) => s.text).join('')).toBe(text);
    expect(segs.filter((s) => s.match).map((s) => s.text)).toEqual(['damaged', 'damaged']);
    expect(segmentsFromMarks(text, [])).toEqual([{ text, match: false }]);
  });
});
