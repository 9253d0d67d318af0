import type { Metadata } from '../../shared/contract/index.js';

/**
 * A parser turns bytes into text blocks that remember where they came from. `ParsedDocument.text` is the
 * blocks' text joined by "\n\n"; each block records its character range in that text, so chunkers can map
 * any chunk back to page, heading path and line range.
 */
export interface ParsedBlock {
  text: string;
  char_start: number;
  char_end: number;
  kind: 'heading' | 'paragraph' | 'list' | 'code' | 'table' | 'text';
  /** Heading level for `kind: 'heading'` (1..6). */
  level?: number;
  page?: number;
  heading_path?: string[];
  line_start?: number;
  line_end?: number;
}

export interface ParsedDocument {
  parser: string;
  text: string;
  blocks: ParsedBlock[];
  title?: string;
  /** Facts the parser learned: page_count, encoding, author... Stored with the document. */
  metadata: Metadata;
  warnings: string[];
  /**
   * Pages to read by OCR: PDF pages without a text layer (or with one that is only noise), or every page of an
   * image. The ingestion's OCR stage (src/core/ocr) reads them and merges their text in by page.
   */
  ocr?: { kind: 'pdf' | 'image'; pages: number[] | 'all' };
}

export interface ParseInput {
  data: Uint8Array;
  filename?: string;
}

export interface Parser {
  name: string;
  extensions: string[];
  mimeTypes: string[];
  description: string;
  parse(input: ParseInput): Promise<ParsedDocument>;
}
