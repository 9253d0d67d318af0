import { z } from 'zod';
import { IsoDateSchema, KbIdSchema } from './common.js';
import { SyncSummarySchema } from './sources.js';

export const JobStateSchema = z.enum(['running', 'interrupted', 'paused', 'done', 'failed', 'cancelled']);
export type JobState = z.infer<typeof JobStateSchema>;

export const JobProgressSchema = z.object({
  files_total: z.number().int().nonnegative(),
  files_done: z.number().int().nonnegative(),
  files_failed: z.number().int().nonnegative(),
  /** Chunks written so far. */
  chunks: z.number().int().nonnegative(),
  bytes_total: z.number().int().nonnegative(),
  bytes_done: z.number().int().nonnegative(),
  elapsed_ms: z.number().nonnegative(),
  /** Estimated time left, from the bytes done so far; null until there is something to go by. */
  eta_ms: z.number().nonnegative().nullable(),
  /** The file being worked on. */
  current: z.string().nullable(),
  /** A scan or image being read by OCR (it may run beside `current`): its file, pages read so far, and to read. */
  current_ocr: z.object({ file: z.string(), done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).optional(),
  /** A large text file written section by section: its file, bytes read so far of its size, chunks written so far. */
  current_stream: z
    .object({
      file: z.string(),
      bytes: z.number().int().nonnegative(),
      total_bytes: z.number().int().nonnegative(),
      chunks: z.number().int().nonnegative(),
    })
    .optional(),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** An ingestion job: persisted as it runs, so that after a crash or quit the next start resumes it. */
export const JobSchema = z.object({
  job_id: z.string(),
  kind: z.enum(['sync', 'files']),
  kb_id: KbIdSchema,
  source_id: z.string().nullable(),
  state: JobStateSchema,
  created_at: IsoDateSchema,
  updated_at: IsoDateSchema,
  finished_at: IsoDateSchema.nullable(),
  /** How many times it was picked up again after an interruption. */
  resumed: z.number().int().nonnegative(),
  progress: JobProgressSchema,
  error: z.string().nullable(),
});
export type Job = z.infer<typeof JobSchema>;

export const ListJobsInputSchema = z.object({
  kb_id: KbIdSchema.optional(),
  /** Only jobs not finished (running, paused, interrupted). */
  active: z.boolean().default(false),
  limit: z.number().int().min(1).max(200).default(20),
});
export const ListJobsResultSchema = z.object({ jobs: z.array(JobSchema) });
export const JobRefSchema = z.object({ job_id: z.string().min(1).max(64) });

/** `resumeJobs`: what finishing the interrupted jobs did: each resumed source's sync, and how many file jobs ran on. */
export const ResumeJobsResultSchema = z.object({
  sources: z.record(z.string(), SyncSummarySchema),
  file_jobs: z.number().int().nonnegative(),
});
