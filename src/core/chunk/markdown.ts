import type { ParsedBlock, ParsedDocument } from '../parse/types.js';
import type { Unit } from './pack.js';
import { packUnits, rangesToUnits } from './pack.js';
import type { Range } from './segment.js';
import { lineRanges, sentenceRanges } from './segment.js';
import { tableUnits } from './table.js';
import type { SizeLimits, Span, TokenCost } from './span.js';
import { trimRange } from './span.js';

function samePath(a: string[] | undefined, b: string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

const byStart = (a: ParsedBlock, b: ParsedBlock): number => a.char_start - b.char_start;

/**
 * Blocks in text order, plus any non-blank text that no block covers (as plain `text` blocks), so nothing is lost.
 * (Its helpers are functions of the module, not closures made per document: see chunk/index.ts ChunkJob.)
 */
function coveringBlocks(doc: ParsedDocument): ParsedBlock[] {
  const sorted = [...doc.blocks].sort(byStart);
  const out: ParsedBlock[] = [];
  let pos = 0;
  for (const b of sorted) {
    if (b.char_start > pos) addGap(doc.text, out, pos, b.char_start);
    out.push(b);
    pos = Math.max(pos, b.char_end);
  }
  addGap(doc.text, out, pos, doc.text.length);
  return out;
}

/** The non-blank text of [start, end) as a plain `text` block under the heading of the block before it. */
function addGap(text: string, out: ParsedBlock[], start: number, end: number): void {
  const [s, e] = trimRange(text, start, end);
  if (s >= e) return;
  const before = out[out.length - 1];
  const block: ParsedBlock = { text: text.slice(s, e), char_start: s, char_end: e, kind: 'text' };
  if (before?.heading_path) block.heading_path = before.heading_path;
  out.push(block);
}

/** Pieces of an oversized block: lines for code, tables and lists; sentences for prose. */
function blockPieces(text: string, b: ParsedBlock, s: number, e: number): Range[] {
  return b.kind === 'code' || b.kind === 'table' || b.kind === 'list' ? lineRanges(text, s, e) : sentenceRanges(text, s, e);
}

/**
 * The `markdown` strategy (heading-aware, the default). Chunks follow the parsed blocks: consecutive blocks of one
 * section are packed up to `size` tokens; every heading starts a new chunk (a heading directly followed by a deeper
 * one stays with it), so a chunk that begins a section begins with its heading and never holds another section's
 * text. A change of heading path between blocks is a section boundary too, and so is the start of each table row group
 * (parsers cut tables into row groups that repeat the header). Oversized blocks are cut by sentences
 * (lines for code and lists), oversized tables into row groups that each start with the table's head (see
 * tableUnits: later groups repeat it, so their chunk text is the head plus a range), oversized sentences by tokens. Overlap repeats whole trailing units within a
 * section only. Documents without headings (html, docx, pdf) get plain block packing.
 */
export function markdownStrategy(doc: ParsedDocument, limits: SizeLimits, tc: TokenCost): Span[] {
  const text = doc.text;
  const budget = tc.budget(limits.size);
  const units: Unit[] = [];
  let prev: ParsedBlock | undefined;
  let chainLevel: number | undefined; // deepest heading level of a run of headings that opens the current chunk
  let chainCost = 0;

  for (const b of coveringBlocks(doc)) {
    const [s, e] = trimRange(text, b.char_start, b.char_end);
    if (s >= e) continue;
    const isHeading = b.kind === 'heading';
    let boundary: boolean;
    if (isHeading) {
      const level = b.level ?? 1;
      boundary = !(chainLevel !== undefined && level > chainLevel);
      if (boundary) chainCost = 0;
      chainLevel = level;
    } else {
      // A table block after a table block is the next row group (which repeats the header): a chunk of its own.
      boundary =
        prev !== undefined &&
        prev.kind !== 'heading' &&
        (!samePath(prev.heading_path, b.heading_path) || (prev.kind === 'table' && b.kind === 'table'));
    }

    const cost = tc.costOf(text, s, e);
    let blockUnits: Unit[];
    if (isHeading || (cost <= budget && chainCost + cost <= budget)) {
      blockUnits = rangesToUnits(text, [[s, e]], limits, tc, boundary, [cost]);
    } else {
      // Too big for a chunk, or for the chunk its heading opened: cut it so its start can follow the heading.
      // A table is cut into row groups that each start with its head (repeated over the later ones).
      blockUnits =
        (b.kind === 'table' ? tableUnits(text, s, e, limits, tc, budget - chainCost, boundary) : undefined) ??
        rangesToUnits(text, blockPieces(text, b, s, e), limits, tc, boundary);
    }
    units.push(...blockUnits);

    if (isHeading) chainCost += cost;
    else {
      chainLevel = undefined;
      chainCost = 0;
    }
    prev = b;
  }
  return packUnits(text, units, limits, tc);
}
