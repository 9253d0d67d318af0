import { z } from 'zod';
import { HitSchema, SearchResultSchema, type RagClient } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';

/**
 * Cutting text for an agent's context: where to end a part of a long text, and the best-matching part of a chunk
 * (search tools' snippet mode). Pure text functions; the matches come from the contract (`highlightTerms`).
 */

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/**
 * Where to end the part of `text` that starts at `start` and may run to `limit`: at the last paragraph break, line
 * break or space in the part's last fifth (and not before `minEnd`), else at `limit` itself; never between the
 * halves of a surrogate pair.
 */
export function cutAt(text: string, start: number, limit: number, minEnd = start): number {
  if (limit >= text.length) return text.length;
  const floor = Math.max(minEnd, start + Math.floor((limit - start) * 0.8));
  for (const sep of ['\n\n', '\n', ' ']) {
    const at = text.lastIndexOf(sep, limit - sep.length);
    if (at >= floor) return at + sep.length;
  }
  let end = limit;
  if (end > start + 1 && HIGH_SURROGATE.test(text[end - 1] ?? '')) end--;
  return end;
}

export interface Snippet {
  text: string;
  /** The snippet is `chunk.text.slice(start, end)` (before any ellipses were added). */
  start: number;
  end: number;
}

const SENTENCE_END = /[.!?。！？\n]\s*$/u;

/** Whether a sentence starts at `i` (after . ! ? 。 or a line break, and spaces). */
const sentenceStartsAt = (text: string, i: number): boolean => i === 0 || SENTENCE_END.test(text.slice(Math.max(0, i - 3), i));

/**
 * Where a snippet whose first match is at `match` should start, given `pos` (a little context before it): the start
 * of the match's sentence when it lies in [pos, match], else a sentence start a little before `pos`, else the start of
 * the word at `pos`.
 */
function snapStart(text: string, pos: number, match: number): number {
  if (pos <= 0) return 0;
  for (let i = match; i >= pos; i--) if (sentenceStartsAt(text, i) && /\S/.test(text[i] ?? '')) return i;
  for (let i = pos - 1; i >= Math.max(0, pos - 40); i--) if (sentenceStartsAt(text, i) && /\S/.test(text[i] ?? '')) return i;
  const space = text.lastIndexOf(' ', pos);
  return space >= 0 && pos - space < 40 ? space + 1 : pos;
}

/**
 * The part of `text` of at most about `size` characters holding the most distinct marked terms (then the most marks),
 * with a little context before them, starting at a sentence or word and ending at a word. No marks: the start.
 */
export function bestSnippet(text: string, marks: ReadonlyArray<readonly [number, number]>, size: number): Snippet {
  if (text.length <= size) return { text, start: 0, end: text.length };
  const sorted = [...marks].filter(([s, e]) => e > s && e <= text.length).sort((a, b) => a[0] - b[0]);
  let from = 0;
  let to = 0;
  let best = -1;
  for (let i = 0; i < sorted.length; i++) {
    const terms = new Set<string>();
    let count = 0;
    let j = i;
    while (j < sorted.length && sorted[j]![1] - sorted[i]![0] <= size) {
      terms.add(text.slice(sorted[j]![0], sorted[j]![1]).toLowerCase());
      count++;
      j++;
    }
    const score = terms.size * 1000 + count;
    if (score > best) {
      best = score;
      from = sorted[i]![0];
      to = sorted[j - 1]![1];
    }
  }
  // Context before the first match: a third of the room left, snapped back to a sentence or word start.
  const room = size - (to - from);
  let start = best < 0 ? 0 : Math.max(0, from - Math.floor(room / 3));
  start = snapStart(text, start, from);
  if (start > from) start = from;
  // Snapped back further than the room allows (the matches span most of `size`): start at the first word from
  // which the matches still fit.
  if (to - start > size) {
    const floor = to - size;
    const space = text.indexOf(' ', floor - 1);
    start = space >= 0 && space + 1 <= from ? space + 1 : floor;
  }
  let end = cutAt(text, start, Math.min(text.length, Math.max(start + size, to)), to);
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { text: `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`, start, end };
}

/* ---------- snippet mode of the search tools ---------- */

export const DEFAULT_SNIPPET_CHARS = 300;

export const SnippetArg = z
  .boolean()
  .default(false)
  .describe(
    'true: return only the best-matching part of each hit (about snippet_chars characters, … where cut) instead of the whole chunk: ' +
      'a much smaller result for many hits; get_document with the chunk_index reads the rest',
  );
export const MIN_SNIPPET_CHARS = 80;
export const MAX_SNIPPET_CHARS = 4000;
export const SnippetCharsArg = z
  .number()
  .int()
  .default(DEFAULT_SNIPPET_CHARS)
  .describe(`With snippet: the most characters per hit, 80 to 4000 (default ${DEFAULT_SNIPPET_CHARS})`);

/** A hit as the search tools return it: the contract's, plus where a snippet sits in its chunk. */
export const SnippetHitOut = HitSchema.extend({
  snippet_of: z
    .object({ start: z.number().int(), end: z.number().int(), chunk_chars: z.number().int() })
    .optional()
    .describe('snippet mode: text is the chunk text [start, end) of chunk_chars characters'),
});

export const SearchOutWithSnippets = SearchResultSchema.omit({ degraded: true, hits: true }).extend({
  hits: z.array(SnippetHitOut),
  /** Why the answer is less than asked (model loading, reranker missing). */
  note: z.string().optional(),
});

/** Replace each hit's text with its best-matching part, by the marks the contract's highlighter finds for the query. */
export async function withSnippets<H extends { text: string }>(
  client: RagClient,
  query: string,
  hits: H[],
  size: number,
): Promise<Array<H & { snippet_of?: { start: number; end: number; chunk_chars: number } }>> {
  if (size < MIN_SNIPPET_CHARS || size > MAX_SNIPPET_CHARS)
    throw new RagError('invalid_parameter', `snippet_chars must be between ${MIN_SNIPPET_CHARS} and ${MAX_SNIPPET_CHARS}`);
  const long = hits.filter((h) => h.text.length > size);
  if (long.length === 0) return hits;
  const { marks } = await client.highlightTerms({ query, texts: long.map((h) => h.text) });
  const byHit = new Map(long.map((h, i) => [h, marks?.[i] ?? []]));
  return hits.map((h) => {
    const m = byHit.get(h);
    if (!m) return h;
    const s = bestSnippet(h.text, m, size);
    return { ...h, text: s.text, snippet_of: { start: s.start, end: s.end, chunk_chars: h.text.length } };
  });
}
