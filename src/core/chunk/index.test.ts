import { describe, expect, it } from 'vitest';
import { CHUNK_STRATEGIES } from '../../shared/contract/index.js';
import type { ChunkingConfig } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { estimateTokenCounter } from './estimate.js';
import { chunkDocument, chunkDocumentWithWarnings, validateChunkingConfig } from './index.js';
import {
  EN_SENTENCES,
  RU_SENTENCES,
  ZH_SENTENCES,
  buildDoc,
  expectCoverage,
  expectValidChunks,
  repeatSentences,
  specialCounter,
  textDoc,
  wordCounter,
} from './test-support.js';

const ctx = { tokenizer: wordCounter };

describe('validateChunkingConfig', () => {
  it.each([
    [{ strategy: 'token', chunk_size: 32, chunk_overlap: 32 }, 'smaller than chunk_size'],
    [{ strategy: 'token', chunk_size: 32, chunk_overlap: 40 }, 'smaller than chunk_size'],
    [{ strategy: 'token', chunk_size: 0, chunk_overlap: 0 }, 'positive integer'],
    [{ strategy: 'token', chunk_size: 10.5, chunk_overlap: 0 }, 'positive integer'],
    [{ strategy: 'token', chunk_size: 32, chunk_overlap: -1 }, 'non-negative'],
    [{ strategy: 'paragraph', chunk_size: 32, chunk_overlap: 0 }, 'unknown chunking strategy'],
  ])('rejects %j as invalid_parameter', async (config, message) => {
    const bad = config as unknown as ChunkingConfig;
    expect(() => validateChunkingConfig(bad)).toThrow(message);
    const err = await chunkDocument(textDoc('Some text.'), bad, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RagError);
    expect((err as RagError).code).toBe('invalid_parameter');
  });

  it('accepts overlap just below the size', () => {
    expect(() => validateChunkingConfig({ strategy: 'sentence', chunk_size: 32, chunk_overlap: 31 })).not.toThrow();
  });
});

describe('whole strategy', () => {
  it('returns the entire trimmed text as one chunk even when longer than chunk_size', async () => {
    const text = repeatSentences(EN_SENTENCES, 10);
    const doc = textDoc(`\n  ${text}  \n`);
    const chunks = await chunkDocument(doc, { strategy: 'whole', chunk_size: 16, chunk_overlap: 0 }, { tokenizer: specialCounter });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text).toBe(text);
    expect(chunks[0]!.tokens).toBe(specialCounter.count(text));
    expect(chunks[0]!.tokens).toBeGreaterThan(16);
    expectValidChunks(doc, chunks, specialCounter);
  });
});

describe('chunkDocument', () => {
  const langs = [
    ['English', EN_SENTENCES, ' '],
    ['Russian', RU_SENTENCES, ' '],
    ['Chinese', ZH_SENTENCES, ''],
  ] as const;

  for (const strategy of CHUNK_STRATEGIES) {
    it.each(langs)(`${strategy}: valid chunks for %s text in a multi-page, multi-section document`, async (_lang, sentences, sep) => {
      const para = (k: number): string => repeatSentences(sentences.slice(k, k + 4), 2, sep);
      const doc = buildDoc([
        { text: 'Part one', kind: 'heading', level: 1, heading_path: ['Part one'], page: 1, line_start: 1, line_end: 1 },
        { text: para(0), kind: 'paragraph', heading_path: ['Part one'], page: 1, line_start: 3, line_end: 3 },
        { text: para(2), kind: 'paragraph', heading_path: ['Part one'], page: 2, line_start: 5, line_end: 5 },
        { text: 'Part two', kind: 'heading', level: 1, heading_path: ['Part two'], page: 2, line_start: 7, line_end: 7 },
        { text: para(4), kind: 'paragraph', heading_path: ['Part two'], page: 3, line_start: 9, line_end: 9 },
      ]);
      const size = 32;
      const { chunks, warnings } = await chunkDocumentWithWarnings(doc, { strategy, chunk_size: size, chunk_overlap: 8 }, ctx);
      expectValidChunks(doc, chunks, wordCounter, strategy === 'whole' ? undefined : size);
      expectCoverage(doc, chunks);
      expect(warnings).toHaveLength(strategy === 'semantic' ? 1 : 0);
      for (const c of chunks) {
        // Location comes from the first/last blocks the chunk overlaps.
        const overlapped = doc.blocks.filter((b) => b.char_end > c.location.char_start! && b.char_start < c.location.char_end!);
        expect(c.location.page).toBe(overlapped[0]!.page);
        expect(c.location.heading_path).toEqual(overlapped[0]!.heading_path);
        expect(c.location.line_start).toBe(overlapped[0]!.line_start);
        expect(c.location.line_end).toBe(overlapped.at(-1)!.line_end);
      }
      const last = chunks.at(-1)!;
      expect(last.location).toMatchObject({ line_end: 9 });
    });
  }

  it.each(CHUNK_STRATEGIES)('%s: stays within the size with the estimate tokenizer on mixed-language text', async (strategy) => {
    const text = [repeatSentences(EN_SENTENCES, 3), repeatSentences(RU_SENTENCES, 3), repeatSentences(ZH_SENTENCES, 3, '')].join('\n\n');
    const doc = textDoc(`${text} ${'https://example.com/'.repeat(40)}`);
    const chunks = await chunkDocument(doc, { strategy, chunk_size: 48, chunk_overlap: 12 }, { tokenizer: estimateTokenCounter });
    expectValidChunks(doc, chunks, estimateTokenCounter, strategy === 'whole' ? undefined : 48);
    expectCoverage(doc, chunks);
  });

  it('returns no chunks for a blank document', async () => {
    for (const strategy of CHUNK_STRATEGIES) {
      expect(await chunkDocument(textDoc('  \n\n '), { strategy, chunk_size: 32, chunk_overlap: 0 }, ctx)).toEqual([]);
    }
  });

  it('is chunkDocumentWithWarnings without the warnings', async () => {
    const doc = textDoc(repeatSentences(EN_SENTENCES, 3));
    const config: ChunkingConfig = { strategy: 'markdown', chunk_size: 40, chunk_overlap: 8 };
    expect(await chunkDocument(doc, config, ctx)).toEqual((await chunkDocumentWithWarnings(doc, config, ctx)).chunks);
  });
});
