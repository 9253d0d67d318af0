import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../parse/types.js';
import { createLocator } from './location.js';
import { buildDoc } from './test-support.js';

function pdfLike(): ParsedDocument {
  return buildDoc([
    { text: 'Intro on page one.', kind: 'paragraph', page: 1 },
    { text: 'Methods', kind: 'heading', level: 1, page: 2, heading_path: ['Methods'] },
    { text: 'We measured things.', kind: 'paragraph', page: 2, heading_path: ['Methods'] },
    { text: 'Results', kind: 'heading', level: 1, page: 3, heading_path: ['Results'] },
    { text: 'They were good.', kind: 'paragraph', page: 3, heading_path: ['Results'] },
  ]);
}

function textLike(): ParsedDocument {
  // Text blocks that keep source lines: block 1 = lines 1-3, block 2 = lines 5-6.
  return buildDoc([
    { text: 'alpha one\nalpha two\nalpha three', kind: 'text', line_start: 1, line_end: 3 },
    { text: 'beta one\nbeta two', kind: 'text', line_start: 5, line_end: 6 },
  ]);
}

describe('createLocator', () => {
  it('takes page and heading path from the first block that has them', () => {
    const doc = pdfLike();
    const locate = createLocator(doc);
    const all = locate(0, doc.text.length);
    expect(all).toEqual({ char_start: 0, char_end: doc.text.length, page: 1, page_end: 3, heading_path: ['Methods'] });

    const b = doc.blocks[2];
    const inMethods = locate(b!.char_start + 3, b!.char_end);
    expect(inMethods.page).toBe(2);
    expect(inMethods.heading_path).toEqual(['Methods']);

    const fromResults = locate(doc.blocks[3]!.char_start, doc.text.length);
    expect(fromResults.page).toBe(3);
    expect(fromResults.page_end).toBeUndefined();
    expect(locate(b!.char_start, doc.blocks[4]!.char_start + 2)).toMatchObject({ page: 2, page_end: 3 });
    expect(fromResults.heading_path).toEqual(['Results']);
  });

  it('ignores blocks the range only touches', () => {
    const doc = pdfLike();
    const locate = createLocator(doc);
    // Ends exactly where block 1 starts: block 1 is not part of it.
    const loc = locate(0, doc.blocks[0]!.char_end);
    expect(loc.page).toBe(1);
    expect(loc.heading_path).toBeUndefined();
  });

  it('maps lines precisely inside blocks whose line range matches their text', () => {
    const doc = textLike();
    const locate = createLocator(doc);
    const t = doc.text;
    expect(locate(0, t.length)).toMatchObject({ line_start: 1, line_end: 6 });
    const two = t.indexOf('alpha two');
    expect(locate(two, two + 'alpha two'.length)).toMatchObject({ line_start: 2, line_end: 2 });
    const three = t.indexOf('alpha three');
    const betaOne = t.indexOf('beta one');
    expect(locate(three, betaOne + 4)).toMatchObject({ line_start: 3, line_end: 5 });
    expect(locate(t.indexOf('beta two'), t.length)).toMatchObject({ line_start: 6, line_end: 6 });
  });

  it('falls back to block lines when the block text does not match its line range', () => {
    const doc = buildDoc([
      { text: 'joined paragraph that spanned several source lines', kind: 'paragraph', line_start: 10, line_end: 14 },
      { text: 'next', kind: 'paragraph', line_start: 16, line_end: 16 },
    ]);
    const locate = createLocator(doc);
    expect(locate(7, 16)).toMatchObject({ line_start: 10, line_end: 14 });
    expect(locate(7, doc.text.length)).toMatchObject({ line_start: 10, line_end: 16 });
  });

  it('handles unsorted blocks, documents without blocks, and many blocks', () => {
    const doc = pdfLike();
    const shuffled: ParsedDocument = { ...doc, blocks: [...doc.blocks].reverse() };
    const a = createLocator(doc);
    const b = createLocator(shuffled);
    expect(b(5, 40)).toEqual(a(5, 40));

    const bare: ParsedDocument = { parser: 't', text: 'hello world', blocks: [], metadata: {}, warnings: [] };
    expect(createLocator(bare)(0, 5)).toEqual({ char_start: 0, char_end: 5 });

    const many = buildDoc(Array.from({ length: 5000 }, (_, i) => ({ text: `para ${i}`, kind: 'paragraph' as const, page: i + 1 })));
    const locate = createLocator(many);
    const k = many.blocks[4321]!;
    expect(locate(k.char_start, k.char_end).page).toBe(4322);
  });
});
