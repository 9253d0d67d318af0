import type { SyncSummary } from '../../shared/contract/index.js';
import type { SourceManager } from './source-manager.js';
import { resumeFileJobs, type JobRuntime } from '../jobs/files-job.js';

/**
 * `resumeJobs`: finish every interrupted ingestion job now: folder syncs (each source's sync finishes its
 * interrupted job first) and plain file jobs. A long-running owner does this at start on its own; `ragdesk jobs
 * resume` asks for it at once. Progress shows in `listJobs` while it runs.
 */
export async function resumeJobs(
  rt: JobRuntime,
  sources: SourceManager,
): Promise<{ sources: Record<string, SyncSummary>; file_jobs: number }> {
  const known = new Set(sources.list().map((s) => s.source_id));
  const ids = [...new Set(rt.jobs.unfinished({ kind: 'sync' }).map((j) => j.header.source_id))].filter(
    (id): id is string => id !== null && known.has(id),
  );
  const out: Record<string, SyncSummary> = {};
  for (const id of ids) out[id] = await sources.sync(id, {});
  const fileJobs = rt.jobs.unfinished({ kind: 'files' }).length;
  await resumeFileJobs(rt);
  return { sources: out, file_jobs: fileJobs };
}
