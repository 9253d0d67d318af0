import fs from 'node:fs/promises';
import type { ChunkingOverride } from '../../shared/contract/index.js';
import type { HealthStore } from '../health/health-store.js';
import type { CoreContext } from '../services/context.js';
import type { FileOutcome, FileTarget } from '../services/file-ingest.js';
import type { JobManager } from './job-manager.js';
import type { ItemLine, JobHandle, JobItem } from './journal.js';

/** What file jobs need from the engine. */
export interface JobRuntime {
  ctx: CoreContext;
  jobs: JobManager;
  health: HealthStore;
}

export interface FilesJobOptions {
  overwrite?: boolean;
  chunking?: ChunkingOverride;
  /** Called after each batch of files, with the job's progress. */
  onProgress?: (job: JobHandle) => void;
  onFile?: (outcome: FileOutcome, done: number, total: number) => void;
  /** A large file being written section by section: its bytes read so far, of how many. */
  onStream?: (file: string, bytes: number, totalBytes: number) => void;
  /** Documents per write (default 256). */
  groupSize?: number;
}

/**
 * A settled item as the outcome `ragdesk add` reports. Kept for every file until the add ends, so each is one
 * literal with `file` and `doc_id` first: `{ ...base, ok, … }` gave every outcome a hidden class of its own on
 * Node 20 (see settle-result.ts).
 */
export function outcomeOf(item: JobItem, line: ItemLine): FileOutcome {
  const { file, doc_id } = item;
  const r = line.record;
  switch (line.outcome) {
    case 'added':
    case 'updated':
      return {
        file,
        doc_id,
        ok: true,
        status: line.outcome,
        chunks: line.chunks,
        ...(r && r.status !== 'ok' ? { warnings: [r.message] } : {}),
      };
    case 'unchanged':
      return { file, doc_id, ok: true, status: 'skipped', chunks: 0, reason: r?.message ?? 'unchanged' };
    case 'skipped':
      if (r?.status === 'duplicate') return { file, doc_id, ok: true, status: 'skipped', chunks: 0, reason: r.message };
      return {
        file,
        doc_id,
        ok: false,
        error: {
          code: 'invalid_parameter',
          message: `${item.file}: ${r?.message ?? 'nothing to index'}`,
          details: { file: item.file, reason: r?.status ?? 'empty' },
        },
      };
    default:
      return { file, doc_id, ok: false, error: line.error ?? { code: 'internal', message: r?.message ?? 'failed' } };
  }
}

async function run(rt: JobRuntime, job: JobHandle, options: FilesJobOptions): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = [];
  const total = job.header.items.length;
  await rt.jobs.run(rt.ctx, job, {
    ledger: rt.health.ledger(job.header.kb_id, null),
    mirror: false,
    groupSize: options.groupSize ?? 256,
    onProgress: (j) => {
      options.onProgress?.(j);
      if (j.stream) options.onStream?.(j.stream.file, j.stream.bytes, j.stream.total_bytes);
    },
    onSettle: (lines, items) => {
      const before = job.done.size - lines.length;
      lines.forEach((line, k) => {
        const outcome = outcomeOf(items[line.i]!, line);
        outcomes.push(outcome);
        options.onFile?.(outcome, before + k + 1, total);
      });
    },
  });
  return outcomes;
}

/**
 * Ingest files into a KB as a persisted job (what `ragdesk add` runs): if the process dies, the next
 * long-running start (serve, desktop) resumes it; each file's outcome lands in the KB's health report.
 */
export async function ingestFilesJob(
  rt: JobRuntime,
  kbId: string,
  targets: FileTarget[],
  options: FilesJobOptions = {},
): Promise<{ job_id: string; outcomes: FileOutcome[] }> {
  rt.ctx.store.registry.get(kbId);
  const items: JobItem[] = [];
  for (const t of targets) {
    const size = (await fs.stat(t.file).catch(() => undefined))?.size ?? 0;
    items.push({ key: t.file, file: t.file, doc_id: t.doc_id, source: t.file, action: 'index', bytes: size });
  }
  const job = rt.jobs.create({
    kind: 'files',
    kb_id: kbId,
    source_id: null,
    options: { overwrite: options.overwrite ?? false, force: false, ...(options.chunking ? { chunking: options.chunking } : {}) },
    items,
  });
  // Outcomes in the order the files were given.
  const byFile = new Map((await run(rt, job, options)).map((o) => [o.file, o]));
  return { job_id: job.id, outcomes: targets.map((t) => byFile.get(t.file)).filter((o): o is FileOutcome => Boolean(o)) };
}

/** Resume file jobs interrupted by a crash or quit (in the background of a long-running process). */
export async function resumeFileJobs(rt: JobRuntime): Promise<void> {
  for (const job of rt.jobs.unfinished({ kind: 'files' })) {
    if (!rt.ctx.store.registry.find(job.header.kb_id)) continue;
    await run(rt, job, {}).catch((err: unknown) => process.stderr.write(`ragdesk: resuming job ${job.id} failed: ${String(err)}\n`));
  }
}
