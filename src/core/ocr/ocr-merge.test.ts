import { describe, expect, it } from 'vitest';
import { assembleDocument } from '../parse/assemble.js';
import { WARNING_NO_TEXT_LAYER } from '../parse/pdf-parser.js';
import { mergeOcr, WARNING_OCR_LOW_CONFIDENCE, WARNING_OCR_NO_TEXT } from './ocr-merge.js';
import type { PageReading } from './page-ocr.js';

const reading = (language: string, confidence: number, ...paragraphs: string[]): PageReading => ({
  language,
  languages: language,
  confidence,
  chars: paragraphs.join('').replace(/\s/g, '').length,
  rotation: 0,
  paragraphs: paragraphs.map((text) => ({ text, confidence })),
});

describe('merging OCR pages into a parsed document', () => {
  it('puts scanned pages between text pages by page number, with the heading in force, and records what OCR did', () => {
    const parsed = {
      ...assembleDocument({
        parser: 'pdf',
        blocks: [
          { kind: 'heading', level: 1, text: 'Annex', page: 1, heading_path: ['Annex'] },
          { kind: 'paragraph', text: 'Typed page one.', page: 1, heading_path: ['Annex'] },
          { kind: 'paragraph', text: 'Typed page four.', page: 4, heading_path: ['Annex'] },
        ],
        metadata: { page_count: 4, pages_without_text: [2, 3] },
      }),
      ocr: { kind: 'pdf' as const, pages: [2, 3] },
    };
    const merged = mergeOcr(parsed, {
      page_count: 4,
      pages: [
        { page: 2, reading: reading('rus', 90, 'Скан страницы два.', 'Второй абзац.') },
        { page: 3, reading: reading('eng', 40, 'blurry') },
      ],
    });
    expect(merged.blocks.map((b) => [b.page, b.text])).toEqual([
      [1, 'Annex'],
      [1, 'Typed page one.'],
      [2, 'Скан страницы два.'],
      [2, 'Второй абзац.'],
      [3, 'blurry'],
      [4, 'Typed page four.'],
    ]);
    expect(merged.blocks[2]!.heading_path).toEqual(['Annex']);
    for (const b of merged.blocks) expect(merged.text.slice(b.char_start, b.char_end)).toBe(b.text);
    expect(merged.metadata).toMatchObject({ page_count: 4, ocr_pages: [2, 3], ocr_languages: ['rus', 'eng'] });
    expect(merged.metadata.pages_without_text).toBeUndefined();
    // Character-weighted: 28 characters at 90, 6 at 40.
    expect(merged.metadata.ocr_confidence).toBe(0.812);
    expect(merged.warnings).toEqual([`${WARNING_OCR_LOW_CONFIDENCE}: pages 3`]);
    expect(merged.ocr).toBeUndefined();
  });

  it('keeps the scan warning when OCR found nothing', () => {
    const parsed = {
      ...assembleDocument({ parser: 'pdf', blocks: [], metadata: { page_count: 1 }, warnings: [WARNING_NO_TEXT_LAYER] }),
      ocr: { kind: 'pdf' as const, pages: 'all' as const },
    };
    const merged = mergeOcr(parsed, { page_count: 1, pages: [{ page: 1, reading: reading('eng', 0) }] });
    expect(merged.text).toBe('');
    expect(merged.warnings).toEqual(expect.arrayContaining([WARNING_NO_TEXT_LAYER, WARNING_OCR_NO_TEXT]));
    expect(merged.metadata.ocr_pages).toBeUndefined();
  });
});
