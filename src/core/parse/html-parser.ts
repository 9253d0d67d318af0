import iconv from 'iconv-lite';
import { decodeText, normalizeDecoded, type DecodedText } from '../text/encoding.js';
import { assembleDocument } from './assemble.js';
import { htmlToBlocks } from './html-blocks.js';
import { encodingMetadata } from './text-parser.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

/**
 * Decodes HTML bytes: a BOM or valid UTF-8 wins; otherwise a `<meta charset>` the file declares is trusted
 * before statistical detection.
 */
export function decodeHtml(bytes: Uint8Array): DecodedText {
  const detected = decodeText(bytes);
  if (detected.encoding.startsWith('utf-') && (detected.confidence ?? 1) >= 0.9) return detected;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  const declared = META_CHARSET.exec(head)?.[1]?.toLowerCase();
  if (declared && !declared.startsWith('utf') && iconv.encodingExists(declared)) {
    const text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), declared);
    return { text: normalizeDecoded(text), encoding: declared, confidence: 1 };
  }
  return detected;
}

export const htmlParser: Parser = {
  name: 'html',
  extensions: ['html', 'htm', 'xhtml'],
  mimeTypes: ['text/html', 'application/xhtml+xml'],
  description: 'HTML pages: visible text only (scripts, styles and templates skipped), h1–h6 as the heading path, <title> as the title.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const decoded = decodeHtml(input.data);
    const { blocks, title } = htmlToBlocks(decoded.text);
    return assembleDocument({ parser: 'html', blocks, title, metadata: encodingMetadata(decoded) });
  },
};
