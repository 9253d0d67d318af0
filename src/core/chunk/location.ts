import type { Location } from '../../shared/contract/index.js';
import type { ParsedBlock, ParsedDocument } from '../parse/types.js';
import { lowerBound, upperBound } from './span.js';

/** Maps a character range of `doc.text` to its location: page, heading path, line range. */
export type Locator = (start: number, end: number) => Location;

function hasLines(b: ParsedBlock): boolean {
  return b.line_start !== undefined || b.line_end !== undefined;
}

/**
 * Builds the one location mapper every strategy uses (DocLocator). Blocks are binary-searched, so locating a chunk
 * costs O(log blocks + blocks it spans). The range's location takes `page` and `heading_path` from the first block in
 * it that has one, `page_end` from the last block with a page (when that page is later), `line_start` from the first
 * block with lines and `line_end` from the last. When a block's text
 * holds exactly as many line breaks as its line range says, lines inside the block are counted precisely.
 */
export function createLocator(doc: ParsedDocument): Locator {
  const locator = new DocLocator(doc);
  return (start, end) => locator.at(start, end);
}

/** Blocks in text order: by start, then by end. */
export const byRange = (a: ParsedBlock, b: ParsedBlock): number => a.char_start - b.char_start || a.char_end - b.char_end;

/**
 * createLocator's mapper as an object: what runs per chunk is methods, not closures made per document. V8 keeps a
 * closure's optimised code only while the closure lives, so functions made anew for each document were optimised
 * again after every major GC (lineAt 8-9 times in one `add` of 20 MB, 20-50 ms of compiling each time).
 */
export class DocLocator {
  private readonly blocks: ParsedBlock[];
  private readonly starts: number[];
  /** Running maximum of block ends: ascending even if blocks overlap, so "first block ending after x" is a search. */
  private readonly maxEnds: number[] = [];
  private newlines: Uint32Array | undefined;
  private readonly consistent = new Map<ParsedBlock, boolean>();

  constructor(private readonly doc: ParsedDocument) {
    this.blocks = [...doc.blocks].sort(byRange);
    this.starts = new Array<number>(this.blocks.length);
    let runMax = -Infinity;
    for (let i = 0; i < this.blocks.length; i++) {
      const b = this.blocks[i]!;
      this.starts[i] = b.char_start;
      runMax = Math.max(runMax, b.char_end);
      this.maxEnds.push(runMax);
    }
  }

  private newlinesBefore(pos: number): number {
    if (!this.newlines) {
      const text = this.doc.text;
      const found: number[] = [];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) found.push(i);
      this.newlines = Uint32Array.from(found);
    }
    return lowerBound(this.newlines, pos);
  }

  private linesMatch(b: ParsedBlock): boolean {
    let ok = this.consistent.get(b);
    if (ok === undefined) {
      ok =
        b.line_start !== undefined &&
        b.line_end !== undefined &&
        this.newlinesBefore(b.char_end) - this.newlinesBefore(b.char_start) === b.line_end - b.line_start;
      this.consistent.set(b, ok);
    }
    return ok;
  }

  private lineAt(b: ParsedBlock, pos: number): number | undefined {
    if (this.linesMatch(b)) return (b.line_start as number) + this.newlinesBefore(pos) - this.newlinesBefore(b.char_start);
    return undefined;
  }

  /** The location of doc.text[start, end). */
  at(start: number, end: number): Location {
    const blocks = this.blocks;
    const loc: Location = { char_start: start, char_end: end };
    const first = upperBound(this.maxEnds, start);
    const last = lowerBound(this.starts, end) - 1;

    let needPage = true;
    let needPath = true;
    let needLine = true;
    for (let i = first; i <= last && (needPage || needPath || needLine); i++) {
      const b = blocks[i] as ParsedBlock;
      if (!overlaps(b, start, end)) continue;
      if (needPage && b.page !== undefined) {
        loc.page = b.page;
        needPage = false;
      }
      if (needPath && b.heading_path && b.heading_path.length > 0) {
        loc.heading_path = [...b.heading_path];
        needPath = false;
      }
      if (needLine && hasLines(b)) {
        loc.line_start = this.lineAt(b, Math.max(start, b.char_start)) ?? b.line_start ?? b.line_end;
        needLine = false;
      }
    }
    // The last page the range reaches, when it runs over more than one (only `whole` chunks do: see pages.ts).
    if (!needPage) {
      for (let i = last; i >= first; i--) {
        const b = blocks[i] as ParsedBlock;
        if (!overlaps(b, start, end) || b.page === undefined) continue;
        if (b.page > (loc.page as number)) loc.page_end = b.page;
        break;
      }
    }
    for (let i = last; i >= first && !needLine; i--) {
      const b = blocks[i] as ParsedBlock;
      if (!overlaps(b, start, end) || !hasLines(b)) continue;
      loc.line_end = this.lineAt(b, Math.min(end, b.char_end) - 1) ?? b.line_end ?? b.line_start;
      break;
    }
    return loc;
  }
}

const overlaps = (b: ParsedBlock, start: number, end: number): boolean => b.char_end > start && b.char_start < end;
