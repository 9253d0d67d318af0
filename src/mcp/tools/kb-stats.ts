import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-kit.js';

export const kbStats = defineTool({
  name: 'kb_stats',
  title: 'Knowledge base statistics',
  description:
    'Per knowledge base you can use: documents, chunks, size on disk (bytes), embedding model and its state, index state and the time of ' +
    'the last update, an embedding-model change in progress (with progress), and its folder sources (watched folders kept in sync) with their state, last sync and file counts.',
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
        model_change: z
          .object({
            to_model: z.string(),
            state: z.string().describe('running | indexing | interrupted | failed; search uses the current model until it is done'),
            chunks_done: z.number().int(),
            chunks_total: z.number().int(),
            eta_ms: z.number().nullable(),
            error: z.string().nullable(),
          })
          .nullable()
          .describe('an embedding-model change in progress, or null'),
        sources: z.array(
          z.object({
            source_id: z.string(),
            path: z.string(),
            state: z.string().describe('idle | syncing | paused | error'),
            watching: z.boolean(),
            last_sync_at: z.string().nullable(),
            files: z.number().int(),
            indexed: z.number().int(),
            skipped: z.number().int(),
            failed: z.number().int(),
            last_error: z.string().nullable(),
          }),
        ),
      }),
    ),
  }),
  annotations: { title: 'Knowledge base statistics', ...READ_ONLY },
  async run(_args, { client }) {
    const [{ kbs }, models, sources] = await Promise.all([client.stats({}), client.modelStatus({}), client.listSources({})]);
    return {
      kbs: kbs.map((k) => ({
        kb_id: k.kb_id,
        name: k.name,
        enabled: k.enabled,
        documents: k.documents,
        chunks: k.chunks,
        size_bytes: k.size_bytes,
        embedding_model: k.embedding_model,
        model_state: models.find((m) => m.kind === 'embedding' && m.model === k.embedding_model)?.state ?? 'not loaded',
        vector_index: k.vector_index,
        fts_index: k.fts_index,
        last_update: k.last_update,
        model_change: k.migration
          ? {
              to_model: k.migration.to_model,
              state: k.migration.state,
              chunks_done: k.migration.chunks_done,
              chunks_total: k.migration.chunks_total,
              eta_ms: k.migration.eta_ms,
              error: k.migration.error,
            }
          : null,
        sources: sources
          .filter((s) => s.kb_id === k.kb_id)
          .map((s) => ({
            source_id: s.source_id,
            path: s.path,
            state: s.state,
            watching: s.watching,
            last_sync_at: s.last_sync_at,
            ...s.counts,
            last_error: s.last_error,
          })),
      })),
    };
  },
  count: (out) => out.kbs.length,
});
