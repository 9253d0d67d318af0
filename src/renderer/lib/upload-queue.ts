import type { AddResult } from '../../shared/contract/index.js';
import { describeError, type DescribedError } from '../api/errors.js';

/**
 * Where one file is: parse → chunk (the `preview` op) → embed + index (the `uploadFile` op, one call) → done,
 * or skipped / error / cancelled. `index` is kept for transports that report it separately.
 */
export type UploadStage = 'queued' | 'parse' | 'chunk' | 'embed' | 'index' | 'done' | 'skipped' | 'error' | 'cancelled';

export const PIPELINE: readonly UploadStage[] = ['parse', 'chunk', 'embed', 'index', 'done'];

export interface UploadJob {
  id: string;
  /** Path inside the dropped folder, or the file name. */
  path: string;
  size: number;
  stage: UploadStage;
  chunks?: number;
  /** A scan or image being read by OCR during its upload: pages read, of how many. */
  ocr?: { done: number; total: number };
  error?: DescribedError;
  result?: AddResult;
}

export interface UploadDeps {
  /** Parse and chunk the file (the `preview` op), answering the chunk count. May reuse a cached preview. */
  prepare(job: UploadJob): Promise<{ chunks: number }>;
  /** Store it (the `uploadFile` op): embeds, writes and indexes. */
  upload(job: UploadJob): Promise<AddResult>;
  onUpdate(id: string, patch: Partial<UploadJob>): void;
  signal?: AbortSignal;
}

export interface UploadTally {
  done: number;
  skipped: number;
  failed: number;
  cancelled: number;
}

/**
 * Ingest files one at a time. A failing file records its `{code, message}` and the rest keep going;
 * a cancel lets the file in flight finish and marks the others cancelled.
 */
export async function runUploads(jobs: readonly UploadJob[], deps: UploadDeps): Promise<UploadTally> {
  const tally: UploadTally = { done: 0, skipped: 0, failed: 0, cancelled: 0 };
  for (const job of jobs) {
    if (job.stage !== 'queued') continue;
    if (deps.signal?.aborted) {
      deps.onUpdate(job.id, { stage: 'cancelled' });
      tally.cancelled++;
      continue;
    }
    try {
      deps.onUpdate(job.id, { stage: 'parse' });
      const { chunks } = await deps.prepare(job);
      deps.onUpdate(job.id, { stage: 'chunk', chunks });
      deps.onUpdate(job.id, { stage: 'embed' });
      const result = await deps.upload(job);
      if (result.status === 'skipped') {
        deps.onUpdate(job.id, { stage: 'skipped', result, chunks: result.chunk_count });
        tally.skipped++;
      } else {
        deps.onUpdate(job.id, { stage: 'done', result, chunks: result.chunk_count });
        tally.done++;
      }
    } catch (err) {
      deps.onUpdate(job.id, { stage: 'error', error: describeError(err) });
      tally.failed++;
    }
  }
  return tally;
}

/** 0..100 for a progress bar. */
export function stagePercent(stage: UploadStage): number {
  switch (stage) {
    case 'queued':
      return 0;
    case 'parse':
      return 15;
    case 'chunk':
      return 35;
    case 'embed':
      return 60;
    case 'index':
      return 85;
    default:
      return 100;
  }
}
