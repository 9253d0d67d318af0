import { z } from 'zod';
import { ChunkingConfigSchema, ChunkingOverrideSchema, IsoDateSchema, KbIdSchema } from './common.js';
import { ModelChangeSchema } from './model-change.js';

export const MetadataFieldTypeSchema = z.enum(['string', 'number', 'boolean', 'string_list', 'number_list']);
export type MetadataFieldType = z.infer<typeof MetadataFieldTypeSchema>;

/**
 * The `embedding_model` of a full-text only KB: no embedding model is asked for, loaded or downloaded; chunks are
 * stored without vectors, hybrid search answers from full-text, vector search is refused. Changing the KB's model
 * later to a real one embeds every chunk (a model change).
 */
export const FULL_TEXT_ONLY = 'none';
export const isFullTextOnly = (embeddingModel: string): boolean => embeddingModel === FULL_TEXT_ONLY;

export const KbSchema = z.object({
  kb_id: KbIdSchema,
  name: z.string(),
  description: z.string(),
  department: z.string(),
  enabled: z.boolean(),
  /** Preset name (e.g. `multilingual`), an absolute folder holding a transformers.js model, or `none` (full-text only). */
  embedding_model: z.string(),
  /** Vector dimension, fixed when the first vectors are written; null until then. */
  embedding_dim: z.number().int().positive().nullable(),
  /** The physical chunk table (set when a model change swaps in a re-embedded table); default `chunks__<kb_id>`. */
  chunk_table: z.string().optional(),
  languages: z.array(z.string()),
  chunking: ChunkingConfigSchema,
  /** Metadata fields seen so far and their types: the filterable fields besides the built-in ones. */
  metadata_fields: z.record(z.string(), MetadataFieldTypeSchema),
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
});
export type Kb = z.infer<typeof KbSchema>;

export const KbSummarySchema = KbSchema.extend({
  document_count: z.number().int().nonnegative(),
  chunk_count: z.number().int().nonnegative(),
});
export type KbSummary = z.infer<typeof KbSummarySchema>;

export const CreateKbInputSchema = z.object({
  kb_id: KbIdSchema,
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(4000).default(''),
  department: z.string().max(200).default(''),
  enabled: z.boolean().default(true),
  embedding_model: z.string().min(1).max(1024).optional(),
  languages: z.array(z.string().min(2).max(16)).max(32).default([]),
  chunking: ChunkingOverrideSchema.optional(),
});
export type CreateKbInput = z.input<typeof CreateKbInputSchema>;

export const UpdateKbInputSchema = z.object({
  kb_id: KbIdSchema,
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(4000).optional(),
  department: z.string().max(200).optional(),
  enabled: z.boolean().optional(),
  languages: z.array(z.string().min(2).max(16)).max(32).optional(),
  chunking: ChunkingOverrideSchema.optional(),
});
export type UpdateKbInput = z.input<typeof UpdateKbInputSchema>;

export const KbRefSchema = z.object({ kb_id: KbIdSchema });

export const KbStatsSchema = z.object({
  kb_id: KbIdSchema,
  name: z.string(),
  enabled: z.boolean(),
  documents: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  size_bytes: z.number().int().nonnegative(),
  embedding_model: z.string(),
  embedding_dim: z.number().int().positive().nullable(),
  vector_index: z.enum(['none', 'building', 'ready']),
  fts_index: z.enum(['none', 'ready', 'stale']),
  last_update: IsoDateSchema.nullable(),
  /** A model change in progress (or interrupted / failed); null when there is none. */
  migration: ModelChangeSchema.nullable(),
});
export type KbStats = z.infer<typeof KbStatsSchema>;
