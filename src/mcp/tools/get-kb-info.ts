import { z } from 'zod';
import { BUILTIN_FILTER_FIELDS, ChunkingConfigSchema, MetadataFieldTypeSchema } from '../../shared/contract/index.js';
import { defineTool, KbIdArg, READ_ONLY } from '../tool-kit.js';
import { KbBrief } from './list-accessible-kbs.js';

export const getKbInfo = defineTool({
  name: 'get_kb_info',
  title: 'Knowledge base details',
  description:
    'Details of one knowledge base: name, description, document and chunk counts, embedding model, reranker, languages, default ' +
    'chunking, and the metadata fields you can filter on (with their types) in search_kb filter_expr.',
  input: z.strictObject({ kb_id: KbIdArg }),
  output: KbBrief.extend({
    chunk_count: z.number().int(),
    embedding_model: z.string(),
    embedding_dim: z.number().int().nullable(),
    embedding_state: z.string(),
    reranker: z.string(),
    reranker_state: z.string(),
    languages: z.array(z.string()),
    chunking: ChunkingConfigSchema,
    filterable_fields: z.record(z.string(), z.union([MetadataFieldTypeSchema, z.literal('builtin')])),
    created_at: z.string(),
    updated_at: z.string(),
  }),
  annotations: { title: 'Knowledge base details', ...READ_ONLY },
  async run({ kb_id }, { client }) {
    const [kb, models] = await Promise.all([client.getKb({ kb_id }), client.modelStatus({})]);
    const emb = models.find((m) => m.kind === 'embedding' && m.model === kb.embedding_model);
    const rr = models.find((m) => m.kind === 'rerank');
    const builtin = Object.fromEntries(Object.keys(BUILTIN_FILTER_FIELDS).map((f) => [f, 'builtin' as const]));
    return {
      kb_id: kb.kb_id,
      name: kb.name,
      description: kb.description,
      department: kb.department,
      enabled: kb.enabled,
      document_count: kb.document_count,
      chunk_count: kb.chunk_count,
      embedding_model: kb.embedding_model,
      embedding_dim: kb.embedding_dim,
      embedding_state: emb?.state ?? 'not loaded',
      reranker: rr?.model ?? 'default cross-encoder',
      reranker_state: rr?.state ?? 'not loaded',
      languages: kb.languages,
      chunking: kb.chunking,
      filterable_fields: { ...builtin, ...kb.metadata_fields },
      created_at: kb.created_at,
      updated_at: kb.updated_at,
    };
  },
});
