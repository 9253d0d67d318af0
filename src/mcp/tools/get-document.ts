import { z } from 'zod';
import { LocationSchema, MetadataSchema, type Chunk } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { defineTool, KbIdArg, READ_ONLY } from '../tool-kit.js';
import { cutAt } from './snippet.js';

const MAX_WINDOW = 20;
/** Characters of text one call returns by default: about 8k tokens, under the ~10k where MCP clients start to warn. */
export const DEFAULT_MAX_CHARS = 32_000;
export const MIN_MAX_CHARS = 1_000;
export const MAX_MAX_CHARS = 100_000;

const ChunkOut = z.object({ chunk_index: z.number().int(), text: z.string(), location: LocationSchema });

export const getDocument = defineTool({
  name: 'get_document',
  title: 'Read a document',
  description:
    'Read a document: its metadata and text, at most max_chars characters per call (default 32000, about 8k tokens). ' +
    'A longer text comes in parts: the answer says truncated, next_offset and how much is left; call again with offset=next_offset ' +
    'to read on. To read around a search hit instead, pass its chunk_index: that chunk and `window` neighbours on each side (default 1).',
  input: z.strictObject({
    kb_id: KbIdArg,
    doc_id: z.string().min(1).max(512).describe('Document id, e.g. from a search hit or list_documents'),
    chunk_index: z.number().int().optional().describe('Return only this chunk (0-based) and its neighbours'),
    window: z.number().int().default(1).describe(`Neighbouring chunks on each side with chunk_index, 0 to ${MAX_WINDOW} (default 1)`),
    offset: z
      .number()
      .int()
      .default(0)
      .describe('Without chunk_index: the character to start reading at (default 0; next_offset of the last part)'),
    max_chars: z
      .number()
      .int()
      .default(DEFAULT_MAX_CHARS)
      .describe(`Most characters of text to return, ${MIN_MAX_CHARS} to ${MAX_MAX_CHARS} (default ${DEFAULT_MAX_CHARS})`),
  }),
  output: z.object({
    kb_id: z.string(),
    doc_id: z.string(),
    title: z.string(),
    source: z.string(),
    metadata: MetadataSchema,
    parser: z.string(),
    chunk_count: z.number().int(),
    size: z.number().int().describe('characters of text in the whole document'),
    created_at: z.string(),
    updated_at: z.string(),
    content: z.string().optional().describe('the text from offset (without chunk_index), at most max_chars'),
    offset: z.number().int().optional().describe('where content starts in the text'),
    next_offset: z.number().int().nullable().optional().describe('where the next part starts; null at the end'),
    chunk_index: z.number().int().optional(),
    chunks: z.array(ChunkOut).optional(),
    truncated: z.boolean().describe('true when this answer holds less than was asked for: read on as `note` says'),
    note: z.string().optional(),
  }),
  annotations: { title: 'Read a document', ...READ_ONLY },
  async run({ kb_id, doc_id, chunk_index, window, offset, max_chars }, { client }) {
    if (max_chars < MIN_MAX_CHARS || max_chars > MAX_MAX_CHARS)
      throw new RagError('invalid_parameter', `max_chars must be between ${MIN_MAX_CHARS} and ${MAX_MAX_CHARS}`);
    const doc = await client.getDocument({ kb_id, doc_id });
    const base = {
      kb_id: doc.kb_id,
      doc_id: doc.doc_id,
      title: doc.title,
      source: doc.source,
      metadata: doc.metadata,
      parser: doc.parser,
      chunk_count: doc.chunk_count,
      size: doc.size,
      created_at: doc.created_at,
      updated_at: doc.updated_at,
    };
    if (chunk_index === undefined) {
      const total = doc.content.length;
      if (offset < 0 || offset > total)
        throw new RagError('invalid_parameter', `offset must be between 0 and ${total} (the text's length)`);
      const end = offset + max_chars >= total ? total : cutAt(doc.content, offset, offset + max_chars);
      const more = end < total;
      return {
        ...base,
        content: doc.content.slice(offset, end),
        offset,
        next_offset: more ? end : null,
        truncated: more,
        ...(more
          ? {
              note:
                `Showing characters ${offset}-${end} of ${total} (${total - end} more). Call get_document again with offset=${end} ` +
                `for the next part (max_chars up to ${MAX_MAX_CHARS}), or search_kb and get_document with a hit's chunk_index to read around it.`,
            }
          : {}),
      };
    }
    if (window < 0 || window > MAX_WINDOW) throw new RagError('invalid_parameter', `window must be between 0 and ${MAX_WINDOW}`);
    if (chunk_index < 0 || chunk_index >= doc.chunk_count) {
      throw new RagError(
        'invalid_parameter',
        `chunk_index ${chunk_index} is out of range: the document has ${doc.chunk_count} chunks (0-${doc.chunk_count - 1})`,
      );
    }
    const first = Math.max(0, chunk_index - window);
    const { chunks } = await client.listChunks({ kb_id, doc_id, offset: first, limit: Math.min(500, chunk_index + window - first + 1) });
    return { ...base, chunk_index, ...chunksWithin(chunks, chunk_index, max_chars) };
  },
});

/**
 * The hit's chunk and as many neighbours as fit `maxChars`, nearest first; a hit chunk longer than the budget is cut
 * (and says where to read it whole). Never silently less: `truncated` and `note` say what was left out.
 */
function chunksWithin(
  chunks: Chunk[],
  target: number,
  maxChars: number,
): { chunks: Array<z.input<typeof ChunkOut>>; truncated: boolean; note?: string } {
  const byDistance = [...chunks].sort(
    (a, b) => Math.abs(a.chunk_index - target) - Math.abs(b.chunk_index - target) || a.chunk_index - b.chunk_index,
  );
  const kept: Array<z.input<typeof ChunkOut>> = [];
  const left: number[] = [];
  let used = 0;
  let cut: string | undefined;
  let lowClosed = false;
  let highClosed = false;
  for (const c of byDistance) {
    if (c.chunk_index === target && c.text.length > maxChars) {
      const end = cutAt(c.text, 0, maxChars);
      kept.push({ chunk_index: c.chunk_index, text: c.text.slice(0, end), location: c.location });
      used += end;
      const at = c.location.char_start;
      cut =
        `Chunk ${target} has ${c.text.length} characters; showing the first ${end}.` +
        (at !== undefined ? ` Read it whole with get_document offset=${at} (without chunk_index).` : '');
      continue;
    }
    // Neighbours stay contiguous: once one side's next chunk does not fit, that side ends.
    const low = c.chunk_index < target;
    if ((low ? lowClosed : highClosed) || used + c.text.length > maxChars) {
      left.push(c.chunk_index);
      if (low) lowClosed = true;
      else highClosed = true;
      continue;
    }
    kept.push({ chunk_index: c.chunk_index, text: c.text, location: c.location });
    used += c.text.length;
  }
  kept.sort((a, b) => a.chunk_index - b.chunk_index);
  const notes = [
    cut,
    left.length
      ? `Left out neighbour chunks ${left.sort((a, b) => a - b).join(', ')} (over max_chars ${maxChars}): ask for a smaller window or a larger max_chars.`
      : undefined,
  ].filter(Boolean);
  return { chunks: kept, truncated: notes.length > 0, ...(notes.length ? { note: notes.join(' ') } : {}) };
}
