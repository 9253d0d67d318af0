import type { Metadata } from '../../shared/contract/index.js';
import { assembleDocument, WARNING_EMPTY_TEXT, type BlockDraft } from '../parse/assemble.js';
import { WARNING_NO_TEXT_LAYER } from '../parse/pdf-parser.js';
import type { ParsedDocument } from '../parse/types.js';
import type { OcrDocumentResult } from './ocr-document.js';
import { USABLE_CONFIDENCE } from './page-ocr.js';

/**
 * A parsed document with its OCR'd pages merged in, in page order: each recognised paragraph becomes a block
 * with its page number (and the heading path in force on the page before, for a scan inside a text PDF). The
 * document's metadata records what OCR did:
 *   ocr_pages       pages whose text came from OCR
 *   ocr_confidence  mean confidence over those pages' characters, 0..1
 *   ocr_languages   the Tesseract languages the pages were read in
 * Pages OCR could barely read are named in an `ocr_low_confidence` warning.
 */
export const WARNING_OCR_LOW_CONFIDENCE = 'ocr_low_confidence';
/** OCR ran on the document's scanned pages and found no text on any. */
export const WARNING_OCR_NO_TEXT = 'ocr_no_text';

export function mergeOcr(parsed: ParsedDocument, result: OcrDocumentResult): ParsedDocument {
  const drafts: BlockDraft[] = parsed.blocks.map(({ char_start: _s, char_end: _e, ...b }) => b);
  const ocrBlocks: BlockDraft[] = [];
  const pages: number[] = [];
  const languages = new Set<string>();
  const low: number[] = [];
  let weighted = 0;
  let chars = 0;
  for (const { page, reading } of result.pages) {
    if (!reading || reading.paragraphs.length === 0) continue;
    pages.push(page);
    languages.add(reading.language);
    weighted += reading.confidence * reading.chars;
    chars += reading.chars;
    if (reading.confidence < USABLE_CONFIDENCE) low.push(page);
    const before = drafts.filter((b) => (b.page ?? 0) < page).at(-1);
    for (const p of reading.paragraphs) {
      ocrBlocks.push({
        kind: 'paragraph',
        text: p.text,
        page,
        ...(before?.heading_path?.length ? { heading_path: before.heading_path } : {}),
      });
    }
  }
  // Stable merge by page: text-layer blocks keep their order, OCR blocks go after those of earlier pages.
  const blocks = [...drafts, ...ocrBlocks]
    .map((b, i) => ({ b, i }))
    .sort((x, y) => (x.b.page ?? 0) - (y.b.page ?? 0) || x.i - y.i)
    .map(({ b }) => b);

  const metadata: Metadata = { ...parsed.metadata };
  const read = new Set(pages);
  if (Array.isArray(metadata.pages_without_text)) {
    const still = (metadata.pages_without_text as number[]).filter((p) => !read.has(p));
    if (still.length) metadata.pages_without_text = still;
    else delete metadata.pages_without_text;
  }
  if (parsed.ocr?.kind === 'image' || metadata.page_count === undefined) metadata.page_count = result.page_count;
  if (pages.length) {
    metadata.ocr_pages = pages;
    metadata.ocr_confidence = Math.round((chars ? weighted / chars : 0) * 10) / 1000;
    metadata.ocr_languages = [...languages];
  }
  const warnings = parsed.warnings.filter((w) => !(pages.length && (w === WARNING_NO_TEXT_LAYER || w === WARNING_EMPTY_TEXT)));
  if (low.length) warnings.push(`${WARNING_OCR_LOW_CONFIDENCE}: pages ${low.join(', ')}`);
  if (!pages.length) warnings.push(WARNING_OCR_NO_TEXT);
  const { ocr: _done, ...rest } = parsed;
  return { ...rest, ...assembleDocument({ parser: parsed.parser, blocks, title: parsed.title, metadata, warnings }) };
}
