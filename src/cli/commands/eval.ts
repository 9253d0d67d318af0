import type { Command } from 'commander';
import { runEval, type EvalReport } from '../../core/eval/run-eval.js';
import { FUSION_METHODS, type FusionMethod } from '../../core/search/fusion.js';
import { SEARCH_MODES, type SearchMode } from '../../shared/contract/index.js';
import { printJson, printTable } from '../output.js';
import { createProgress } from '../progress.js';
import { chunkingFrom, chunkingOptions, globals } from './common.js';

export function registerEval(program: Command): void {
  chunkingOptions(
    program
      .command('eval')
      .description('retrieval quality on a BEIR-layout dataset: nDCG@10, Recall@100, MRR@10 over qrels/test.tsv')
      .requiredOption('--dataset <dir>', 'folder with corpus.jsonl[.gz], queries.jsonl, qrels/test.tsv')
      .option('--model <preset|folder>', 'embedding model', 'multilingual')
      .option('--mode <mode>', 'fts | vector | hybrid | all', 'fts')
      .option('--fusion <method>', `hybrid fusion: ${FUSION_METHODS.join(' | ')}`, 'adaptive'),
  ).action(async (o: { dataset: string; model: string; mode: string; fusion: string } & Record<string, unknown>, cmd: Command) => {
    const g = globals(cmd);
    const modes: SearchMode[] = o.mode === 'all' ? [...SEARCH_MODES].reverse() : [o.mode as SearchMode];
    for (const m of modes) if (!SEARCH_MODES.includes(m)) cmd.error(`unknown mode ${m}`);
    if (!FUSION_METHODS.includes(o.fusion as FusionMethod)) cmd.error(`unknown fusion ${o.fusion}`);
    const bar = createProgress(!g.json);
    let stage = '';
    const chunking = chunkingFrom(o as never);
    const reports: EvalReport[] = await runEval({
      dataset: o.dataset,
      model: o.model,
      modes,
      fusion: o.fusion as FusionMethod,
      allowDownload: g.download !== false,
      ...(chunking ? { chunking } : {}),
      onProgress: (s, done, total) => {
        if (s !== stage) {
          bar.stop();
          bar.start(total, s === 'index' ? 'indexing corpus' : `queries (${s})`);
          stage = s;
        }
        bar.update(done);
      },
    });
    bar.stop();
    if (g.json) return printJson(reports.length === 1 ? reports[0] : reports);
    printTable(reports as unknown as Array<Record<string, unknown>>, ['dataset', 'mode', 'queries', 'ndcg_at_10', 'recall_at_100', 'mrr_at_10', 'model']);
    for (const r of reports) if (r.degraded) process.stderr.write(`note (${r.mode}): ${r.degraded}\n`);
  });
}
