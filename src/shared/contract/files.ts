import { z } from 'zod';
import { ChunkingOverrideSchema, KbIdSchema } from './common.js';

/** A client-chosen token to follow a long operation's progress with `getProgress` while it runs. */
export const ProgressTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'progress_token must be 8-64 letters, digits, _ or -');

/**
 * Files, folders (recursively, dot-files left out) or glob patterns on this machine, ingested into a KB as one
 * persisted job (resumed after a crash). Paths are absolute: the process that owns the data dir reads them.
 */
export const AddFilesInputSchema = z.object({
  kb_id: KbIdSchema,
  paths: z.array(z.string().min(1).max(4096)).min(1).max(10_000),
  /** Globs of files to leave out (repeatable on the command line). */
  exclude: z.array(z.string().min(1).max(512)).max(64).default([]),
  overwrite: z.boolean().default(false),
  chunking: ChunkingOverrideSchema.optional(),
  progress_token: ProgressTokenSchema.optional(),
});
export type AddFilesInput = z.input<typeof AddFilesInputSchema>;

/** What happened to one file: added, updated or skipped (with why), or failed with a stable error. */
export const FileOutcomeSchema = z.object({
  file: z.string(),
  doc_id: z.string(),
  ok: z.boolean(),
  status: z.enum(['added', 'updated', 'skipped']).optional(),
  chunks: z.number().int().nonnegative().optional(),
  reason: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type FileOutcomeDto = z.infer<typeof FileOutcomeSchema>;

export const AddFilesResultSchema = z.object({
  kb_id: KbIdSchema,
  job_id: z.string(),
  files: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** One outcome per file, in the order the files were found. */
  results: z.array(FileOutcomeSchema),
});
export type AddFilesResult = z.infer<typeof AddFilesResultSchema>;

export const ProgressRefSchema = z.object({ token: ProgressTokenSchema });

/** How far a long operation (called with `progress_token`) has come; null when none runs under that token. */
export const ProgressSchema = z
  .object({
    /** What it is doing, e.g. `files`, `index`, `copy:<model>`, a search mode. */
    stage: z.string(),
    done: z.number().nonnegative(),
    total: z.number().nonnegative(),
    /** The item being worked on (a file name), when there is one. */
    detail: z.string().nullable(),
    finished: z.boolean(),
  })
  .nullable();
export type Progress = z.infer<typeof ProgressSchema>;
