import { decodeText } from '../text/encoding.js';
import { assembleDocument, type BlockDraft } from './assemble.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/** A paragraph longer than this is split at a line boundary, so line ranges stay useful in long files. */
const MAX_BLOCK_LINES = 60;
const MAX_BLOCK_CHARS = 4000;

/**
 * Pieces of one very long line (a 12 MB log line, minified code) of at most `max` characters, cut at the last
 * whitespace before the limit when there is one, never inside a surrogate pair. Keeps every block, and the memory a
 * block's normalisation needs, small.
 */
export function cutLongLine(line: string, max = MAX_BLOCK_CHARS): string[] {
  if (line.length <= max) return [line];
  const pieces: string[] = [];
  let pos = 0;
  while (line.length - pos > max) {
    let end = pos + max;
    const space = line.lastIndexOf(' ', end);
    if (space > pos + max / 2) end = space + 1;
    else if (/[\ud800-\udbff]/.test(line[end - 1] ?? '')) end--;
    pieces.push(line.slice(pos, end));
    pos = end;
  }
  pieces.push(line.slice(pos));
  return pieces;
}

/**
 * Splits plain text into paragraph blocks at blank lines, recording 1-based line ranges. `firstLine` is the
 * line number of the first line of `text` in the original file (for text that follows front matter).
 */
export function splitParagraphs(text: string, firstLine = 1): BlockDraft[] {
  const blocks: BlockDraft[] = [];
  let buf: string[] = [];
  let bufChars = 0;
  let start = 0;
  const flush = (endLine: number): void => {
    if (buf.length > 0) blocks.push({ kind: 'paragraph', text: buf.join('\n'), line_start: start, line_end: endLine });
    buf = [];
    bufChars = 0;
  };
  let lineNo = firstLine;
  let pos = 0;
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl === -1) nl = text.length;
    const line = text.slice(pos, nl);
    if (line.trim() === '') flush(lineNo - 1);
    else if (line.length > MAX_BLOCK_CHARS) {
      flush(lineNo - 1);
      for (const piece of cutLongLine(line)) blocks.push({ kind: 'paragraph', text: piece, line_start: lineNo, line_end: lineNo });
    } else {
      if (buf.length === 0) start = lineNo;
      buf.push(line);
      bufChars += line.length;
      if (buf.length >= MAX_BLOCK_LINES || bufChars >= MAX_BLOCK_CHARS) flush(lineNo);
    }
    lineNo++;
    pos = nl + 1;
  }
  flush(lineNo - 1);
  return blocks;
}

export const textParser: Parser = {
  name: 'text',
  extensions: ['txt', 'text', 'log', 'rst', 'adoc', 'org'],
  mimeTypes: ['text/plain'],
  description:
    'Plain text in any common encoding (UTF-8/16, CP1251, KOI8-R, GBK/GB18030): paragraphs split at blank lines, with line ranges.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const decoded = decodeText(input.data);
    const blocks = splitParagraphs(decoded.text);
    return assembleDocument({
      parser: 'text',
      blocks,
      title: titleLine(blocks[0]?.text),
      metadata: encodingMetadata(decoded),
    });
  },
};

/**
 * A plain-text title: the first line when it looks like one — short, a few words, starting with a letter and
 * not ending like a sentence. Otherwise none (the caller falls back to the file name).
 */
export function titleLine(firstParagraph: string | undefined): string | undefined {
  const line = firstParagraph?.split('\n', 1)[0]?.trim();
  if (!line || line.length > 100 || line.split(/\s+/).length > 12) return undefined;
  if (!/^\p{L}/u.test(line) || /[.,;:!?…。，；：！？]$/u.test(line)) return undefined;
  return line;
}

/** The `encoding` facts every text-based parser stores with the document. */
export function encodingMetadata(decoded: { encoding: string; confidence?: number }): Record<string, string | number> {
  const meta: Record<string, string | number> = { encoding: decoded.encoding };
  if (decoded.confidence !== undefined && decoded.confidence < 1) meta.encoding_confidence = decoded.confidence;
  return meta;
}
