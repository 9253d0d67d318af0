import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kb, SearchMode } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { CoreContext } from '../services/context.js';
import type { FusionMethod } from '../search/fusion.js';
import { ANN_MIN_ROWS } from '../services/indexing.js';
import { copyReembedded } from '../services/reembed.js';
import type { EvalReport } from './run-eval.js';
import { openScratchContext } from './scratch.js';
import { scoreModes, type JudgedQuery } from './score.js';

/**
 * A KB's own saved queries: JSON Lines, one judged query a line:
 *   {"query": "how do I return goods?", "relevant": ["returns-policy", "faq"]}
 * `relevant` lists doc_ids of the KB; graded judgements are an object instead: {"returns-policy": 2, "faq": 1}.
 * Blank lines and lines starting with `#` are skipped.
 */
export function loadKbQueries(file: string): JudgedQuery[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new RagError('invalid_parameter', `cannot read the queries file ${file}: ${(err as Error).message}`);
  }
  const out: JudgedQuery[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const bad = (why: string) =>
      new RagError('invalid_parameter', `${file}:${i + 1}: ${why}; expected {"query": "...", "relevant": ["doc_id", ...]}`);
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw bad('not JSON');
    }
    const { query, relevant } = (row ?? {}) as { query?: unknown; relevant?: unknown };
    if (typeof query !== 'string' || !query.trim()) throw bad('no "query" text');
    const rel = new Map<string, number>();
    if (Array.isArray(relevant)) for (const id of relevant) if (typeof id === 'string') rel.set(id, 1);
    if (relevant && typeof relevant === 'object' && !Array.isArray(relevant)) {
      for (const [id, g] of Object.entries(relevant)) if (typeof g === 'number') rel.set(id, g);
    }
    if (![...rel.values()].some((g) => g > 0)) throw bad('no relevant doc_id');
    out.push({ query, relevant: rel });
  });
  if (out.length === 0) throw new RagError('invalid_parameter', `${file} holds no queries`);
  return out;
}

/** Where a KB's saved queries live when no file is named: `<data>/queries/<kb_id>.jsonl`. */
export function defaultQueriesFile(dataDir: string, kbId: string): string {
  return path.join(dataDir, 'queries', `${kbId}.jsonl`);
}

export interface KbEvalOptions {
  kb_id: string;
  queries: JudgedQuery[];
  /** Other models to try, each on a re-embedded temporary copy of the KB's chunks. */
  models: string[];
  modes: SearchMode[];
  fusion?: FusionMethod;
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** One model's scores: the KB as it is (`current`), a temporary re-embedded copy of it (`copy`), or a dataset indexed from scratch (`fresh`). */
export interface ModelEval {
  model: string;
  index: 'current' | 'copy' | 'fresh';
  reports: EvalReport[];
}

/**
 * Evaluate a KB's saved queries against the KB as it is, then against each other model on a temporary copy:
 * the KB's chunks (same text, chunk ids, locations and metadata) re-embedded with that model into a chunk table
 * in a throw-away data dir — exactly the table a model change to it would swap in. The KB itself is only read.
 */
export async function evalKbQueries(core: { ctx: CoreContext }, options: KbEvalOptions): Promise<ModelEval[]> {
  const kb = core.ctx.store.registry.get(options.kb_id);
  const dataset = `kb:${kb.kb_id}`;
  const score = (ctx: CoreContext, target: Kb, model: string) =>
    scoreModes(ctx, target, options.queries, {
      dataset,
      model,
      modes: options.modes,
      ...(options.fusion ? { fusion: options.fusion } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  const results: ModelEval[] = [{ model: kb.embedding_model, index: 'current', reports: await score(core.ctx, kb, kb.embedding_model) }];
  for (const model of options.models) {
    if (model === kb.embedding_model) continue;
    results.push({ model, index: 'copy', reports: await evalOnCopy(core, kb, model, score, options.onProgress) });
  }
  return results;
}

async function evalOnCopy(
  core: { ctx: CoreContext },
  kb: Kb,
  model: string,
  score: (ctx: CoreContext, target: Kb, model: string) => Promise<EvalReport[]>,
  onProgress: KbEvalOptions['onProgress'],
): Promise<EvalReport[]> {
  const source = await core.ctx.store.chunks(kb);
  if (!source) throw new RagError('invalid_parameter', `knowledge base "${kb.kb_id}" holds no chunks yet`);
  const embedder = await core.ctx.models.getEmbedder(model, { allowDownload: core.ctx.options.allowDownload });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-eval-copy-'));
  // The copy shares the model manager (models load once) and takes no lock on the real data dir.
  const tmp = await openScratchContext(dataDir, core.ctx);
  try {
    const { chunk_table: _t, ...rest } = kb;
    const copy = tmp.ctx.store.registry.put({ ...rest, embedding_model: model, embedding_dim: embedder.dim });
    const target = await tmp.ctx.store.createChunks(copy, embedder.dim);
    const ids = await source.chunkIds();
    let done = 0;
    await copyReembedded(source, target, ids, embedder, {
      fields: () => kb.metadata_fields,
      onBatch: (n) => onProgress?.(`copy:${model}`, (done += n), ids.length),
    });
    if (ids.length > 0) await target.ensureFtsIndex();
    if (ids.length >= ANN_MIN_ROWS) await target.buildVectorIndex(ids.length);
    return await score(tmp.ctx, copy, model);
  } finally {
    await tmp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
