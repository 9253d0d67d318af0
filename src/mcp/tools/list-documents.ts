import { z } from 'zod';
import { MetadataSchema } from '../../shared/contract/index.js';
import { defineTool, KbIdArg, READ_ONLY } from '../tool-kit.js';

export const listDocuments = defineTool({
  name: 'list_documents',
  title: 'List documents',
  description:
    'List the documents of a knowledge base, newest first: doc_id, title, source, metadata, chunk count and size, plus the total. ' +
    'Page with limit (1 to 1000, default 100) and offset.',
  input: z.strictObject({
    kb_id: KbIdArg,
    limit: z.number().int().default(100).describe('Documents per page, 1 to 1000 (default 100)'),
    offset: z.number().int().default(0).describe('Documents to skip (default 0)'),
  }),
  output: z.object({
    total: z.number().int(),
    offset: z.number().int(),
    documents: z.array(
      z.object({
        doc_id: z.string(),
        title: z.string(),
        source: z.string(),
        metadata: MetadataSchema,
        chunk_count: z.number().int(),
        size: z.number().int(),
        updated_at: z.string(),
      }),
    ),
  }),
  annotations: { title: 'List documents', ...READ_ONLY },
  async run({ kb_id, limit, offset }, { client }) {
    const res = await client.listDocuments({ kb_id, limit, offset });
    return {
      total: res.total,
      offset,
      documents: res.documents.map((d) => ({
        doc_id: d.doc_id,
        title: d.title,
        source: d.source,
        metadata: d.metadata,
        chunk_count: d.chunk_count,
        size: d.size,
        updated_at: d.updated_at,
      })),
    };
  },
  count: (out) => out.documents.length,
});
