import { z } from 'zod';
import { IsoDateSchema, KbIdSchema } from './common.js';

/** A source id prefixes the doc_ids of the documents it brings (`<source_id>/<path in the folder>`). */
export const SourceIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'source_id must match [a-z0-9][a-z0-9_-]{0,47}');

const GlobListSchema = z.array(z.string().min(1).max(512)).max(64);

/** What the last sync did. */
export const SyncSummarySchema = z.object({
  started_at: IsoDateSchema,
  finished_at: IsoDateSchema,
  duration_ms: z.number().nonnegative(),
  /** Files seen in the folder (after globs). */
  files: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  deleted: z.number().int().nonnegative(),
  /** Files whose size and mtime (or content) had not changed: nothing was read, parsed or embedded. */
  unchanged: z.number().int().nonnegative(),
  /** Files looked at but not indexed: duplicates, empty files, scanned PDFs without text. */
  skipped: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type SyncSummary = z.infer<typeof SyncSummarySchema>;

export const SourceCountsSchema = z.object({
  /** Files of the folder that the source tracks (after globs and dot-files). */
  files: z.number().int().nonnegative(),
  /** Files whose content is in the KB. */
  indexed: z.number().int().nonnegative(),
  /** Files not indexed on purpose: duplicates, empty files, scanned PDFs without a text layer. */
  skipped: z.number().int().nonnegative(),
  /** Files that could not be read: see the health report for why. */
  failed: z.number().int().nonnegative(),
});
export type SourceCounts = z.infer<typeof SourceCountsSchema>;

export const SourceStateSchema = z.enum(['idle', 'syncing', 'paused', 'error']);

export const SourceSchema = z.object({
  source_id: SourceIdSchema,
  kb_id: KbIdSchema,
  /** Absolute folder path. */
  path: z.string(),
  /** Globs (relative to the folder) a file must match to be taken; empty: every file. */
  include: z.array(z.string()),
  /** Globs of files and folders to leave out (dot-files are always left out). */
  exclude: z.array(z.string()),
  recursive: z.boolean(),
  /**
   * Follow symbolic links to files and folders wherever they point (default false: links are left out, and every
   * indexed file is really inside the folder). Older records without it do not follow links.
   */
  follow_links: z.boolean().default(false),
  /** A paused source is neither watched nor rescanned at start; a running sync stops after its current batch. */
  paused: z.boolean(),
  created_at: IsoDateSchema,
  last_sync_at: IsoDateSchema.nullable(),
  last_sync: SyncSummarySchema.nullable(),
  last_error: z.string().nullable(),
  counts: SourceCountsSchema,
  state: SourceStateSchema,
  /** Whether changes are picked up as they happen (only in a long-running ragdesk: serve, the desktop app). */
  watching: z.boolean(),
  /** The job syncing it now, if any (see listJobs). */
  job_id: z.string().nullable(),
});
export type Source = z.infer<typeof SourceSchema>;

export const AddSourceInputSchema = z.object({
  kb_id: KbIdSchema,
  path: z.string().min(1).max(4096),
  include: GlobListSchema.default([]),
  exclude: GlobListSchema.default([]),
  recursive: z.boolean().default(true),
  /** Follow symbolic links out of the folder (default false: links are left out). Only for folders you trust. */
  follow_links: z.boolean().default(false),
  /** Default: derived from the folder name. */
  source_id: SourceIdSchema.optional(),
  /** Run the first sync before answering (default true); false starts it in the background. */
  sync: z.boolean().default(true),
});
export type AddSourceInput = z.input<typeof AddSourceInputSchema>;

export const ListSourcesInputSchema = z.object({ kb_id: KbIdSchema.optional() });
export const SourceRefSchema = z.object({ source_id: SourceIdSchema });

export const RemoveSourceInputSchema = z.object({
  source_id: SourceIdSchema,
  /** Keep the documents the source brought (they stop being synced). Default: delete them. */
  keep_documents: z.boolean().default(false),
});
export const RemoveSourceResultSchema = z.object({
  source_id: SourceIdSchema,
  removed: z.boolean(),
  documents_deleted: z.number().int().nonnegative(),
});

export const SyncSourceInputSchema = z.object({
  source_id: SourceIdSchema,
  /** Re-read every file and compare contents, ignoring the size+mtime shortcut (still no re-embedding of unchanged text). */
  force: z.boolean().default(false),
  /** Wait for the sync to finish (default true); false starts it and answers at once (poll listJobs). */
  wait: z.boolean().default(true),
});
export const SyncSourceResultSchema = z.object({
  source: SourceSchema,
  /** Summary of this sync when waited for; null when started in the background. */
  summary: SyncSummarySchema.nullable(),
});
export type SyncSourceResult = z.infer<typeof SyncSourceResultSchema>;
