import { z } from 'zod';
import { KbStatsSchema } from './kb.js';

export const ParserInfoSchema = z.object({
  name: z.string(),
  extensions: z.array(z.string()),
  mime_types: z.array(z.string()),
  description: z.string(),
});
export type ParserInfo = z.infer<typeof ParserInfoSchema>;

export const ModelStateSchema = z.enum(['missing', 'downloading', 'loading', 'loaded', 'error']);
export type ModelState = z.infer<typeof ModelStateSchema>;

export const ModelStatusSchema = z.object({
  /** Preset name or folder, as configured. */
  model: z.string(),
  /** The resolved model id or folder. */
  resolved: z.string(),
  kind: z.enum(['embedding', 'rerank']),
  state: ModelStateSchema,
  /** 0..1 while downloading. */
  progress: z.number().min(0).max(1).optional(),
  dim: z.number().int().positive().optional(),
  error: z.string().optional(),
  /** When its files were imported from a folder (importModel): it loads from disk and is never downloaded. */
  imported_at: z.string().optional(),
});
export type ModelStatus = z.infer<typeof ModelStatusSchema>;

export const ModelPresetSchema = z.object({
  name: z.string(),
  model_id: z.string(),
  kind: z.enum(['embedding', 'rerank']),
  dim: z.number().int().positive().optional(),
  languages: z.array(z.string()),
  description: z.string(),
});
export type ModelPreset = z.infer<typeof ModelPresetSchema>;

export const LoadModelInputSchema = z.object({
  model: z.string().min(1).max(1024),
  kind: z.enum(['embedding', 'rerank']).default('embedding'),
  allow_download: z.boolean().default(true),
});

export const StatsResultSchema = z.object({ kbs: z.array(KbStatsSchema) });

export const DiagnosticSchema = z.object({
  /** The owner sees where data lives; API keys get null (a key learns nothing about this machine's paths). */
  data_dir: z.string().nullable(),
  store_path: z.string().nullable(),
  versions: z.record(z.string(), z.string()),
  models: z.array(ModelStatusSchema),
  kbs: z.array(KbStatsSchema),
  warnings: z.array(z.string()),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** Pause/resume indexing: while paused every parse/embed/write waits (calls and background jobs); reads go on. */
export const IndexingStateSchema = z.object({
  paused: z.boolean(),
  /** Ingest calls in flight (held ones included). */
  active: z.number().int().nonnegative(),
});
export type IndexingState = z.infer<typeof IndexingStateSchema>;
export const SetIndexingPausedInputSchema = z.object({ paused: z.boolean() }).strict();

/** The file on this machine a document came from (the desktop app opens it with the OS). */
export const DocumentFileSchema = z.object({ path: z.string() });
