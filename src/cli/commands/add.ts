import path from 'node:path';
import type { Command } from 'commander';
import { ingestFilesJob } from '../../core/jobs/files-job.js';
import { expandPaths } from '../../core/services/file-ingest.js';
import { withCore } from '../open-core.js';
import { EXIT, printJson, printLine } from '../output.js';
import { createProgress } from '../progress.js';
import { chunkingFrom, chunkingOptions, collect, globals } from './common.js';

export function registerAdd(program: Command): void {
  chunkingOptions(
    program
      .command('add <paths...>')
      .description('add files, folders (recursively) or glob patterns to a knowledge base')
      .requiredOption('--kb <kb_id>', 'target knowledge base')
      .option('--overwrite', 'replace documents whose content changed')
      .option('--exclude <glob>', 'skip files matching this glob (repeatable)', collect),
  ).action(async (paths: string[], o: { kb: string; overwrite?: boolean; exclude?: string[] } & Record<string, unknown>, cmd: Command) => {
    const g = globals(cmd);
    const code = await withCore(g, async (core) => {
      await core.client.getKb({ kb_id: o.kb });
      const targets = await expandPaths(paths, o.exclude ? { exclude: o.exclude } : {});
      const bar = createProgress(!g.json);
      bar.start(targets.length, `indexing into ${o.kb}`);
      const chunking = chunkingFrom(o as never);
      const { outcomes } = await ingestFilesJob(core, o.kb, targets, {
        overwrite: Boolean(o.overwrite),
        ...(chunking ? { chunking } : {}),
        onFile: (out, done) => bar.update(done, path.basename(out.file)),
      });
      bar.stop();
      const failed = outcomes.filter((x) => !x.ok);
      const count = (s: string) => outcomes.filter((x) => x.status === s).length;
      const summary = {
        kb_id: o.kb,
        files: outcomes.length,
        added: count('added'),
        updated: count('updated'),
        skipped: count('skipped'),
        failed: failed.length,
      };
      if (g.json) printJson({ ...summary, results: outcomes });
      else {
        for (const x of outcomes) {
          if (!x.ok) printLine(`  FAILED  ${x.file}: [${x.error?.code}] ${x.error?.message}`);
          else if (x.status === 'skipped') printLine(`  skipped ${x.file}: ${x.reason}`);
          else
            printLine(
              `  ${(x.status ?? '').padEnd(7)} ${x.file} (${x.chunks} chunks)${x.warnings?.length ? ` — ${x.warnings.join('; ')}` : ''}`,
            );
        }
        printLine(
          `${summary.files} files: ${summary.added} added, ${summary.updated} updated, ${summary.skipped} skipped, ${summary.failed} failed`,
        );
        // Said once for the whole run: without the model, documents were stored for full-text search only.
        const kb = await core.client.getKb({ kb_id: o.kb });
        const model = core.ctx.models.status().find((m) => m.kind === 'embedding' && m.model === kb.embedding_model);
        if (summary.added + summary.updated > 0 && model?.state !== 'loaded') {
          printLine(
            `note: stored without vectors: model ${kb.embedding_model} is ${model?.state ?? 'not loaded'}${model?.error ? ` (${model.error})` : ''}. ` +
              'Full-text search works now; vectors are added once the model is available (ragdesk serve and the app fill them in at start).',
          );
        }
      }
      if (outcomes.length === 0) return EXIT.ok;
      return failed.length === 0 ? EXIT.ok : failed.length === outcomes.length ? EXIT.error : EXIT.partial;
    });
    process.exitCode = code;
  });
}
