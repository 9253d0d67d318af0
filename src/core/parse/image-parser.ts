import { imageFormat, probeImage } from '../ocr/image-pages.js';
import { assembleDocument } from './assemble.js';
import { parseFailed } from './parse-errors.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/**
 * Images (scans, photos of pages, faxes) as documents: the parser checks the file and counts its pages (TIFF may
 * hold many); the text comes from OCR, which the ingestion runs on every page (`ocr.pages: 'all'`).
 */
export const imageParser: Parser = {
  name: 'image',
  extensions: ['png', 'jpg', 'jpeg', 'tif', 'tiff', 'webp', 'gif', 'bmp'],
  mimeTypes: ['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/gif', 'image/bmp'],
  description:
    'Images (PNG, JPEG, TIFF incl. multi-page and fax, WebP, GIF, BMP): text by local OCR (English, Russian, Chinese…), one page per image.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    if (!imageFormat(input.data)) throw parseFailed(input.filename, 'corrupt', 'the file is not a PNG, JPEG, TIFF, WebP, GIF or BMP image');
    let probe;
    try {
      probe = await probeImage(input.data);
    } catch (err) {
      throw parseFailed(input.filename, 'corrupt', 'the image is damaged', err);
    }
    const metadata = { page_count: probe.count, image_format: probe.format };
    return { ...assembleDocument({ parser: 'image', blocks: [], metadata }), ocr: { kind: 'image', pages: 'all' } };
  },
};

/** True for bytes that open like an image this parser reads. */
export function looksLikeImage(data: Uint8Array): boolean {
  return imageFormat(data) !== undefined;
}
