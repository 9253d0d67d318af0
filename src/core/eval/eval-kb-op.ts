import type { EvalKbResult, ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { ProgressReporter } from '../jobs/progress.js';
import { FUSION_METHODS, type FusionMethod } from '../search/fusion.js';
import type { CoreContext } from '../services/context.js';
import { evalKbQueries } from './kb-eval.js';

/**
 * `evalKb`: a KB's retrieval quality on judged queries (the KB as it is, and other models on re-embedded copies), run
 * by whichever process owns the data dir. Searches wait for the models (an evaluation never scores a half-loaded one).
 */
export async function evalKb(ctx: CoreContext, input: ParsedInput<'evalKb'>, report: ProgressReporter): Promise<EvalKbResult> {
  if (!FUSION_METHODS.includes(input.fusion as FusionMethod))
    throw new RagError('invalid_parameter', `unknown fusion "${input.fusion}": one of ${FUSION_METHODS.join(', ')}`);
  const queries = input.queries.map((q) => ({ query: q.query, relevant: new Map(Object.entries(q.relevant)) }));
  if (queries.some((q) => ![...q.relevant.values()].some((g) => g > 0)))
    throw new RagError('invalid_parameter', 'every query needs at least one relevant doc_id with a positive gain');
  try {
    const groups = await evalKbQueries(
      { ctx: { ...ctx, options: { ...ctx.options, waitForModels: true } } },
      {
        kb_id: input.kb_id,
        queries,
        models: input.models,
        modes: input.modes,
        fusion: input.fusion as FusionMethod,
        onProgress: (stage, done, total) => report(stage, done, total),
      },
    );
    return groups.map((g) => ({ ...g, reports: g.reports.map((r) => ({ ...r })) }));
  } finally {
    report.finish();
  }
}
