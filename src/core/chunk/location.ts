import type { Location } from '../../shared/contract/index.js';
import type { ParsedBlock, ParsedDocument } from '../parse/types.js';
import { lowerBound, upperBound } from './span.js';

/** Maps a character range of `doc.text` to its location: page, heading path, line range. */
export type Locator = (start: number, end: number) => Location;

function hasLines(b: ParsedBlock): boolean {
  return b.line_start !== undefined || b.line_end !== undefined;
}

/**
 * Builds the one location mapper every strategy uses. Blocks are binary-searched, so locating a chunk costs
 * O(log blocks + blocks it spans). The range's location takes `page` and `heading_path` from the first block in
 * it that has one, `page_end` from the last block with a page (when that page is later), `line_start` from the first
 * block with lines and `line_end` from the last. When a block's text
 * holds exactly as many line breaks as its line range says, lines inside the block are counted precisely.
 */
export function createLocator(doc: ParsedDocument): Locator {
  const blocks = [...doc.blocks].sort((a, b) => a.char_start - b.char_start || a.char_end - b.char_end);
  const starts = blocks.map((b) => b.char_start);
  // Running maximum of block ends: ascending even if blocks overlap, so "first block ending after x" is a search.
  const maxEnds: number[] = [];
  let runMax = -Infinity;
  for (const b of blocks) {
    runMax = Math.max(runMax, b.char_end);
    maxEnds.push(runMax);
  }

  let newlines: Uint32Array | undefined;
  const newlinesBefore = (pos: number): number => {
    if (!newlines) {
      const found: number[] = [];
      for (let i = doc.text.indexOf('\n'); i !== -1; i = doc.text.indexOf('\n', i + 1)) found.push(i);
      newlines = Uint32Array.from(found);
    }
    return lowerBound(newlines, pos);
  };
  const consistent = new Map<ParsedBlock, boolean>();
  const linesMatch = (b: ParsedBlock): boolean => {
    let ok = consistent.get(b);
    if (ok === undefined) {
      ok =
        b.line_start !== undefined &&
        b.line_end !== undefined &&
        newlinesBefore(b.char_end) - newlinesBefore(b.char_start) === b.line_end - b.line_start;
      consistent.set(b, ok);
    }
    return ok;
  };
  const lineAt = (b: ParsedBlock, pos: number): number | undefined => {
    if (linesMatch(b)) return (b.line_start as number) + newlinesBefore(pos) - newlinesBefore(b.char_start);
    return undefined;
  };

  return (start: number, end: number): Location => {
    const loc: Location = { char_start: start, char_end: end };
    const first = upperBound(maxEnds, start);
    const last = lowerBound(starts, end) - 1;
    const overlaps = (b: ParsedBlock): boolean => b.char_end > start && b.char_start < end;

    let needPage = true;
    let needPath = true;
    let needLine = true;
    for (let i = first; i <= last && (needPage || needPath || needLine); i++) {
      const b = blocks[i] as ParsedBlock;
      if (!overlaps(b)) continue;
      if (needPage && b.page !== undefined) {
        loc.page = b.page;
        needPage = false;
      }
      if (needPath && b.heading_path && b.heading_path.length > 0) {
        loc.heading_path = [...b.heading_path];
        needPath = false;
      }
      if (needLine && hasLines(b)) {
        loc.line_start = lineAt(b, Math.max(start, b.char_start)) ?? b.line_start ?? b.line_end;
        needLine = false;
      }
    }
    // The last page the range reaches, when it runs over more than one (only `whole` chunks do: see pages.ts).
    if (!needPage) {
      for (let i = last; i >= first; i--) {
        const b = blocks[i] as ParsedBlock;
        if (!overlaps(b) || b.page === undefined) continue;
        if (b.page > (loc.page as number)) loc.page_end = b.page;
        break;
      }
    }
    for (let i = last; i >= first && !needLine; i--) {
      const b = blocks[i] as ParsedBlock;
      if (!overlaps(b) || !hasLines(b)) continue;
      loc.line_end = lineAt(b, Math.min(end, b.char_end) - 1) ?? b.line_end ?? b.line_start;
      break;
    }
    return loc;
  };
}
