import type { Command } from 'commander';
import { defaultQueriesFile, loadKbQueries, type ModelEval } from '../../core/eval/kb-eval.js';
import { runEval, type EvalReport } from '../../core/eval/run-eval.js';
import { FUSION_METHODS, type FusionMethod } from '../../core/search/fusion.js';
import { SEARCH_MODES, type SearchMode } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { createProgress, progressToken, whileProgress } from '../progress.js';
import { chunkingFrom, chunkingOptions, collect, globals } from './common.js';

const COLUMNS = ['dataset', 'mode', 'queries', 'ndcg_at_10', 'recall_at_100', 'mrr_at_10', 'model'];

/** The table's columns: the depth read shows when it is not the default. */
const columnsFor = (reports: ReadonlyArray<object>) => (reports.some((r) => 'candidates' in r) ? [...COLUMNS, 'candidates'] : COLUMNS);

interface EvalCliOptions {
  dataset?: string;
  kb?: string;
  queries?: string;
  model?: string[];
  mode?: string;
  fusion: string;
  splitKbs: string;
  candidates?: string;
}

function progressReporter(enabled: boolean) {
  const bar = createProgress(enabled);
  let stage = '';
  return {
    onProgress: (s: string, done: number, total: number) => {
      if (s !== stage) {
        bar.stop();
        bar.start(
          total,
          s === 'index' ? 'indexing corpus' : s.startsWith('copy:') ? `re-embedding a copy with ${s.slice(5)}` : `queries (${s})`,
        );
        stage = s;
      }
      bar.update(done);
    },
    stop: () => bar.stop(),
  };
}

/** One model's reports, from this process or from the owner of the data dir. */
type Group = { model: string; index: string; reports: ReadonlyArray<{ mode: string; degraded?: string | undefined }> };

function printGroups(groups: Group[]): void {
  for (const [i, g] of groups.entries()) {
    if (i > 0) printLine();
    printLine(
      `model ${g.model}${g.index === 'current' ? ' (the KB as it is)' : g.index === 'copy' ? ' (re-embedded copy of the KB)' : ''}`,
    );
    printTable(g.reports as unknown as Array<Record<string, unknown>>, columnsFor(g.reports));
    for (const r of g.reports) if (r.degraded) process.stderr.write(`note (${g.model}, ${r.mode}): ${r.degraded}\n`);
  }
}

export function registerEval(program: Command): void {
  chunkingOptions(
    program
      .command('eval')
      .description(
        'retrieval quality (nDCG@10, Recall@100, MRR@10): of a BEIR-layout dataset indexed into a throw-away KB (--dataset), ' +
          "or of a KB's own saved queries (--kb); repeat --model to compare models",
      )
      .option('--dataset <dir>', 'folder with corpus.jsonl[.gz], queries.jsonl, qrels/test.tsv')
      .option('--kb <kb_id>', "evaluate this KB's saved queries: the KB as it is, and each --model on a re-embedded copy")
      .option(
        '--queries <file>',
        'with --kb: JSON Lines of {"query": "...", "relevant": ["doc_id", ...]} (default <data-dir>/queries/<kb_id>.jsonl)',
      )
      .option('--model <preset|folder>', 'embedding model; repeat to compare (--dataset default: multilingual)', collect)
      .option('--mode <mode>', 'fts | vector | hybrid | all (default: fts for one dataset model, all when comparing)')
      .option('--fusion <method>', `hybrid fusion: ${FUSION_METHODS.join(' | ')}`, 'adaptive')
      .option('--candidates <n>', 'with --dataset: how deep each ranking is read and fused (default 100; Recall@100 counts at most n)')
      .option('--split-kbs <n>', 'with --dataset: split the collection over n KBs (alternating doc ids) and search them together', '1'),
  ).action(async (o: EvalCliOptions & Record<string, unknown>, cmd: Command) => {
    const g = globals(cmd);
    if (Boolean(o.dataset) === Boolean(o.kb)) cmd.error('give either --dataset <dir> or --kb <kb_id>');
    const models = o.model ?? [];
    const comparing = Boolean(o.kb) || models.length > 1;
    const modeArg = o.mode ?? (comparing ? 'all' : 'fts');
    const modes: SearchMode[] = modeArg === 'all' ? [...SEARCH_MODES].reverse() : [modeArg as SearchMode];
    for (const m of modes) if (!SEARCH_MODES.includes(m)) cmd.error(`unknown mode ${m}`);
    if (!FUSION_METHODS.includes(o.fusion as FusionMethod)) cmd.error(`unknown fusion ${o.fusion}`);
    const fusion = o.fusion as FusionMethod;
    if (!(Number.isInteger(Number(o.splitKbs)) && Number(o.splitKbs) >= 1)) cmd.error('--split-kbs takes a whole number from 1');
    const candidates = o.candidates === undefined ? undefined : Number(o.candidates);
    if (candidates !== undefined && !(Number.isInteger(candidates) && candidates >= 1 && candidates <= 1000))
      cmd.error('--candidates takes a whole number from 1 to 1000');
    if (candidates !== undefined && o.kb) cmd.error('--candidates applies to --dataset only');
    const progress = progressReporter(!g.json);

    if (o.kb) {
      const kbId = o.kb;
      // Read here, run by whoever owns the data dir (this process, or the app / ragdesk serve through its /api).
      const groups = await withClient(g, async ({ client, dataDir }) => {
        const queries = loadKbQueries(o.queries ?? defaultQueriesFile(dataDir, kbId)).map((q) => ({
          query: q.query,
          relevant: Object.fromEntries(q.relevant),
        }));
        const token = progressToken();
        return whileProgress(client, token, client.evalKb({ kb_id: kbId, queries, models, modes, fusion, progress_token: token }), (p) =>
          progress.onProgress(p.stage, p.done, p.total),
        );
      }).finally(() => progress.stop());
      if (g.json) return printJson(groups);
      return printGroups(groups);
    }

    const chunking = chunkingFrom(o as never);
    const groups: ModelEval[] = [];
    try {
      for (const model of models.length ? models : ['multilingual']) {
        const reports: EvalReport[] = await runEval({
          dataset: o.dataset!,
          model,
          modes,
          fusion,
          allowDownload: g.download !== false,
          ...(chunking ? { chunking } : {}),
          splitKbs: Number(o.splitKbs),
          ...(candidates !== undefined ? { candidates } : {}),
          onProgress: progress.onProgress,
        });
        groups.push({ model, index: 'fresh', reports });
      }
    } finally {
      progress.stop();
    }
    if (groups.length === 1) {
      // One model: the shape scripts have relied on (one report, or one per mode).
      const reports = groups[0]!.reports;
      if (g.json) return printJson(reports.length === 1 ? reports[0] : reports);
      printTable(reports as unknown as Array<Record<string, unknown>>, columnsFor(reports));
      for (const r of reports) if (r.degraded) process.stderr.write(`note (${r.mode}): ${r.degraded}\n`);
      return;
    }
    if (g.json) return printJson(groups);
    printGroups(groups);
  });
}
