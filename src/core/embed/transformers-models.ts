import {
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  LogLevel,
  pipeline,
  type PreTrainedModel,
  Tensor,
} from '@huggingface/transformers';
import { batchEncoder, type BatchEncoder } from './batch-encoder.js';
import { ORT_SESSION_OPTIONS, type TransformersProgress } from './loader.js';
import type { ModelSpec } from './model-spec.js';
import { pairReranker, type PairTokenizer, type Reranker } from './cross-encoder.js';
import type { ModelRunner } from './static-table.js';

/**
 * The embedding worker's models loaded through transformers.js: downloads, rerankers, and the embedding models
 * bare-model.ts does not take. The worker imports this module on its first such load (transformers.js' import is
 * ~0.2 s and loads sharp), so a worker whose models all load bare never imports transformers.js.
 */

let configured = false;

/** transformers.js' global settings for this worker (once). */
export function configureTransformers(cacheDir: string, remoteHost: string | undefined): void {
  if (configured) return;
  configured = true;
  env.cacheDir = cacheDir;
  if (remoteHost) env.remoteHost = remoteHost.endsWith('/') ? remoteHost : `${remoteHost}/`;
  env.useFSCache = true;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  // Warnings such as "Unknown model class" or "Unable to load from local path" (before a download) are noise here.
  env.logLevel = LogLevel.ERROR;
}

export interface TransformersLoad {
  spec: ModelSpec;
  cacheDir: string;
  dtype?: string;
  download: boolean;
  progress: (p: TransformersProgress) => void;
}

/** Run a load with transformers.js' `env` set for `load` (loads run one at a time: they share it). */
async function withEnv<T>(load: TransformersLoad, fn: (options: object) => Promise<T>): Promise<T> {
  const { spec, download } = load;
  env.allowRemoteModels = download;
  env.localModelPath = spec.localModelPath ?? load.cacheDir;
  // Folders are read where they are; the download cache is only consulted for hub models (so a folder whose
  // name matches something in <data>/models can never be shadowed by it).
  env.useFSCache = spec.source === 'hub';
  try {
    return await fn({
      progress_callback: load.progress as (p: unknown) => void,
      local_files_only: !download,
      session_options: ORT_SESSION_OPTIONS,
      ...(load.dtype ? { dtype: load.dtype as 'fp32' } : {}),
    });
  } finally {
    env.allowRemoteModels = false;
    env.useFSCache = true;
  }
}

/** A transformers.js model object as a ModelRunner (static-table.ts). */
export function transformersRunner(model: PreTrainedModel): ModelRunner {
  const m = model as unknown as {
    (inputs: Record<string, Tensor>): Promise<unknown>;
    sessions?: Record<string, { inputNames?: readonly string[] } | undefined>;
    config?: { hidden_size?: unknown };
  };
  const hidden = m.config?.hidden_size;
  return {
    inputNames: m.sessions?.model?.inputNames ?? [],
    ...(typeof hidden === 'number' ? { hiddenSize: hidden } : {}),
    async run(feeds) {
      const inputs: Record<string, Tensor> = {};
      for (const [key, { data, dims }] of Object.entries(feeds)) inputs[key] = new Tensor('int64', data, dims);
      return (await m(inputs)) as Record<string, Tensor | undefined>;
    },
  };
}

/** An embedding model through transformers.js' feature-extraction pipeline. */
export async function loadTransformersEmbedding(
  load: TransformersLoad,
): Promise<{ runner: ModelRunner; tokenizer: unknown; encode: BatchEncoder; dispose(): Promise<void> }> {
  const pipe = await withEnv(load, (options) => pipeline('feature-extraction', load.spec.name, options));
  return {
    runner: transformersRunner(pipe.model),
    tokenizer: pipe.tokenizer,
    encode: batchEncoder(pipe.tokenizer),
    dispose: () => pipe.dispose(),
  };
}

/** A cross-encoder through transformers.js: its tokenizer pairs the query with each passage (cross-encoder.ts). */
export async function loadTransformersReranker(load: TransformersLoad): Promise<Reranker> {
  const [tokenizer, model] = await withEnv(load, (options) =>
    Promise.all([
      AutoTokenizer.from_pretrained(load.spec.name, options),
      AutoModelForSequenceClassification.from_pretrained(load.spec.name, options),
    ]),
  );
  return pairReranker(transformersRunner(model), tokenizer as unknown as PairTokenizer, () => model.dispose());
}
