import { z } from 'zod';
import { LocationSchema, MetadataSchema } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { defineTool, KbIdArg, READ_ONLY } from '../tool-kit.js';

const MAX_WINDOW = 20;

export const getDocument = defineTool({
  name: 'get_document',
  title: 'Read a document',
  description:
    'Read a document: its metadata and full text (content). For a long document, pass the chunk_index of a search hit to get ' +
    'just that chunk and `window` neighbours on each side (default 1) instead of the whole text.',
  input: z.strictObject({
    kb_id: KbIdArg,
    doc_id: z.string().min(1).max(512).describe('Document id, e.g. from a search hit or list_documents'),
    chunk_index: z.number().int().optional().describe('Return only this chunk (0-based) and its neighbours'),
    window: z.number().int().default(1).describe(`Neighbouring chunks on each side with chunk_index, 0 to ${MAX_WINDOW} (default 1)`),
  }),
  output: z.object({
    kb_id: z.string(),
    doc_id: z.string(),
    title: z.string(),
    source: z.string(),
    metadata: MetadataSchema,
    parser: z.string(),
    chunk_count: z.number().int(),
    size: z.number().int().describe('characters of text'),
    created_at: z.string(),
    updated_at: z.string(),
    content: z.string().optional().describe('the full text (without chunk_index)'),
    chunk_index: z.number().int().optional(),
    chunks: z.array(z.object({ chunk_index: z.number().int(), text: z.string(), location: LocationSchema })).optional(),
  }),
  annotations: { title: 'Read a document', ...READ_ONLY },
  async run({ kb_id, doc_id, chunk_index, window }, { client }) {
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
    if (chunk_index === undefined) return { ...base, content: doc.content };
    if (window < 0 || window > MAX_WINDOW) throw new RagError('invalid_parameter', `window must be between 0 and ${MAX_WINDOW}`);
    if (chunk_index < 0 || chunk_index >= doc.chunk_count) {
      throw new RagError(
        'invalid_parameter',
        `chunk_index ${chunk_index} is out of range: the document has ${doc.chunk_count} chunks (0-${doc.chunk_count - 1})`,
      );
    }
    const offset = Math.max(0, chunk_index - window);
    const { chunks } = await client.listChunks({ kb_id, doc_id, offset, limit: Math.min(500, chunk_index + window - offset + 1) });
    return { ...base, chunk_index, chunks: chunks.map((c) => ({ chunk_index: c.chunk_index, text: c.text, location: c.location })) };
  },
});
