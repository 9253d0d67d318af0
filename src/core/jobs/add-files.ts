import path from 'node:path';
import type { AddFilesResult, ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { expandPaths } from '../services/file-ingest.js';
import { ingestFilesJob, type JobRuntime } from './files-job.js';
import type { ProgressReporter } from './progress.js';

/**
 * `addFiles`: expand files, folders and globs on this machine (the caller is the owner: same user), then ingest them
 * as one persisted files job, reporting each settled file. What `ragdesk add` runs, in-process or through the owner.
 */
export async function addFiles(rt: JobRuntime, input: ParsedInput<'addFiles'>, report: ProgressReporter): Promise<AddFilesResult> {
  rt.ctx.store.registry.get(input.kb_id);
  const relative = input.paths.find((p) => !path.isAbsolute(p));
  if (relative !== undefined)
    throw new RagError('invalid_parameter', `paths must be absolute (the owner of the data dir reads them): ${relative}`);
  try {
    const targets = await expandPaths(input.paths, { exclude: input.exclude });
    report('files', 0, targets.length);
    const { job_id, outcomes } = await ingestFilesJob(rt, input.kb_id, targets, {
      overwrite: input.overwrite,
      ...(input.chunking ? { chunking: input.chunking } : {}),
      onFile: (outcome, done, total) => report('files', done, total, outcome.file),
      // A large file written section by section: its bytes, so a progress bar moves within it.
      onStream: (file, bytes, totalBytes) => report('bytes', bytes, totalBytes, file),
    });
    const count = (s: string) => outcomes.filter((x) => x.ok && x.status === s).length;
    return {
      kb_id: input.kb_id,
      job_id,
      files: outcomes.length,
      added: count('added'),
      updated: count('updated'),
      skipped: count('skipped'),
      failed: outcomes.filter((x) => !x.ok).length,
      results: outcomes,
    };
  } finally {
    report.finish();
  }
}
