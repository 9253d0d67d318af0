import path from 'node:path';
import type { Command } from 'commander';
import { isFullTextOnly, type AddFilesResult, type RagClient } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { EXIT, printJson, printLine } from '../output.js';
import { createProgress, progressToken, whileProgress } from '../progress.js';
import { chunkingFrom, chunkingOptions, collect, globals } from './common.js';

/** Said once for the whole run: without the model, documents were stored for full-text search only. */
async function vectorsNote(client: RagClient, kbId: string): Promise<string | undefined> {
  const kb = await client.getKb({ kb_id: kbId });
  if (isFullTextOnly(kb.embedding_model)) return undefined; // no vectors wanted
  const model = (await client.modelStatus({})).find((m) => m.kind === 'embedding' && m.model === kb.embedding_model);
  if (model?.state === 'loaded') return undefined;
  return (
    `note: stored without vectors: model ${kb.embedding_model} is ${model?.state ?? 'not loaded'}${model?.error ? ` (${model.error})` : ''}. ` +
    'Full-text search works now; vectors are added once the model is available (ragdesk serve and the app fill them in at start).'
  );
}

function printOutcomes(res: AddFilesResult): void {
  for (const x of res.results) {
    if (!x.ok) printLine(`  FAILED  ${x.file}: [${x.error?.code}] ${x.error?.message}`);
    else if (x.status === 'skipped') printLine(`  skipped ${x.file}: ${x.reason}`);
    else
      printLine(`  ${(x.status ?? '').padEnd(7)} ${x.file} (${x.chunks} chunks)${x.warnings?.length ? ` — ${x.warnings.join('; ')}` : ''}`);
  }
  printLine(`${res.files} files: ${res.added} added, ${res.updated} updated, ${res.skipped} skipped, ${res.failed} failed`);
}

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
    process.exitCode = await withClient(
      g,
      async ({ client }) => {
        await client.getKb({ kb_id: o.kb });
        const chunking = chunkingFrom(o as never);
        const token = progressToken();
        const bar = createProgress(!g.json);
        let started = false;
        let filesDone = 0;
        const res = await whileProgress(
          client,
          token,
          client.addFiles({
            kb_id: o.kb,
            // Absolute: the process that owns the data dir (maybe not this one) reads the files.
            paths: paths.map((p) => path.resolve(p)),
            exclude: o.exclude ?? [],
            overwrite: Boolean(o.overwrite),
            ...(chunking ? { chunking } : {}),
            progress_token: token,
          }),
          (p) => {
            if (p.stage === 'bytes') {
              // A large file written section by section: how far into it.
              const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
              if (started) bar.update(filesDone, `${path.basename(p.detail ?? '')} ${mb(p.done)} of ${mb(p.total)} MB`);
              return;
            }
            if (!started) {
              bar.start(p.total, `indexing into ${o.kb}`);
              started = true;
            }
            filesDone = p.done;
            bar.update(p.done, p.detail ? path.basename(p.detail) : '');
          },
        ).finally(() => bar.stop());
        if (g.json) {
          const { kb_id, files, added, updated, skipped, failed, results, job_id } = res;
          printJson({ kb_id, files, added, updated, skipped, failed, results, job_id });
        } else {
          printOutcomes(res);
          const note = res.added + res.updated > 0 ? await vectorsNote(client, o.kb) : undefined;
          if (note) printLine(note);
        }
        if (res.files === 0) return EXIT.ok;
        return res.failed === 0 ? EXIT.ok : res.failed === res.files ? EXIT.error : EXIT.partial;
      },
      [o.kb],
    );
  });
}
