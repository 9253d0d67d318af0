import type { Command } from 'commander';
import { resumeFileJobs } from '../../core/jobs/files-job.js';
import type { Job } from '../../shared/contract/index.js';
import { withCore } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { globals, intArg } from './common.js';
import { jobProgress, summaryLine } from './sources.js';

function row(j: Job) {
  const p = j.progress;
  return {
    ...j,
    source: j.source_id ?? '',
    files: `${p.files_done}/${p.files_total}`,
    failed: p.files_failed,
    chunks: p.chunks,
    started: j.created_at,
  };
}

export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('ingestion jobs: progress, and resuming those a crash or quit interrupted');

  jobs
    .command('list')
    .description('list ingestion jobs, newest first')
    .option('--kb <kb_id>', 'only this knowledge base')
    .option('--active', 'only unfinished jobs')
    .option('--limit <n>', 'at most this many', intArg, 20)
    .action(async (o: { kb?: string; active?: boolean; limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withCore(g, async (core) => {
        const { jobs: list } = await core.client.listJobs({ active: Boolean(o.active), limit: o.limit, ...(o.kb ? { kb_id: o.kb } : {}) });
        if (g.json) return printJson(list);
        if (list.length === 0) return printLine('no ingestion jobs');
        printTable(list.map(row), ['job_id', 'kind', 'kb_id', 'source', 'state', 'files', 'failed', 'chunks', 'started']);
      });
    });

  jobs
    .command('resume')
    .description('finish every interrupted job now (a running `ragdesk serve` or the app does this at start)')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withCore(g, async (core) => {
        const sync = [...new Set(core.jobs.unfinished({ kind: 'sync' }).map((j) => j.header.source_id!))].filter((id) =>
          core.sources.list().some((s) => s.source_id === id),
        );
        const out: Record<string, unknown> = {};
        for (const id of sync) {
          const progress = jobProgress(!g.json, `syncing ${id}`);
          const summary = await core.sources.sync(id, {}, false, progress.onProgress).finally(() => progress.stop());
          out[id] = summary;
          if (!g.json) printLine(`${id}: ${summaryLine(summary)}`);
        }
        const files = core.jobs.unfinished({ kind: 'files' }).length;
        await resumeFileJobs(core);
        if (g.json) printJson({ sources: out, file_jobs: files });
        else if (files) printLine(`${files} file job(s) resumed`);
        else if (sync.length === 0) printLine('nothing to resume');
      });
    });

  jobs
    .command('cancel <job_id>')
    .description('cancel an unfinished job (what it wrote stays)')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withCore(g, async (core) => {
        const job = await core.client.cancelJob({ job_id: id });
        if (g.json) printJson(job);
        else printLine(`${id}: ${job.state}`);
      });
    });
}
