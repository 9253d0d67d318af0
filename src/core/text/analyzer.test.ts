import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemRussian } from '@orama/stemmers/russian';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heapHeldAfterReading } from '../test-support.js';
import { analyzeAfter, analyzeForIndex, analyzeTokens, clearAnalyzerCaches } from './analyzer.js';
import { collectGarbage } from '../util/collect-garbage.js';
import { foldCjkRadicals } from './cjk-radicals.js';
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from './stopwords.js';

/** The analyzer as the module comment defines it, with a regular expression per word (the reference). */
function referenceTokens(text: string): string[] {
  const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
  const RUNS =
    /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/gu;
  const out: string[] = [];
  const word = (w: string) => {
    if (w.length > 40) return;
    if (/\p{Script=Cyrillic}/u.test(w)) {
      const ru = w.replace(/ё/g, 'е');
      if (RUSSIAN_STOP_WORDS.has(ru)) return;
      const stem = stemRussian(ru);
      out.push(stem);
      if (stem.length > 5) out.push(stem.slice(0, 5));
    } else if (/\p{Script=Latin}/u.test(w)) {
      if (!ENGLISH_STOP_WORDS.has(w)) out.push(stemEnglish(w));
    } else out.push(w);
  };
  const cjk = (run: string) => {
    const chars = Array.from(run);
    chars.forEach((c, i) => out.push(...(i + 1 < chars.length ? [c, c + chars[i + 1]!] : [c])));
  };
  for (const m of foldCjkRadicals(text.normalize('NFKC'))
    .toLowerCase()
    .matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    if (!CJK.test(m[0])) word(m[0]);
    else for (const part of m[0].matchAll(RUNS)) (part[1] ? cjk : word)(part[0]);
  }
  return out;
}

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

describe('the analyzer against its reference', () => {
  it('gives the same tokens over random mixed-script text (marks, digits, radicals, surrogates, full-width forms)', () => {
    const alphabet = [
      ...'ab Zz09 .,-_|#\n\t',
      'The',
      'running',
      'and',
      ...'таможнёЁ',
      'и',
      ...'中华海关ひらがなカタカナ한국어',
      '\u0301',
      '\u3000',
      'Ａ',
      '⿅',
      '⻔',
      'Ⅻ',
      '٣',
      '𐐀',
      '𠀀',
      '😀',
      '\ud800',
      'x'.repeat(41),
    ];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 2000; n++) {
      const len = next() % 30;
      let text = '';
      for (let k = 0; k < len; k++) text += alphabet[next() % alphabet.length];
      expect(analyzeTokens(text), JSON.stringify(text)).toEqual(referenceTokens(text));
      expect(analyzeForIndex(text), JSON.stringify(text)).toBe(referenceTokens(text).join(' '));
    }
  });

  it('gives the same tokens over the sample KB', () => {
    const dir = fileURLToPath(new URL('../../../rag_data/', import.meta.url));
    for (const name of fs.readdirSync(dir).filter((f) => /\.(md|txt|html)$/.test(f))) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(analyzeForIndex(text), name).toBe(referenceTokens(text).join(' '));
    }
  });

  it('keeps no text it analysed alive through its word caches', () => {
    // 20 sections of 1 MB, each with a word no other has: the caches keep 20 words, not the 20 sections.
    expect(heapHeldAfterReading((s) => analyzeForIndex(s), 20)).toBeLessThan(4 * 1024 * 1024);
  });

  it("keeps a word analysed for the index in one cache, not also in highlighting's", () => {
    // 60,000 distinct words (Russian and English), analysed for the index; then the same words for highlighting,
    // which keeps each word's tokens as an array: ingest alone must not hold those arrays too.
    const words = Array.from({ length: 60_000 }, (_, i) => (i % 2 ? `таможенного${i}оформления` : `customs${i}clearance`));
    const text = words.join(' ');
    const held = (use: () => void) => {
      clearAnalyzerCaches();
      collectGarbage();
      const before = v8.getHeapStatistics().used_heap_size;
      use();
      collectGarbage();
      return v8.getHeapStatistics().used_heap_size - before;
    };
    const forIndex = held(() => analyzeForIndex(text));
    const both = held(() => {
      analyzeForIndex(text);
      analyzeTokens(text);
    });
    clearAnalyzerCaches();
    expect(forIndex).toBeLessThan(0.7 * both);
  });

  it("analyzeAfter(a title's analysis, text) is the analysis of the title, a line break and the text", () => {
    // Pieces that test the seam: scripts, stop words, a word cut by the break, final sigma, combining marks and
    // compatibility characters on either side of it, CJK runs on both sides, digits, emptiness.
    const piece = fc.constantFrom(
      'Customs',
      'the',
      'таможенное оформление',
      'Ёлка',
      '海关清关',
      '申请',
      'ΟΔΟΣ',
      'Σ',
      '\u0301x',
      'é',
      'ﬁle',
      'Ｆｕｌｌ',
      '⻔',
      'cube11455',
      ' ',
      '\n',
      '-',
      '',
    );
    const text = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (title, body) => {
        expect(analyzeAfter(analyzeForIndex(title), body)).toBe(analyzeForIndex(`${title}\n${body}`));
      }),
      { numRuns: 2000 },
    );
  });
});
