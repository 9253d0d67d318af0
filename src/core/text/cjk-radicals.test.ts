import { describe, expect, it } from 'vitest';
import { foldCjkRadicals } from './cjk-radicals.js';

describe('foldCjkRadicals', () => {
  it('maps Kangxi radicals (NFKC) and the supplement radicals with one equivalent to their ideographs', () => {
    // As pdf.js reads Chromium + Noto Sans CJK SC (see __fixtures__/make-pdf-radicals-fixture.sh).
    expect(foldCjkRadicals('从上海到⿅特丹的海运⼤约需要三⼗天。')).toBe('从上海到鹿特丹的海运大约需要三十天。');
    expect(foldCjkRadicals('电⼦产品和汽⻋零件⽤集装箱运输，⻔到⻔服务由⻓江航运公司提供。')).toBe(
      '电子产品和汽车零件用集装箱运输，门到门服务由长江航运公司提供。',
    );
    expect(foldCjkRadicals('冷藏箱⾥的⻥和⻢⾁')).toBe('冷藏箱里的鱼和马肉');
  });

  it('folds every Kangxi radical to what NFKC gives, and the supplement where NFKC gives nothing', () => {
    for (let cp = 0x2f00; cp <= 0x2fd5; cp++) {
      const r = String.fromCharCode(cp);
      expect(foldCjkRadicals(r)).toBe(r.normalize('NFKC'));
      expect(foldCjkRadicals(r)).toMatch(/^\p{Unified_Ideograph}$/u);
    }
    let folded = 0;
    for (let cp = 0x2e80; cp <= 0x2eff; cp++) {
      const r = String.fromCharCode(cp);
      const f = foldCjkRadicals(r);
      if (r.normalize('NFKC') !== r) expect(f).toBe(r.normalize('NFKC')); // ⺟ 母, ⻳ 龟
      if (f === r) continue;
      folded++;
      expect(f, r).toMatch(/^\p{Unified_Ideograph}$/u);
      expect(f.length).toBe(1);
    }
    expect(folded).toBeGreaterThan(80);
    // Variant forms with no single equivalent stay.
    expect(foldCjkRadicals('⺀⺂⻊')).toBe('⺀⺂⻊');
  });

  it('leaves other text alone, offsets included', () => {
    const text = 'Rotterdam 鹿特丹 — Роттердам ⺀';
    expect(foldCjkRadicals(text)).toBe(text);
    expect(foldCjkRadicals('a⿅b').length).toBe(3);
  });
});
