import { describe, expect, it } from 'vitest';
import type { Unit } from './pack.js';
import { packUnits, rangesToUnits } from './pack.js';
import { sentenceRanges } from './segment.js';
import { TokenCost } from './span.js';
import { specialCounter, wordCounter } from './test-support.js';

const text = 'A1 a2 a3. B1 b2 b3. C1 c2 c3. D1 d2 d3. E1 e2 e3.';
const slices = (spans: Array<{ start: number; end: number }>): string[] => spans.map((s) => text.slice(s.start, s.end));

function units(tc: TokenCost): Unit[] {
  return rangesToUnits(text, sentenceRanges(text), { size: 100, overlap: 0 }, tc);
}

describe('packUnits', () => {
  it('packs greedily and carries whole trailing units as overlap', () => {
    const tc = new TokenCost(wordCounter);
    expect(slices(packUnits(text, units(tc), { size: 8, overlap: 0 }, tc))).toEqual([
      'A1 a2 a3. B1 b2 b3.',
      'C1 c2 c3. D1 d2 d3.',
      'E1 e2 e3.',
    ]);
    expect(slices(packUnits(text, units(tc), { size: 8, overlap: 4 }, tc))).toEqual([
      'A1 a2 a3. B1 b2 b3.',
      'B1 b2 b3. C1 c2 c3.',
      'C1 c2 c3. D1 d2 d3.',
      'D1 d2 d3. E1 e2 e3.',
    ]);
  });

  it('starts a chunk at breakBefore and carries no overlap across it', () => {
    const tc = new TokenCost(wordCounter);
    const us = units(tc);
    us[3]!.breakBefore = true;
    expect(slices(packUnits(text, us, { size: 12, overlap: 4 }, tc))).toEqual(['A1 a2 a3. B1 b2 b3. C1 c2 c3.', 'D1 d2 d3. E1 e2 e3.']);
  });

  it('counts the tokenizer overhead once per chunk', () => {
    const tc = new TokenCost(specialCounter);
    expect(tc.overhead).toBe(2);
    const spans = packUnits(text, units(tc), { size: 10, overlap: 0 }, tc);
    expect(slices(spans)).toEqual(['A1 a2 a3. B1 b2 b3.', 'C1 c2 c3. D1 d2 d3.', 'E1 e2 e3.']);
    expect(spans.map((s) => s.tokens)).toEqual([10, 10, 6]);
  });

  it('drops units when the whole chunk counts more than its parts', () => {
    // Counts one extra token per sentence boundary inside the text.
    const sticky = { id: 'sticky', count: (t: string) => wordCounter.count(t) + (t.match(/\. \S/g)?.length ?? 0) };
    const tc = new TokenCost(sticky);
    const spans = packUnits(text, units(tc), { size: 8, overlap: 0 }, tc);
    for (const s of spans) expect(s.tokens).toBeLessThanOrEqual(8);
    expect(slices(spans).join(' ')).toBe(text);
  });
});
