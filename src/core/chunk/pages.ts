import type { ParsedBlock, ParsedDocument } from '../parse/types.js';
import { byRange } from './location.js';
import type { Span } from './span.js';

/** A stretch of the document text whose blocks all sit on one page. */
export interface PageRegion {
  start: number;
  end: number;
  page: number;
}

const hasPage = (b: ParsedBlock): b is ParsedBlock & { page: number } => b.page !== undefined;

/**
 * The page regions of a paged document (PDF): consecutive blocks on the same page form one region, from its first
 * block's start to the next region's first block. Text no block covers, and blocks without a page, belong to the
 * region before them. Undefined when the document has fewer than two pages (nothing to respect).
 */
export function pageRegions(doc: ParsedDocument): PageRegion[] | undefined {
  const paged = doc.blocks.filter(hasPage);
  if (paged.length === 0) return undefined;
  paged.sort(byRange);
  const regions: PageRegion[] = [];
  for (const b of paged) {
    const last = regions[regions.length - 1];
    if (last && last.page === b.page) continue;
    if (last) last.end = b.char_start;
    regions.push({ start: regions.length === 0 ? 0 : b.char_start, end: doc.text.length, page: b.page });
  }
  return regions.length > 1 ? regions : undefined;
}

/** The part of `doc` in [start, end) as a document of its own (offsets relative to `start`). */
export function subDocument(doc: ParsedDocument, start: number, end: number): ParsedDocument {
  const blocks: ParsedBlock[] = [];
  for (const b of doc.blocks) {
    const s = Math.max(b.char_start, start);
    const e = Math.min(b.char_end, end);
    if (e <= s) continue;
    blocks.push({ ...b, text: doc.text.slice(s, e), char_start: s - start, char_end: e - start });
  }
  return { ...doc, text: doc.text.slice(start, end), blocks };
}

/**
 * Run a strategy page by page, so that no chunk crosses a page boundary and every chunk of a PDF cites exactly the
 * page its text is on. The trade-off (see docs/mcp.md, "Citations"): a sentence or paragraph that runs over a page
 * break is cut there, the last chunk of a page may be short, and overlap is not carried across pages.
 */
export async function byPage(doc: ParsedDocument, strategy: (doc: ParsedDocument) => Promise<Span[]> | Span[]): Promise<Span[]> {
  const regions = pageRegions(doc);
  if (!regions) return strategy(doc);
  const out: Span[] = [];
  for (const r of regions) {
    for (const span of await strategy(subDocument(doc, r.start, r.end))) {
      out.push({ ...span, start: span.start + r.start, end: span.end + r.start });
    }
  }
  return out;
}
