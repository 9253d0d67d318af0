import path from 'node:path';
import type { Command } from 'commander';
import type { Job, RagClient, Source, SyncSummary } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { withClient } from '../open-core.js';
import { EXIT, printJson, printLine, printTable } from '../output.js';
import { createProgress } from '../progress.js';
import { collect, globals } from './common.js';

function formatEta(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return s >= 60 ? `ETA ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `ETA ${s}s`;
}

/**
 * A progress bar over a KB's sync jobs while `call` runs (a resumed job, then the new one): files done, chunks, ETA.
 * It reads the jobs through the contract (`listJobs`), so it looks the same in-process and through the owner.
 */
export async function withSyncProgress<T>(
  client: RagClient,
  enabled: boolean,
  label: string,
  pick: (jobs: Job[]) => Job | undefined,
  call: Promise<T>,
): Promise<T> {
  const bar = createProgress(enabled);
  let shown: string | undefined;
  let settled = false;
  const done = call.finally(() => {
    settled = true;
  });
  const poll = (async () => {
    while (enabled && !settled) {
      await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 250))]);
      if (settled) break;
      const job = pick((await client.listJobs({ active: true, limit: 200 }).catch(() => ({ jobs: [] }))).jobs);
      if (!job || settled) continue;
      const p = job.progress;
      if (shown !== job.job_id) {
        if (shown) bar.stop();
        shown = job.job_id;
        bar.start(p.files_total, job.resumed ? `${label} (resumed)` : label);
      }
      bar.update(p.files_done, `${p.chunks} chunks ${formatEta(p.eta_ms)}${p.current ? ` ${path.basename(p.current)}` : ''}`);
    }
  })();
  try {
    return await done;
  } finally {
    await poll;
    bar.stop();
  }
}

/** The running sync job of a source. */
export const syncJobOf =
  (sourceId: string) =>
  (jobs: Job[]): Job | undefined =>
    jobs.find((j) => j.kind === 'sync' && j.source_id === sourceId);

export function summaryLine(s: SyncSummary): string {
  return `${s.files} files: ${s.added} added, ${s.updated} updated, ${s.deleted} deleted, ${s.unchanged} unchanged, ${s.skipped} skipped, ${s.failed} failed (${(s.duration_ms / 1000).toFixed(1)} s)`;
}

function sourceRows(sources: Source[]) {
  return sources.map((s) => ({
    ...s,
    files: s.counts.files,
    indexed: s.counts.indexed,
    failed: s.counts.failed,
    skipped: s.counts.skipped,
    last_sync: s.last_sync_at ?? 'never',
    state: s.last_error && s.state === 'error' ? `error: ${s.last_error}` : s.state,
    links: s.follow_links ? 'followed' : 'left out',
  }));
}

async function syncOne(client: RagClient, id: string, force: boolean, json: boolean | undefined): Promise<SyncSummary> {
  const res = await withSyncProgress(
    client,
    !json,
    `syncing ${id}`,
    syncJobOf(id),
    client.syncSource({ source_id: id, force, wait: true }),
  );
  return res.summary!;
}

export function registerSources(program: Command): void {
  const sources = program
    .command('sources')
    .description('folder sources: a KB keeps a folder in sync (watched while `ragdesk serve` or the app runs)');

  sources
    .command('add <kb_id> <folder>')
    .description('add a folder to a knowledge base and sync it now')
    .option('--include <glob>', 'only files matching this glob, e.g. "*.md" (repeatable)', collect)
    .option('--exclude <glob>', 'leave out files or folders matching this glob, e.g. "drafts" (repeatable)', collect)
    .option('--no-recursive', 'only the files directly in the folder')
    .option(
      '--follow-links',
      'follow symbolic links to files and folders wherever they point (default: links are left out, so every file indexed is really inside the folder; only for folders you trust)',
    )
    .option('--id <source_id>', 'source id (default: from the folder name)')
    .action(
      async (
        kbId: string,
        folder: string,
        o: { include?: string[]; exclude?: string[]; recursive: boolean; followLinks?: boolean; id?: string },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        process.exitCode = await withClient(g, async ({ client }) => {
          // The owner runs the first sync before it answers; its job shows in listJobs meanwhile.
          const before = new Set((await client.listSources({ kb_id: kbId })).map((s) => s.source_id));
          const source = await withSyncProgress(
            client,
            !g.json,
            `syncing ${o.id ?? path.basename(folder)}`,
            (jobs) => jobs.find((j) => j.kind === 'sync' && j.kb_id === kbId && j.source_id !== null && !before.has(j.source_id)),
            client.addSource({
              kb_id: kbId,
              // Absolute: the owner of the data dir, maybe not this process, watches it.
              path: path.resolve(folder),
              include: o.include ?? [],
              exclude: o.exclude ?? [],
              recursive: o.recursive,
              follow_links: Boolean(o.followLinks),
              sync: true,
              ...(o.id ? { source_id: o.id } : {}),
            }),
          );
          if (!source.last_sync)
            throw new RagError('internal', `the first sync of ${source.source_id} did not run: ${source.last_error ?? 'unknown error'}`);
          const summary = source.last_sync;
          if (g.json) printJson({ ...source, summary });
          else {
            printLine(
              `added source ${source.source_id}: ${source.path} → ${kbId}${source.follow_links ? ' (following symbolic links)' : ''}`,
            );
            printLine(summaryLine(summary));
            if (summary.failed) printLine(`see why: ragdesk health --kb ${kbId}`);
          }
          return summary.failed ? EXIT.partial : EXIT.ok;
        });
      },
    );

  sources
    .command('list')
    .description('list folder sources with their state, last sync and counts')
    .option('--kb <kb_id>', 'only this knowledge base')
    .action(async (o: { kb?: string }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const list = await client.listSources(o.kb ? { kb_id: o.kb } : {});
        if (g.json) return printJson(list);
        if (list.length === 0) return printLine('no folder sources yet: ragdesk sources add <kb_id> <folder>');
        printTable(sourceRows(list), [
          'source_id',
          'kb_id',
          'path',
          'state',
          'files',
          'indexed',
          'skipped',
          'failed',
          'last_sync',
          'links',
        ]);
      });
    });

  sources
    .command('rm <source_id>')
    .description('remove a folder source and the documents it brought')
    .option('--keep-documents', 'keep its documents in the knowledge base')
    .action(async (id: string, o: { keepDocuments?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const res = await client.removeSource({ source_id: id, keep_documents: Boolean(o.keepDocuments) });
        if (g.json) printJson(res);
        else printLine(`removed source ${id} (${res.documents_deleted} documents deleted)`);
      });
    });

  sources
    .command('sync [source_id]')
    .description('sync a folder source now (or --all): finishes an interrupted sync, then adds, re-indexes and deletes what changed')
    .option('--all', 'every source')
    .option('--force', 're-read every file, not only those whose size or time changed (unchanged text is still not re-embedded)')
    .action(async (id: string | undefined, o: { all?: boolean; force?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      if (!id && !o.all) {
        process.stderr.write('error: name a source_id or use --all\n');
        process.exitCode = EXIT.usage;
        return;
      }
      process.exitCode = await withClient(g, async ({ client }) => {
        const ids = o.all ? (await client.listSources({})).map((s) => s.source_id) : [id!];
        const results: Array<{ source_id: string; summary: SyncSummary }> = [];
        for (const sid of ids) {
          const summary = await syncOne(client, sid, Boolean(o.force), g.json);
          results.push({ source_id: sid, summary });
          if (!g.json) printLine(`${sid}: ${summaryLine(summary)}`);
        }
        if (g.json) printJson(o.all ? results : results[0]);
        return results.some((r) => r.summary.failed) ? EXIT.partial : EXIT.ok;
      });
    });

  for (const [name, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    sources
      .command(`${name} <source_id>`)
      .description(paused ? 'pause a source: no watching or rescans until resumed' : 'resume a paused source')
      .action(async (id: string, _o: unknown, cmd: Command) => {
        const g = globals(cmd);
        await withClient(g, async ({ client }) => {
          const s = paused ? await client.pauseSource({ source_id: id }) : await client.resumeSource({ source_id: id });
          if (g.json) printJson(s);
          else
            printLine(
              `${id} is ${s.paused ? 'paused' : 'active'}${!paused ? ' (a running ragdesk watches it; `ragdesk sources sync` syncs it now)' : ''}`,
            );
        });
      });
  }
}
