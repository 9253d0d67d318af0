import type { Command } from 'commander';
import type { Job } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { globals, intArg } from './common.js';
import { summaryLine, withSyncProgress } from './sources.js';

function row(j: Job) {
  const p = j.progress;
  return {
    ...j,
    source: j.source_id ?? '',
    // A scan being read: which, and its OCR page.
    files: `${p.files_done}/${p.files_total}${p.current_ocr ? ` (OCR ${p.current_ocr.file.split(/[\\/]/).pop()} p.${p.current_ocr.done}/${p.current_ocr.total})` : ''}`,
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
      await withClient(g, async ({ client }) => {
        const { jobs: list } = await client.listJobs({ active: Boolean(o.active), limit: o.limit, ...(o.kb ? { kb_id: o.kb } : {}) });
        if (g.json) return printJson(list);
        if (list.length === 0) return printLine('no ingestion jobs');
        printTable(list.map(row), ['job_id', 'kind', 'kb_id', 'source', 'state', 'files', 'failed', 'chunks', 'started']);
      });
    });

  jobs
    .command('resume')
    .description('finish every interrupted job now (a running `ragdesk serve` or the app does this at start on its own)')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        // Progress of whichever sync is being finished; file jobs show in `ragdesk jobs list`.
        const out = await withSyncProgress(
          client,
          !g.json,
          'resuming',
          (list) => list.find((j) => j.kind === 'sync' && j.state === 'running'),
          client.resumeJobs({}),
        );
        if (g.json) return printJson(out);
        for (const [id, summary] of Object.entries(out.sources)) printLine(`${id}: ${summaryLine(summary)}`);
        if (out.file_jobs) printLine(`${out.file_jobs} file job(s) resumed`);
        else if (Object.keys(out.sources).length === 0) printLine('nothing to resume');
      });
    });

  jobs
    .command('cancel <job_id>')
    .description('cancel an unfinished job (what it wrote stays)')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const job = await client.cancelJob({ job_id: id });
        if (g.json) printJson(job);
        else printLine(`${id}: ${job.state}`);
      });
    });
}
