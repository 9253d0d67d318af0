import { WARNING_OCR_LOW_CONFIDENCE, WARNING_OCR_NO_TEXT } from '../ocr/ocr-merge.js';
import type { ParsedDocument } from '../parse/types.js';

/** What the health report says about a document's OCR: how much of it was read, and how surely. */
export interface OcrFacts {
  /** Pages read by OCR. */
  ocr_pages?: number;
  /** Mean confidence over those pages' characters, 0..1. */
  ocr_confidence?: number;
}

export function ocrFacts(parsed: ParsedDocument): OcrFacts {
  const pages = parsed.metadata.ocr_pages;
  const confidence = parsed.metadata.ocr_confidence;
  if (!Array.isArray(pages) || pages.length === 0) return {};
  return { ocr_pages: pages.length, ...(typeof confidence === 'number' ? { ocr_confidence: confidence } : {}) };
}

const pct = (c: number | undefined) => (c === undefined ? '?' : `${Math.round(c * 100)}%`);

/** The message for a scan or image OCR found no text in; undefined when OCR did not run or found text. */
export function ocrNothingMessage(parsed: ParsedDocument): string | undefined {
  if (!parsed.warnings.includes(WARNING_OCR_NO_TEXT)) return undefined;
  const pages = Number(parsed.metadata.page_count ?? 0);
  const what = parsed.parser === 'image' ? 'an image' : 'a scanned PDF';
  return `${what}: OCR found no text on its ${pages === 1 ? 'page' : `${pages} pages`} (blank, a picture, or a language not in the KB's languages)`;
}

/** Pages OCR could barely read, as a report message; undefined when every page read well. */
export function ocrLowConfidenceMessage(parsed: ParsedDocument, facts: OcrFacts): string | undefined {
  const warning = parsed.warnings.find((w) => w.startsWith(`${WARNING_OCR_LOW_CONFIDENCE}:`));
  if (!warning) return undefined;
  const pages = warning.slice(WARNING_OCR_LOW_CONFIDENCE.length + 1).trim();
  return `read by OCR, but ${pages} could barely be read (mean confidence ${pct(facts.ocr_confidence)}): their text may be wrong; a cleaner scan at 300 dpi reads better`;
}

/** "…; N pages read by OCR (mean confidence 93%)" for an OCR'd document's report line. */
export function ocrSuffix(facts: OcrFacts): string {
  if (!facts.ocr_pages) return '';
  return `; ${facts.ocr_pages === 1 ? '1 page' : `${facts.ocr_pages} pages`} read by OCR (mean confidence ${pct(facts.ocr_confidence)})`;
}
