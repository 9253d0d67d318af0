import type { ParsedDocument } from '../parse/types.js';
import { packUnits, rangesToUnits } from './pack.js';
import { sentenceRanges } from './segment.js';
import type { SizeLimits, Span, TokenCost } from './span.js';

/**
 * The `sentence` strategy: sentences (Intl.Segmenter) packed greedily up to `size` tokens, with whole trailing
 * sentences up to `overlap` tokens repeated at the start of the next chunk. A sentence longer than `size` is cut
 * into token windows.
 */
export function sentenceStrategy(doc: ParsedDocument, limits: SizeLimits, tc: TokenCost): Span[] {
  const units = rangesToUnits(doc.text, sentenceRanges(doc.text), limits, tc);
  return packUnits(doc.text, units, limits, tc);
}
