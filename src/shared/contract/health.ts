import { z } from 'zod';
import { IsoDateSchema, KbIdSchema } from './common.js';

/**
 * What happened to a file, worst first: it failed (encrypted, corrupt, too_large, unsupported, error), was left
 * out (no_text_layer: a scan OCR found no text on; empty, duplicate), went in with a problem (decode_problem,
 * language_not_covered, ocr_low_confidence: OCR could barely read some pages), or went in fine (unchanged: already
 * there with the same content; ok).
 */
export const HEALTH_STATUSES = [
  'encrypted',
  'corrupt',
  'too_large',
  'unsupported',
  'error',
  'no_text_layer',
  'empty',
  'duplicate',
  'decode_problem',
  'language_not_covered',
  'ocr_low_confidence',
  'unchanged',
  'ok',
] as const;
export const HealthStatusSchema = z.enum(HEALTH_STATUSES);
export type HealthStatus = z.infer<typeof HealthStatusSchema>;

export const HealthEntrySchema = z.object({
  /** Path relative to the source folder, or the absolute path of a file added directly. */
  file: z.string(),
  source_id: z.string().nullable(),
  doc_id: z.string().nullable(),
  status: HealthStatusSchema,
  /** Whether the file's content is searchable in the KB now. */
  indexed: z.boolean(),
  message: z.string(),
  /** For `duplicate`: the document that holds the same content. */
  duplicate_of: z.string().optional(),
  /** Text files: the encoding detected, and how sure the detection was (0..1). */
  encoding: z.string().optional(),
  encoding_confidence: z.number().optional(),
  /** The main writing system of the text: latin, cyrillic, cjk, arabic... */
  script: z.string().optional(),
  /** Scans and images: how many pages were read by OCR, and its mean confidence over their characters (0..1). */
  ocr_pages: z.number().int().nonnegative().optional(),
  ocr_confidence: z.number().min(0).max(1).optional(),
  parser: z.string().optional(),
  chunks: z.number().int().nonnegative().optional(),
  bytes: z.number().int().nonnegative(),
  checked_at: IsoDateSchema,
});
export type HealthEntry = z.infer<typeof HealthEntrySchema>;

export const HealthReportInputSchema = z.object({
  kb_id: KbIdSchema,
  source_id: z.string().optional(),
  /** Only these statuses. */
  status: z.array(HealthStatusSchema).optional(),
  /** Only files with a problem (everything but ok and unchanged). */
  problems: z.boolean().default(false),
  limit: z.number().int().min(1).max(10_000).default(1000),
  offset: z.number().int().min(0).default(0),
});

export const HealthReportSchema = z.object({
  kb_id: KbIdSchema,
  embedding_model: z.string(),
  /** When the newest entry was checked; null when nothing was ingested through a source or `ragdesk add` yet. */
  updated_at: IsoDateSchema.nullable(),
  /** Files in the report before limit/offset (after the filters). */
  total: z.number().int().nonnegative(),
  /** Files per status, over the whole KB (before filters). */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  files: z.array(HealthEntrySchema),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;
