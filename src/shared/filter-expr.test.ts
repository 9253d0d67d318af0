import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FILTER_EXPR_CHARS } from './contract/filter-fields.js';
import { RagError } from './errors.js';
import { parseFilterExpr, parseFilterList, splitConditions } from './filter-expr.js';

describe('filter_expr', () => {
  it('takes objects, JSON text and field__op=value pairs', () => {
    expect(parseFilterExpr(null)).toBeNull();
    expect(parseFilterExpr({})).toBeNull();
    expect(parseFilterExpr({ year__gte: 2020 })).toEqual({ year__gte: 2020 });
    expect(parseFilterExpr('{"year__gte": 2020}')).toEqual({ year__gte: 2020 });
    expect(parseFilterExpr('year__gte=2020, source=wiki AND tags__in=["a","b"]')).toEqual({
      year__gte: 2020,
      source: 'wiki',
      tags__in: ['a', 'b'],
    });
    expect(() => parseFilterExpr('{broken')).toThrow(/filter_expr/);
    expect(() => parseFilterExpr('just words')).toThrow(/filter_expr/);
  });

  it('splits on commas, AND and && only outside quotes and brackets', () => {
    expect(splitConditions('a="x, y AND z" && b=[1,2] and c:3')).toEqual(['a="x, y AND z"', 'b=[1,2]', 'c:3']);
    expect(splitConditions('title=BRAND, band=ANDes')).toEqual(['title=BRAND', 'band=ANDes']);
    expect(parseFilterExpr('lang:ru, year==2021')).toEqual({ lang: 'ru', year: 2021 });
    expect(parseFilterExpr("name='O\\'Brien'")).toEqual({ name: "O\\'Brien" });
  });

  it('caps the text form, and reads one CLI condition whole', () => {
    expect(() => parseFilterExpr(`a=${'x'.repeat(MAX_FILTER_EXPR_CHARS)}`)).toThrow(/limit/);
    expect(parseFilterList(['title=Smith, J.', 'year__gte=2020'])).toEqual({ title: 'Smith, J.', year__gte: 2020 });
    expect(parseFilterList([])).toBeUndefined();
    expect(() => parseFilterList(['no value here'])).toThrow(RagError);
  });

  it('never fails with anything but invalid_parameter, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: fc.constantFrom(...'ab_=:,&"\'[]{} AND0123.-\\'.split('')) }), (text) => {
        try {
          const out = parseFilterExpr(text);
          expect(out === null || typeof out === 'object').toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(RagError);
          expect((err as RagError).code).toBe('invalid_parameter');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads a filter at the length limit in one pass (no per-position rescans)', () => {
    // 8,000 conditions of `ab=1,`: the old parser ran a regex over the rest of the text at every position.
    const text = 'ab=1,'.repeat(Math.floor(MAX_FILTER_EXPR_CHARS / 5) - 1);
    let reads = 0;
    const spy = String.prototype.slice;
    String.prototype.slice = function (this: string, ...args: Parameters<string['slice']>) {
      reads += (args[1] ?? this.length) - (args[0] ?? 0) > 0 ? Math.min(this.length, (args[1] ?? this.length) - (args[0] ?? 0)) : 0;
      return spy.apply(this, args);
    } as typeof spy;
    try {
      expect(parseFilterExpr(text)).toEqual({ ab: 1 });
    } finally {
      String.prototype.slice = spy;
    }
    // Characters copied by slicing stay linear in the input (a quadratic scan copies ~n²/2 = 13 M here).
    expect(reads).toBeLessThan(text.length * 20);
  });
});
