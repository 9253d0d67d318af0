import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-kit.js';

export const kbStats = defineTool({
  name: 'kb_stats',
  title: 'Knowledge base statistics',
  description:
    'Per knowledge base you can use: documents, chunks, size on disk (bytes), embedding model and its state, index state and the time of ' +
    'the last update.',
  input: z.strictObject({}),
  output: z.object({
    kbs: z.array(
      z.object({
        kb_id: z.string(),
        name: z.string(),
        enabled: z.boolean(),
        documents: z.number().int(),
        chunks: z.number().int(),
        size_bytes: z.number().int(),
        embedding_model: z.string(),
        model_state: z.string(),
        vector_index: z.string(),
        fts_index: z.string(),
        last_update: z.string().nullable(),
      }),
    ),
  }),
  annotations: { title: 'Knowledge base statistics', ...READ_ONLY },
  async run(_args, { client, core }) {
    const { kbs } = await client.stats({});
    const models = core.ctx.models.status();
    return {
      kbs: kbs.map((k) => ({
        kb_id: k.kb_id, name: k.name, enabled: k.enabled, documents: k.documents, chunks: k.chunks, size_bytes: k.size_bytes,
        embedding_model: k.embedding_model,
        model_state: models.find((m) => m.kind === 'embedding' && m.model === k.embedding_model)?.state ?? 'not loaded',
        vector_index: k.vector_index, fts_index: k.fts_index, last_update: k.last_update,
      })),
    };
  },
  count: (out) => out.kbs.length,
});
