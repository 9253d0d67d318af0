import { describe, expect, it } from 'vitest';
import { analyzeTokens } from './analyzer.js';

describe('analyzeTokens', () => {
  it('stems English and drops stop words', () => {
    expect(analyzeTokens('The studies of running cells')).toEqual(['studi', 'run', 'cell']);
  });

  it('gives Russian inflected forms of one word family a shared token', () => {
    const query = new Set(analyzeTokens('таможенной'));
    for (const form of ['таможня', 'таможенные', 'таможне', 'Таможенный']) {
      const tokens = analyzeTokens(form);
      expect(
        tokens.some((t) => query.has(t)),
        form,
      ).toBe(true);
    }
    expect(analyzeTokens('и в на ёлка')).toEqual(['елк']);
  });

  it('reads CJK radicals as their ideographs, so text and queries with either meet', () => {
    // Kangxi (⿅ ⼦) NFKC already folded; supplement radicals (⻔ ⻓ ⻋) only the radical table folds.
    expect(analyzeTokens('⿅特丹 电⼦ ⻔到⻔ ⻓江 汽⻋')).toEqual(analyzeTokens('鹿特丹 电子 门到门 长江 汽车'));
    const doc = new Set(analyzeTokens('电子产品和汽⻋零件用集装箱运输，⻔到⻔服务由⻓江航运公司提供。'));
    for (const q of ['门到门', '长江', '汽车', '⻔到⻔']) for (const t of analyzeTokens(q)) expect(doc.has(t), q).toBe(true);
  });

  it('indexes Chinese as character unigrams and bigrams so a 2-character query matches', () => {
    expect(analyzeTokens('海关退货')).toEqual(['海', '海关', '关', '关退', '退', '退货', '货']);
    const doc = new Set(analyzeTokens('请联系海关办理退货手续'));
    for (const t of analyzeTokens('退货')) expect(doc.has(t)).toBe(true);
  });

  it('handles mixed scripts in one text', () => {
    const tokens = analyzeTokens('Customs 海关 таможня 2024');
    expect(tokens).toEqual(expect.arrayContaining(['custom', '海关', 'таможн', '2024']));
  });

  it('drops absurdly long tokens and punctuation', () => {
    expect(analyzeTokens(`${'x'.repeat(50)} ok!!! ... ---`)).toEqual(['ok']);
  });
});
