import type { ParsedDocument } from '../parse/types.js';
import type { Span, TokenCost } from './span.js';
import { makeSpan } from './span.js';

/** The `whole` strategy: the entire text as one chunk, however long (the user asked for exactly that). */
export function wholeStrategy(doc: ParsedDocument, tc: TokenCost): Span[] {
  const span = makeSpan(doc.text, 0, doc.text.length, tc);
  return span ? [span] : [];
}
