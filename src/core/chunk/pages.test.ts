import { describe, expect, it } from 'vitest';
import { CHUNK_STRATEGIES, type ChunkStrategy } from '../../shared/contract/index.js';
import { pdfParser } from '../parse/pdf-parser.js';
import { fixture } from '../parse/test-support.js';
import { chunkDocument } from './index.js';
import { pageRegions, subDocument } from './pages.js';
import { buildDoc, EN_SENTENCES, expectValidChunks, repeatSentences, wordCounter } from './test-support.js';

const ctx = { tokenizer: wordCounter };

/** Three pages of a few sentences each, a sentence crossing no page break; a heading opens page 2. */
function threePages() {
  return buildDoc([
    { text: 'Intro. The first page talks about shipping terms and freight.', kind: 'paragraph', page: 1 },
    { text: 'More on page one about containers.', kind: 'paragraph', page: 1 },
    { text: 'Returns', kind: 'heading', level: 1, page: 2, heading_path: ['Returns'] },
    { text: 'Defective goods may be returned within thirty days.', kind: 'paragraph', page: 2, heading_path: ['Returns'] },
    { text: 'Batteries carry a UN38.3 test summary on page three.', kind: 'paragraph', page: 3, heading_path: ['Returns'] },
  ]);
}

describe('page-respecting chunking', () => {
  it('finds the page regions of a paged document, and none for one page or no pages', () => {
    const doc = threePages();
    const regions = pageRegions(doc)!;
    expect(regions.map((r) => r.page)).toEqual([1, 2, 3]);
    expect(regions[0]!.start).toBe(0);
    expect(regions[2]!.end).toBe(doc.text.length);
    for (let i = 1; i < regions.length; i++) expect(regions[i]!.start).toBe(regions[i - 1]!.end);
    expect(pageRegions(buildDoc([{ text: 'a', kind: 'text', page: 4 }]))).toBeUndefined();
    expect(pageRegions(buildDoc([{ text: 'a', kind: 'text' }]))).toBeUndefined();
  });

  it('cuts a sub-document with relative offsets', () => {
    const doc = threePages();
    const r = pageRegions(doc)![1]!;
    const sub = subDocument(doc, r.start, r.end);
    for (const b of sub.blocks) expect(sub.text.slice(b.char_start, b.char_end)).toBe(b.text);
    expect(sub.blocks.map((b) => b.page)).toEqual([2, 2]);
  });

  it.each(CHUNK_STRATEGIES.filter((s) => s !== 'whole'))(
    '%s: no chunk crosses a page, each cites the page its text is on',
    async (strategy) => {
      const doc = threePages();
      const chunks = await chunkDocument(doc, { strategy: strategy as ChunkStrategy, chunk_size: 512, chunk_overlap: 8 }, ctx);
      expectValidChunks(doc, chunks, wordCounter, 512);
      expect(chunks.map((c) => c.location.page)).toEqual([1, 2, 3]);
      expect(chunks.every((c) => c.location.page_end === undefined)).toBe(true);
      expect(chunks[1]!.text).toContain('thirty days');
      expect(chunks[1]!.location.heading_path).toEqual(['Returns']);
    },
  );

  it('keeps size limits and overlap within a long page', async () => {
    const long = repeatSentences(EN_SENTENCES, 6);
    const doc = buildDoc([
      { text: long, kind: 'paragraph', page: 1 },
      { text: long, kind: 'paragraph', page: 2 },
    ]);
    const chunks = await chunkDocument(doc, { strategy: 'sentence', chunk_size: 40, chunk_overlap: 10 }, ctx);
    expectValidChunks(doc, chunks, wordCounter, 40);
    const pages = chunks.map((c) => c.location.page);
    expect(pages.filter((p) => p === 1).length).toBeGreaterThan(1);
    expect(pages).toEqual([...pages].sort());
    const boundary = doc.blocks[1]!.char_start;
    for (const c of chunks) expect(c.location.char_start! < boundary && c.location.char_end! > boundary).toBe(false);
  });

  it('whole keeps one chunk and names the page range it spans', async () => {
    const doc = threePages();
    const [only] = await chunkDocument(doc, { strategy: 'whole', chunk_size: 16, chunk_overlap: 0 }, ctx);
    expect(only!.location).toMatchObject({ page: 1, page_end: 3 });
  });

  it.each(['sentence', 'token', 'markdown'] as const)(
    'a real 3-page PDF (%s): the chunk holding a page-2 sentence cites page 2',
    async (strategy) => {
      const doc = await pdfParser.parse({ data: fixture('sample.pdf'), filename: 'sample.pdf' });
      const chunks = await chunkDocument(doc, { strategy, chunk_size: 256, chunk_overlap: 32 }, ctx);
      const hit = chunks.find((c) => c.text.includes('thirty days of delivery'))!;
      expect(hit.location.page).toBe(2);
      expect(hit.location.page_end).toBeUndefined();
      expect(hit.location.heading_path).toEqual(['Returns Policy']);
      expect(chunks.find((c) => c.text.includes('UN38.3'))!.location.page).toBe(3);
    },
  );
});
