import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index.js';
import { sentenceRanges } from './segment.js';
import {
  EN_SENTENCES,
  RU_SENTENCES,
  ZH_SENTENCES,
  charCounter,
  expectCoverage,
  expectValidChunks,
  repeatSentences,
  specialCounter,
  textDoc,
  wordCounter,
} from './test-support.js';

describe('sentence strategy', () => {
  it.each([
    ['English', EN_SENTENCES, ' '],
    ['Russian', RU_SENTENCES, ' '],
    ['Chinese', ZH_SENTENCES, ''],
  ])('packs whole %s sentences up to the size with sentence overlap', async (_lang, sentences, sep) => {
    const doc = textDoc(repeatSentences(sentences, 4, sep));
    const size = 48;
    const overlap = 16; // longer than every test sentence, so each chunk carries at least one
    const chunks = await chunkDocument(doc, { strategy: 'sentence', chunk_size: size, chunk_overlap: overlap }, { tokenizer: wordCounter });
    expectValidChunks(doc, chunks, wordCounter, size);
    expectCoverage(doc, chunks);
    const known = new Set(sentences);
    for (const c of chunks) {
      // Every chunk is made of whole sentences.
      for (const [s, e] of sentenceRanges(c.text)) expect(known.has(c.text.slice(s, e))).toBe(true);
    }
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!;
      const cur = chunks[i]!;
      const shared = doc.text.slice(cur.location.char_start, prev.location.char_end);
      // Overlap: whole sentences, present, at most `overlap` tokens.
      expect(cur.location.char_start!).toBeLessThan(prev.location.char_end!);
      expect(wordCounter.count(shared)).toBeLessThanOrEqual(overlap);
      expect(prev.text.endsWith(shared.trim())).toBe(true);
      // Greedy: the next sentence would not have fit.
      const nextSentence = cur.text.slice(shared.trim().length).trim();
      const first = sentenceRanges(nextSentence)[0]!;
      expect(prev.tokens + wordCounter.count(nextSentence.slice(first[0], first[1]))).toBeGreaterThan(size);
    }
  });

  it('uses no overlap when chunk_overlap is 0', async () => {
    const doc = textDoc(repeatSentences(EN_SENTENCES, 3));
    const chunks = await chunkDocument(doc, { strategy: 'sentence', chunk_size: 30, chunk_overlap: 0 }, { tokenizer: wordCounter });
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.location.char_start!).toBeGreaterThan(chunks[i - 1]!.location.char_end!);
    }
  });

  it('splits a sentence longer than the size by tokens', async () => {
    const long = `${Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ')}.`;
    const doc = textDoc(`Short one. ${long} Short two.`);
    const chunks = await chunkDocument(doc, { strategy: 'sentence', chunk_size: 32, chunk_overlap: 4 }, { tokenizer: specialCounter });
    expectValidChunks(doc, chunks, specialCounter, 32);
    expectCoverage(doc, chunks);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(chunks.at(-1)!.text.endsWith('Short two.')).toBe(true);
  });

  it('respects the size exactly with a character counter', async () => {
    const doc = textDoc(repeatSentences(RU_SENTENCES, 5));
    const chunks = await chunkDocument(doc, { strategy: 'sentence', chunk_size: 120, chunk_overlap: 50 }, { tokenizer: charCounter });
    expectValidChunks(doc, chunks, charCounter, 120);
    expectCoverage(doc, chunks);
  });
});
