import { readdirSync } from 'node:fs';
import path from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { bareTokenizer, type BareTokenizer } from './bare-tokenizer.js';
import { batchEncoder, type BatchEncoder } from './batch-encoder.js';
import { pairReranker, type Reranker } from './cross-encoder.js';
import { onnxFile, ORT_SESSION_OPTIONS, readJson } from './loader.js';
import { onnxRuntime } from './ort-module.js';
import { textInputsOnly, type ModelRunner } from './static-table.js';
import { readTokenizerFiles } from './tokenizer-files.js';

/**
 * An embedding model on disk, loaded by the embedding worker without transformers.js: its tokenizer is tokenizers.js'
 * (bare-tokenizer.ts) and its ONNX file runs in an onnxruntime-node session of its own, created with the options
 * transformers.js gives it (CPU, errors-only log, ORT_SESSION_OPTIONS), fed as transformers.js' encoder_forward
 * feeds it (the inputs the session names; token type ids of zeros where the tokenizer gives none). Importing
 * transformers.js and building its pipeline took ~0.35 s of a worker's start (potion: 150-170 ms of it the pipeline)
 * and its first load in a process; the pooling, the static token table and the encoder are the worker's own either
 * way. Taken only for what transformers.js would do nothing more for: a config whose `transformers.js_config` says
 * no more than the dtype, no external data file, a tokenizer class bare-tokenizer.ts makes, a session taking only
 * input_ids, attention_mask and token_type_ids. Anything else and downloads go through transformers.js. Rerankers
 * (cross-encoders) load the same way, their query and passage paired by the tokenizer.
 */

/** The parts of a model on disk the bare paths share: its session as a runner, and its tokenizer. */
interface BareParts {
  runner: ModelRunner;
  tokenizer: BareTokenizer;
  dispose(): Promise<void>;
}

/** An embedding model: the parts, and the encoder over its tokenizer. */
export interface BareModel extends BareParts {
  encode: BatchEncoder;
}

/** Open the model in `dir` (complete on disk) without transformers.js, or say why not (see the module comment). */
async function openBare(dir: string, dtype: string | undefined): Promise<BareParts | string> {
  const config = readJson(path.join(dir, 'config.json'));
  if (!config) return 'config.json is not a JSON object';
  const tjs = config['transformers.js_config'];
  if (tjs !== undefined && (typeof tjs !== 'object' || tjs === null || Object.keys(tjs).some((k) => k !== 'dtype'))) {
    return 'transformers.js_config sets more than the dtype';
  }
  const file = path.join(dir, onnxFile(dtype ?? 'fp32'));
  try {
    if (readdirSync(path.dirname(file)).some((f) => f.includes('.onnx_data'))) return 'the model has external data files';
    const files = await readTokenizerFiles(dir);
    const tokenizer = bareTokenizer(files.tokenizer, files.config);
    if (!tokenizer) return `tokenizer class ${String(files.config.tokenizer_class)}`;
    const ort = onnxRuntime();
    const session = await ort.InferenceSession.create(file, { logSeverityLevel: 3, executionProviders: ['cpu'], ...ORT_SESSION_OPTIONS });
    const names = session.inputNames;
    if (!textInputsOnly(names)) {
      await session.release();
      return `model inputs ${names.join(', ')}`;
    }
    const hidden = config.hidden_size;
    const runner: ModelRunner = {
      inputNames: names,
      ...(typeof hidden === 'number' ? { hiddenSize: hidden } : {}),
      async run(feeds) {
        const ids = feeds.input_ids;
        if (!ids) throw new Error('no input_ids for the model');
        const inputs: Record<string, Ort.Tensor> = {};
        for (const name of names) {
          const x = feeds[name] ?? (name === 'token_type_ids' ? { data: new BigInt64Array(ids.data.length), dims: ids.dims } : undefined);
          if (!x) throw new Error(`no ${name} for the model`);
          inputs[name] = new ort.Tensor('int64', x.data, x.dims);
        }
        return session.run(inputs);
      },
    };
    return { runner, tokenizer, dispose: () => session.release() };
  } catch (err) {
    return `not loaded without transformers.js: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * The embedding model in `dir` (complete on disk) loaded without transformers.js, or why it is not (transformers.js
 * then loads it, and reports any failure as it always has). `dtype`: loader.ts checkLocal's.
 */
export async function loadBareModel(dir: string, dtype: string | undefined): Promise<BareModel | string> {
  const parts = await openBare(dir, dtype);
  return typeof parts === 'string' ? parts : { ...parts, encode: batchEncoder(parts.tokenizer) };
}

/**
 * The cross-encoder in `dir` loaded without transformers.js, or why not: the query and each passage paired by the
 * tokenizer's template, padded and truncated as transformers.js does (cross-encoder.ts).
 */
export async function loadBareReranker(dir: string, dtype: string | undefined): Promise<Reranker | string> {
  const parts = await openBare(dir, dtype);
  return typeof parts === 'string' ? parts : pairReranker(parts.runner, parts.tokenizer, parts.dispose);
}
