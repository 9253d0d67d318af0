import path from 'node:path';
import type { Command } from 'commander';
import type { Core } from '../../core/core.js';
import type { JobHandle } from '../../core/jobs/journal.js';
import type { Source, SyncSummary } from '../../shared/contract/index.js';
import { withCore } from '../open-core.js';
import { EXIT, printJson, printLine, printTable } from '../output.js';
import { createProgress } from '../progress.js';
import { collect, globals } from './common.js';

function formatEta(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return s >= 60 ? `ETA ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `ETA ${s}s`;
}

/** A progress bar over a sync's jobs (a resumed one, then the new one): files done, chunks, ETA. */
export function jobProgress(enabled: boolean, label: string): { onProgress: (job: JobHandle) => void; stop: () => void } {
  const bar = createProgress(enabled);
  let shown: string | undefined;
  return {
    onProgress: (job) => {
      const p = job.progress();
      if (shown !== job.id) {
        if (shown) bar.stop();
        shown = job.id;
        bar.start(p.files_total, job.resumed ? `${label} (resumed)` : label);
      }
      bar.update(p.files_done, `${p.chunks} chunks ${formatEta(p.eta_ms)}${p.current ? ` ${path.basename(p.current)}` : ''}`);
    },
    stop: () => bar.stop(),
  };
}

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
  }));
}

async function syncOne(core: Core, id: string, force: boolean, json: boolean | undefined): Promise<SyncSummary> {
  const progress = jobProgress(!json, `syncing ${id}`);
  try {
    return await core.sources.sync(id, { force }, false, progress.onProgress);
  } finally {
    progress.stop();
  }
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
    .option('--id <source_id>', 'source id (default: from the folder name)')
    .action(
      async (
        kbId: string,
        folder: string,
        o: { include?: string[]; exclude?: string[]; recursive: boolean; id?: string },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        process.exitCode = await withCore(g, async (core) => {
          const added = await core.sources.add(
            {
              kb_id: kbId,
              path: folder,
              include: o.include ?? [],
              exclude: o.exclude ?? [],
              recursive: o.recursive,
              sync: true,
              ...(o.id ? { source_id: o.id } : {}),
            },
            false,
          );
          const summary = await syncOne(core, added.source_id, false, g.json);
          const source = core.sources.get(added.source_id);
          if (g.json) printJson({ ...source, summary });
          else {
            printLine(`added source ${source.source_id}: ${source.path} → ${kbId}`);
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
      await withCore(g, async (core) => {
        const list = await core.client.listSources(o.kb ? { kb_id: o.kb } : {});
        if (g.json) return printJson(list);
        if (list.length === 0) return printLine('no folder sources yet: ragdesk sources add <kb_id> <folder>');
        printTable(sourceRows(list), ['source_id', 'kb_id', 'path', 'state', 'files', 'indexed', 'skipped', 'failed', 'last_sync']);
      });
    });

  sources
    .command('rm <source_id>')
    .description('remove a folder source and the documents it brought')
    .option('--keep-documents', 'keep its documents in the knowledge base')
    .action(async (id: string, o: { keepDocuments?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withCore(g, async (core) => {
        const res = await core.client.removeSource({ source_id: id, keep_documents: Boolean(o.keepDocuments) });
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
      process.exitCode = await withCore(g, async (core) => {
        const ids = o.all ? core.sources.list().map((s) => s.source_id) : [id!];
        const results: Array<{ source_id: string; summary: SyncSummary }> = [];
        for (const sid of ids) {
          const summary = await syncOne(core, sid, Boolean(o.force), g.json);
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
        await withCore(g, async (core) => {
          const s = paused ? await core.client.pauseSource({ source_id: id }) : await core.client.resumeSource({ source_id: id });
          if (g.json) printJson(s);
          else
            printLine(
              `${id} is ${s.paused ? 'paused' : 'active'}${!paused ? ' (a running ragdesk watches it; `ragdesk sources sync` syncs it now)' : ''}`,
            );
        });
      });
  }
}
