import { z } from 'zod';

/** A KB id names LanceDB tables, so it is restricted to a safe identifier. */
export const KbIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'kb_id must match [a-z0-9][a-z0-9_-]{0,63}');

export const DocIdSchema = z.string().min(1).max(512);

export const CHUNK_STRATEGIES = ['whole', 'sentence', 'token', 'markdown', 'semantic'] as const;
export const ChunkStrategySchema = z.enum(CHUNK_STRATEGIES);
export type ChunkStrategy = z.infer<typeof ChunkStrategySchema>;

/** Chunk size and overlap are counted in the embedding model's tokens. */
export const ChunkingConfigSchema = z
  .object({
    strategy: ChunkStrategySchema,
    chunk_size: z.number().int().min(16).max(8192),
    chunk_overlap: z.number().int().min(0).max(4096),
  })
  .refine((c) => c.chunk_overlap < c.chunk_size, { message: 'chunk_overlap must be smaller than chunk_size', path: ['chunk_overlap'] });
export type ChunkingConfig = z.infer<typeof ChunkingConfigSchema>;

export const ChunkingOverrideSchema = z.object({
  strategy: ChunkStrategySchema.optional(),
  chunk_size: z.number().int().min(16).max(8192).optional(),
  chunk_overlap: z.number().int().min(0).max(4096).optional(),
});
export type ChunkingOverride = z.infer<typeof ChunkingOverrideSchema>;

export const DEFAULT_CHUNKING: ChunkingConfig = { strategy: 'markdown', chunk_size: 256, chunk_overlap: 32 };

/** Metadata values that can be stored and filtered: scalars and lists of scalars. */
export const MetadataValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]);
export const MetadataSchema = z.record(z.string(), MetadataValueSchema);
export type Metadata = z.infer<typeof MetadataSchema>;

/** Metadata keys one document may carry (its own and those its parser found, e.g. Markdown front matter). */
export const MAX_METADATA_KEYS = 64;
/** A document's metadata as JSON, at most (it is copied onto every chunk of the document). */
export const MAX_METADATA_JSON_CHARS = 32 * 1024;
/** Filterable metadata fields one KB keeps (each is a column); keys beyond stay in the JSON, not filterable. */
export const MAX_FILTERABLE_FIELDS = 128;

/** Metadata as callers give it: capped in keys and size before any work is done. */
export const MetadataInputSchema = MetadataSchema.superRefine((m, ctx) => {
  const keys = Object.keys(m).length;
  if (keys > MAX_METADATA_KEYS) ctx.addIssue({ code: 'custom', message: `metadata has ${keys} keys; the limit is ${MAX_METADATA_KEYS}` });
  else if (JSON.stringify(m).length > MAX_METADATA_JSON_CHARS)
    ctx.addIssue({ code: 'custom', message: `metadata is over ${MAX_METADATA_JSON_CHARS} characters as JSON` });
});

/**
 * Where a chunk sits in its source: PDF page, heading path (md/html/docx), line and character ranges. A chunk of a
 * PDF stays on one page (chunking respects page boundaries); only a `whole` chunk can run over several, and then
 * `page_end` names the last one.
 */
export const LocationSchema = z.object({
  page: z.number().int().positive().optional(),
  /** The last page a chunk runs over, when it is later than `page`. */
  page_end: z.number().int().positive().optional(),
  heading_path: z.array(z.string()).optional(),
  line_start: z.number().int().positive().optional(),
  line_end: z.number().int().positive().optional(),
  char_start: z.number().int().nonnegative().optional(),
  char_end: z.number().int().nonnegative().optional(),
});
export type Location = z.infer<typeof LocationSchema>;

export const PageSchema = z.object({
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
});

export const IsoDateSchema = z.string();
