import { describe, expect, it } from 'vitest';
import { chunkDocument } from './index.js';
import { TokenCost } from './span.js';
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
import { tokenWindows } from './token.js';
import type { TokenCounter } from './types.js';

const words = (n: number, from = 1): string => Array.from({ length: n }, (_, i) => `w${i + from}`).join(' ');

describe('token strategy', () => {
  it.each([
    ['English', EN_SENTENCES, ' '],
    ['Russian', RU_SENTENCES, ' '],
    ['Chinese', ZH_SENTENCES, ''],
  ])('windows %s text within the size, with overlap, covering everything', async (_lang, sentences, sep) => {
    const doc = textDoc(repeatSentences(sentences, 6, sep));
    const chunks = await chunkDocument(doc, { strategy: 'token', chunk_size: 40, chunk_overlap: 8 }, { tokenizer: wordCounter });
    expectValidChunks(doc, chunks, wordCounter, 40);
    expectCoverage(doc, chunks);
    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!.location;
      const cur = chunks[i]!.location;
      expect(cur.char_start!).toBeLessThan(prev.char_end!); // overlap
      const shared = doc.text.slice(cur.char_start, prev.char_end);
      expect(wordCounter.count(shared)).toBeLessThanOrEqual(8);
      expect(wordCounter.count(shared)).toBeGreaterThan(0);
    }
    // Full windows (all but the last) fill the size exactly with a one-token-per-piece counter.
    for (const c of chunks.slice(0, -1)) expect(c.tokens).toBeGreaterThanOrEqual(38);
  });

  it('cuts exact windows: size 20, overlap 0 and overlap 5', async () => {
    const doc = textDoc(words(100));
    const plain = await chunkDocument(doc, { strategy: 'token', chunk_size: 20, chunk_overlap: 0 }, { tokenizer: wordCounter });
    expect(plain.map((c) => c.tokens)).toEqual([20, 20, 20, 20, 20]);
    expect(plain[1]!.text).toBe(words(20, 21));

    const over = await chunkDocument(doc, { strategy: 'token', chunk_size: 20, chunk_overlap: 5 }, { tokenizer: wordCounter });
    over.forEach((c, i) => expect(c.text.startsWith(`w${15 * i + 1} `)).toBe(true));
    expect(over.map((c) => c.tokens)).toEqual([20, 20, 20, 20, 20, 20, 10]);
    expectValidChunks(doc, over, wordCounter, 20);
  });

  it('counts special tokens once per chunk, not once per word', async () => {
    const doc = textDoc(words(100));
    const chunks = await chunkDocument(doc, { strategy: 'token', chunk_size: 22, chunk_overlap: 0 }, { tokenizer: specialCounter });
    expect(chunks.map((c) => c.tokens)).toEqual([22, 22, 22, 22, 22]);
  });

  it('splits a segment larger than the window by characters and still respects the size', async () => {
    const long = 'x'.repeat(500);
    const doc = textDoc(`start ${long} end`);
    const chunks = await chunkDocument(doc, { strategy: 'token', chunk_size: 64, chunk_overlap: 0 }, { tokenizer: charCounter });
    expectValidChunks(doc, chunks, charCounter, 64);
    expectCoverage(doc, chunks);
    expect(
      chunks
        .map((c) => c.text)
        .join('')
        .replace(/\s/g, ''),
    ).toBe(`start${long}end`);
  });

  it('never splits a surrogate pair', async () => {
    const doc = textDoc('😀'.repeat(200));
    const chunks = await chunkDocument(doc, { strategy: 'token', chunk_size: 17, chunk_overlap: 0 }, { tokenizer: charCounter });
    expectValidChunks(doc, chunks, charCounter, 17);
    for (const c of chunks) expect(c.text).toMatch(/^(😀)+$/u);
  });

  it('makes progress with overlap just below the size', async () => {
    const doc = textDoc(words(60));
    const chunks = await chunkDocument(doc, { strategy: 'token', chunk_size: 16, chunk_overlap: 15 }, { tokenizer: specialCounter });
    expectValidChunks(doc, chunks, specialCounter, 16);
    expectCoverage(doc, chunks);
    expect(chunks.at(-1)!.text.endsWith('w60')).toBe(true);
  });

  it('shrinks a window when the whole text counts more than its pieces', () => {
    // A tokenizer whose count of a joined text exceeds the sum of its pieces' counts (adds one token per space).
    const joined: TokenCounter = { id: 'joined', count: (t) => wordCounter.count(t) + (t.trim().match(/\s+/g)?.length ?? 0) };
    const text = words(200);
    const spans = tokenWindows(text, 0, text.length, { size: 30, overlap: 4 }, new TokenCost(joined));
    for (const s of spans) expect(s.tokens).toBeLessThanOrEqual(30);
    expect(text.slice(spans.at(-1)!.start, spans.at(-1)!.end).endsWith('w200')).toBe(true);
  });

  it('chunks 1 MB of mixed-language text, counting each piece about once', async () => {
    const block = [repeatSentences(EN_SENTENCES, 1), repeatSentences(RU_SENTENCES, 1), repeatSentences(ZH_SENTENCES, 1, '')].join('\n');
    const parts: string[] = [];
    let len = 0;
    while (len < 1_000_000) {
      parts.push(block);
      len += block.length + 2;
    }
    const doc = textDoc(parts.join('\n\n'));
    let countedChars = 0;
    const counting: TokenCounter = {
      id: 'counting',
      count: (t) => {
        countedChars += t.length;
        return wordCounter.count(t);
      },
    };
    const chunks = await chunkDocument(doc, { strategy: 'token', chunk_size: 256, chunk_overlap: 32 }, { tokenizer: counting });
    expect(chunks.length).toBeGreaterThan(1000);
    for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(256);
    expect(chunks.at(-1)!.location.char_end).toBe(doc.text.trimEnd().length);
    // Pieces once + each window once (windows overlap by 1/8): far from quadratic.
    expect(countedChars).toBeLessThan(doc.text.length * 3);
  });
});
