import { z } from 'zod';
import {
  ChunkingConfigSchema,
  ChunkingOverrideSchema,
  DocIdSchema,
  IsoDateSchema,
  KbIdSchema,
  LocationSchema,
  MetadataInputSchema,
  MetadataSchema,
} from './common.js';
import { ProgressTokenSchema } from './files.js';

export const MAX_BATCH = 500;

export const DocumentSummarySchema = z.object({
  kb_id: KbIdSchema,
  doc_id: DocIdSchema,
  title: z.string(),
  source: z.string(),
  metadata: MetadataSchema,
  parser: z.string(),
  chunking: ChunkingConfigSchema,
  chunk_count: z.number().int().nonnegative(),
  /** Characters of extracted text. */
  size: z.number().int().nonnegative(),
  content_hash: z.string(),
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
});
export type DocumentSummary = z.infer<typeof DocumentSummarySchema>;

export const DocumentSchema = DocumentSummarySchema.extend({ content: z.string() });
export type DocumentFull = z.infer<typeof DocumentSchema>;

/** One document given as text. Without `chunking`, the text is stored as a single chunk. */
export const DocumentItemSchema = z.object({
  doc_id: DocIdSchema.optional(),
  title: z.string().max(1000).optional(),
  content: z.string(),
  source: z.string().max(4096).optional(),
  metadata: MetadataInputSchema.optional(),
  /** Parser for the content: `text` (default) or `markdown`/`html` to keep headings. */
  format: z.enum(['text', 'markdown', 'html']).optional(),
  chunking: ChunkingOverrideSchema.optional(),
});
export type DocumentItem = z.input<typeof DocumentItemSchema>;

export const AddDocumentInputSchema = DocumentItemSchema.extend({
  kb_id: KbIdSchema,
  overwrite: z.boolean().default(false),
});
export type AddDocumentInput = z.input<typeof AddDocumentInputSchema>;

/** A file on this machine (CLI, desktop app). */
export const AddFileInputSchema = z.object({
  kb_id: KbIdSchema,
  path: z.string().min(1).max(4096),
  doc_id: DocIdSchema.optional(),
  title: z.string().max(1000).optional(),
  source: z.string().max(4096).optional(),
  metadata: MetadataInputSchema.optional(),
  overwrite: z.boolean().default(false),
  chunking: ChunkingOverrideSchema.optional(),
});
export type AddFileInput = z.input<typeof AddFileInputSchema>;

/** A file sent as bytes (web console upload, drag and drop). */
export const UploadFileInputSchema = z.object({
  kb_id: KbIdSchema,
  filename: z.string().min(1).max(1024),
  data_base64: z.string(),
  doc_id: DocIdSchema.optional(),
  title: z.string().max(1000).optional(),
  metadata: MetadataInputSchema.optional(),
  overwrite: z.boolean().default(false),
  chunking: ChunkingOverrideSchema.optional(),
  /** Follow a long upload with `getProgress`: a scan reports its OCR pages (stage `ocr`). */
  progress_token: ProgressTokenSchema.optional(),
});
export type UploadFileInput = z.input<typeof UploadFileInputSchema>;

export const AddResultSchema = z.object({
  kb_id: KbIdSchema,
  doc_id: DocIdSchema,
  status: z.enum(['added', 'updated', 'skipped']),
  chunk_count: z.number().int().nonnegative(),
  /** Why a document was skipped: identical content is already stored (under `duplicate_of`). */
  skipped_reason: z.string().optional(),
  duplicate_of: z.string().optional(),
  parser: z.string(),
  embedded: z.boolean(),
  warnings: z.array(z.string()).optional(),
});
export type AddResult = z.infer<typeof AddResultSchema>;

export const AddBatchInputSchema = z.object({
  kb_id: KbIdSchema,
  documents: z.array(z.unknown()).min(1).max(MAX_BATCH),
  overwrite: z.boolean().default(false),
});
export type AddBatchInput = z.input<typeof AddBatchInputSchema>;

export const BatchItemResultSchema = z.object({
  index: z.number().int().nonnegative(),
  doc_id: z.string().nullable(),
  ok: z.boolean(),
  result: AddResultSchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export const AddBatchResultSchema = z.object({
  results: z.array(BatchItemResultSchema),
  added: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});
export type AddBatchResult = z.infer<typeof AddBatchResultSchema>;

export const DocRefSchema = z.object({ kb_id: KbIdSchema, doc_id: DocIdSchema });

export const ListDocumentsInputSchema = z.object({
  kb_id: KbIdSchema,
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
  title_contains: z.string().max(200).optional(),
});
export const ListDocumentsResultSchema = z.object({
  total: z.number().int().nonnegative(),
  documents: z.array(DocumentSummarySchema),
});
export type ListDocumentsResult = z.infer<typeof ListDocumentsResultSchema>;

export const DeleteResultSchema = z.object({
  kb_id: KbIdSchema,
  doc_id: DocIdSchema,
  deleted: z.boolean(),
  chunks_deleted: z.number().int(),
});

export const ChunkSchema = z.object({
  chunk_index: z.number().int().nonnegative(),
  text: z.string(),
  characters: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  location: LocationSchema,
});
export type Chunk = z.infer<typeof ChunkSchema>;

export const ListChunksInputSchema = z.object({
  kb_id: KbIdSchema,
  doc_id: DocIdSchema,
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(20),
});
export const ListChunksResultSchema = z.object({ total: z.number().int(), chunks: z.array(ChunkSchema) });

/** Preview how a text or file would be chunked; writes nothing. */
export const PreviewInputSchema = z
  .object({
    kb_id: KbIdSchema.optional(),
    path: z.string().min(1).max(4096).optional(),
    filename: z.string().min(1).max(1024).optional(),
    data_base64: z.string().optional(),
    content: z.string().optional(),
    format: z.enum(['text', 'markdown', 'html']).optional(),
    chunking: ChunkingOverrideSchema.optional(),
  })
  .refine((p) => p.path !== undefined || p.content !== undefined || p.data_base64 !== undefined, {
    message: 'give path, content or data_base64',
  });
export const PreviewResultSchema = z.object({
  parser: z.string(),
  chunking: ChunkingConfigSchema,
  characters: z.number().int(),
  chunks: z.array(ChunkSchema),
  warnings: z.array(z.string()),
});
export type PreviewResult = z.infer<typeof PreviewResultSchema>;
