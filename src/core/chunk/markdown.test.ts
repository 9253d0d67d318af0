import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../parse/types.js';
import { chunkDocument } from './index.js';
import type { BlockSpec } from './test-support.js';
import {
  EN_SENTENCES,
  RU_SENTENCES,
  ZH_SENTENCES,
  buildDoc,
  expectCoverage,
  expectValidChunks,
  repeatSentences,
  wordCounter,
} from './test-support.js';
import type { ChunkDraft } from './types.js';

/** buildDoc plus source line numbers that match the joined text (blocks separated by one blank line). */
function mdDoc(specs: BlockSpec[]): ParsedDocument {
  let line = 1;
  const withLines = specs.map((s) => {
    const lines = s.text.split('\n').length;
    const out = { ...s, line_start: line, line_end: line + lines - 1 };
    line += lines + 1;
    return out;
  });
  return buildDoc(withLines, 'markdown');
}

const h = (level: number, title: string, path: string[]): BlockSpec => ({
  text: `${'#'.repeat(level)} ${title}`,
  kind: 'heading',
  level,
  heading_path: path,
});
const p = (text: string, path: string[], kind: BlockSpec['kind'] = 'paragraph'): BlockSpec => ({ text, kind, heading_path: path });

function guide(): ParsedDocument {
  const G = ['Guide'];
  const I = ['Guide', 'Install'];
  const U = ['Guide', 'Usage'];
  const R = ['Таможня'];
  const Z = ['海关'];
  return mdDoc([
    h(1, 'Guide', G),
    p('This guide explains the harbour tool. It is short.', G),
    h(2, 'Install', I),
    p('Run the installer first.', I),
    p('Then restart the machine.', I),
    p('npm install harbour\nnpm run setup\nnpm run check', I, 'code'),
    h(2, 'Usage', U),
    p(repeatSentences(EN_SENTENCES, 2), U),
    p('- open the ledger\n- record the ship\n- close the ledger', U, 'list'),
    h(1, 'Таможня', R),
    p(repeatSentences(RU_SENTENCES, 2), R),
    h(1, '海关', Z),
    p(repeatSentences(ZH_SENTENCES, 2, ''), Z),
  ]);
}

/** [start, end) of each section: from a heading to the next heading. */
function sections(doc: ParsedDocument): Array<[number, number]> {
  const heads = doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.char_start);
  return heads.map((s, i) => [s, heads[i + 1] ?? doc.text.length]);
}

function sectionOf(doc: ParsedDocument, c: ChunkDraft): number {
  return sections(doc).findIndex(([s, e]) => c.location.char_start! >= s && c.location.char_end! <= e);
}

describe('markdown strategy', () => {
  const config = { strategy: 'markdown' as const, chunk_size: 48, chunk_overlap: 16 };

  it('keeps every chunk inside one section and starts each section with its heading', async () => {
    const doc = guide();
    const chunks = await chunkDocument(doc, config, { tokenizer: wordCounter });
    expectValidChunks(doc, chunks, wordCounter, 48);
    expectCoverage(doc, chunks);
    for (const c of chunks) expect(sectionOf(doc, c), c.text).toBeGreaterThanOrEqual(0);

    const heads = doc.blocks.filter((b) => b.kind === 'heading');
    for (const head of heads) {
      const first = chunks.find((c) => c.location.char_start === head.char_start);
      expect(first, head.text).toBeDefined();
      expect(first!.text.startsWith(head.text)).toBe(true);
      expect(first!.location.heading_path).toEqual(head.heading_path);
      // The heading is followed by its section's text in the same chunk, not left alone.
      expect(first!.text.length).toBeGreaterThan(head.text.length);
    }
  });

  it('packs consecutive blocks of a section and sets heading path and lines from the blocks', async () => {
    const doc = guide();
    const chunks = await chunkDocument(doc, config, { tokenizer: wordCounter });
    const install = chunks.find((c) => c.text.startsWith('## Install'))!;
    expect(install.text).toBe(
      '## Install\n\nRun the installer first.\n\nThen restart the machine.\n\nnpm install harbour\nnpm run setup\nnpm run check',
    );
    expect(install.location).toMatchObject({ heading_path: ['Guide', 'Install'], line_start: 5, line_end: 13 });

    const ledger = chunks.find((c) => c.text.includes('- record the ship'))!;
    expect(ledger.location.heading_path).toEqual(['Guide', 'Usage']);
    expect(ledger.location.line_end).toBe(doc.blocks[8]!.line_end);
  });

  it('splits an oversized paragraph by sentences, with overlap inside the section only', async () => {
    const doc = guide();
    const chunks = await chunkDocument(doc, config, { tokenizer: wordCounter });
    const usage = chunks.filter((c) => sectionOf(doc, c) === 2);
    expect(usage.length).toBeGreaterThan(2);
    expect(usage[0]!.text.startsWith(`## Usage\n\n${EN_SENTENCES[0]}`)).toBe(true);
    for (let i = 1; i < usage.length; i++) {
      expect(usage[i]!.location.heading_path).toEqual(['Guide', 'Usage']);
      expect(usage[i]!.location.char_start!).toBeLessThan(usage[i - 1]!.location.char_end!); // overlap
      expect(EN_SENTENCES.some((s) => usage[i]!.text.startsWith(s) || usage[i]!.text.startsWith('- open'))).toBe(true);
    }
    // No overlap into the next section.
    const ru = chunks.filter((c) => sectionOf(doc, c) === 3);
    expect(ru[0]!.text.startsWith('# Таможня')).toBe(true);
    expect(ru[0]!.location.char_start!).toBeGreaterThanOrEqual(usage.at(-1)!.location.char_end!);
  });

  it('handles Russian and Chinese sections', async () => {
    const doc = guide();
    const chunks = await chunkDocument(doc, { ...config, chunk_size: 24, chunk_overlap: 0 }, { tokenizer: wordCounter });
    expectValidChunks(doc, chunks, wordCounter, 24);
    const ru = chunks.filter((c) => c.location.heading_path?.[0] === 'Таможня');
    const zh = chunks.filter((c) => c.location.heading_path?.[0] === '海关');
    expect(ru.length).toBeGreaterThan(1);
    expect(zh.length).toBeGreaterThan(1);
    expect(zh[0]!.text.startsWith(`# 海关\n\n${ZH_SENTENCES[0]}`)).toBe(true);
    for (const c of zh.slice(1)) expect(ZH_SENTENCES.some((s) => c.text.startsWith(s))).toBe(true);
    for (const c of ru.slice(1)) expect(RU_SENTENCES.some((s) => c.text.startsWith(s))).toBe(true);
  });

  it('keeps a heading with the deeper heading right after it, but not with a sibling', async () => {
    const doc = mdDoc([
      h(1, 'Title', ['Title']),
      h(2, 'Intro', ['Title', 'Intro']),
      p('Intro text.', ['Title', 'Intro']),
      h(2, 'Empty', ['Title', 'Empty']),
      h(2, 'Next', ['Title', 'Next']),
      p('Next text.', ['Title', 'Next']),
    ]);
    const chunks = await chunkDocument(doc, config, { tokenizer: wordCounter });
    expect(chunks.map((c) => c.text)).toEqual(['# Title\n\n## Intro\n\nIntro text.', '## Empty', '## Next\n\nNext text.']);
    expect(chunks[0]!.location.heading_path).toEqual(['Title']);
  });

  it('starts a new chunk where the heading path changes even without heading blocks', async () => {
    const doc = buildDoc([p('Alpha text.', ['A']), p('More alpha.', ['A']), p('Beta text.', ['B'])]);
    const chunks = await chunkDocument(doc, config, { tokenizer: wordCounter });
    expect(chunks.map((c) => c.text)).toEqual(['Alpha text.\n\nMore alpha.', 'Beta text.']);
    expect(chunks.map((c) => c.location.heading_path)).toEqual([['A'], ['B']]);
  });

  it('packs blocks of a document without headings (PDF pages) and keeps page numbers', async () => {
    const pages = [1, 1, 2, 2, 3, 3].map((page, i) => ({ text: `${EN_SENTENCES[i]} ${EN_SENTENCES[i + 1]}`, kind: 'text' as const, page }));
    const doc = buildDoc(pages, 'pdf');
    const chunks = await chunkDocument(doc, { strategy: 'markdown', chunk_size: 64, chunk_overlap: 0 }, { tokenizer: wordCounter });
    expectValidChunks(doc, chunks, wordCounter, 64);
    expectCoverage(doc, chunks);
    // Blocks that fit are never cut: every chunk starts and ends on block boundaries.
    const starts = new Set(doc.blocks.map((b) => b.char_start));
    const ends = new Set(doc.blocks.map((b) => b.char_end));
    for (const c of chunks) {
      expect(starts.has(c.location.char_start!)).toBe(true);
      expect(ends.has(c.location.char_end!)).toBe(true);
      const first = doc.blocks.find((b) => b.char_start === c.location.char_start)!;
      expect(c.location.page).toBe(first.page);
      expect(c.location.heading_path).toBeUndefined();
    }
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('chunks text that no block covers, and documents with no blocks at all', async () => {
    const text = repeatSentences(EN_SENTENCES, 3);
    const bare: ParsedDocument = { parser: 'txt', text, blocks: [], metadata: {}, warnings: [] };
    const chunks = await chunkDocument(bare, { strategy: 'markdown', chunk_size: 40, chunk_overlap: 0 }, { tokenizer: wordCounter });
    expectValidChunks(bare, chunks, wordCounter, 40);
    expectCoverage(bare, chunks);
  });
});
