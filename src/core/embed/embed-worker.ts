/**
 * The embedding worker (worker_threads): holds the transformers.js pipelines and runs them, so a host event
 * loop (MCP server, Electron main, CLI progress) stays responsive while models load and embed.
 * Spawned by EmbedWorkerClient; messages are defined in protocol.ts. Bundled builds emit it as
 * `out/main/embed-worker.js`; under vitest/tsx it runs from this .ts file.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  LogLevel,
  pipeline,
  type FeatureExtractionPipeline,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  Tensor,
} from '@huggingface/transformers';
import { ComputeQueue } from './compute-queue.js';
import { checkLocal, classifyLoadError, createProgressMapper, missingFailure, ORT_SESSION_OPTIONS } from './loader.js';
import type { ModelSpec } from './model-spec.js';
import { batchEncoder, type BatchEncoder } from './batch-encoder.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { embeddingOutput, meanPoolNormalize, normalizeRows, tablePoolNormalize } from './pooling.js';
import { staticTokenTable, type CallableModel, type TokenTable } from './static-table.js';
import type { EmbedResult, LoadResult, RerankResult, WorkerFailure, WorkerInit, WorkerRequest, WorkerResponse } from './protocol.js';
import type { GivenIds } from './word-ids.js';

// stdout carries the MCP protocol in one process mode: nothing from this thread may print there. (Piping the
// worker's stdout from the parent instead would keep the parent process alive while the worker idles.)
const toStderr = (...args: unknown[]): void => console.error(...args);
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const port = parentPort;
if (!port) throw new Error('embed-worker must run as a worker thread');
const { cacheDir, remoteHost } = workerData as WorkerInit;

env.cacheDir = cacheDir;
if (remoteHost) env.remoteHost = remoteHost.endsWith('/') ? remoteHost : `${remoteHost}/`;
env.useFSCache = true;
env.allowLocalModels = true;
env.allowRemoteModels = false;
// Warnings such as "Unknown model class" or "Unable to load from local path" (before a download) are noise here.
env.logLevel = LogLevel.ERROR;

type Loaded =
  | { kind: 'embedding'; pipe: FeatureExtractionPipeline; encode: BatchEncoder; table?: TokenTable; dim: number; dtype?: string }
  | { kind: 'rerank'; tokenizer: PreTrainedTokenizer; model: PreTrainedModel; dtype?: string };

const models = new Map<string, Loaded>();

class Failure extends Error {
  constructor(readonly failure: WorkerFailure) {
    super(failure.message);
  }
}

/** Loads run one at a time, in arrival order (they set transformers.js' global `env`). */
const loads = new KeyedMutex();
/** Compute runs one task at a time on its own lane, a search's work before queued passage batches. */
const compute = new ComputeQueue();

function post(msg: WorkerResponse, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer);
}

async function load(key: string, spec: ModelSpec, allowDownload: boolean): Promise<LoadResult> {
  const existing = models.get(key);
  if (existing) return existing.kind === 'embedding' ? embeddingLoaded(existing) : {};
  const local = checkLocal(spec, cacheDir);
  const ctx = { spec, dir: local.dir, cacheDir, allowDownload, missing: local.missing };
  const download = !local.complete && allowDownload && spec.source === 'hub';
  if (!local.complete && !download) throw new Failure(missingFailure(ctx));

  post({ type: 'progress', key, state: download ? 'downloading' : 'loading', ...(download ? { progress: 0 } : {}) });
  const progress_callback = createProgressMapper(download, (state, progress, file) =>
    post({ type: 'progress', key, state, ...(progress !== undefined ? { progress } : {}), ...(file ? { file } : {}) }),
  );
  env.allowRemoteModels = download;
  env.localModelPath = spec.localModelPath ?? cacheDir;
  // Folders are read where they are; the download cache is only consulted for hub models (so a folder whose
  // name matches something in <data>/models can never be shadowed by it).
  env.useFSCache = spec.source === 'hub';
  const options = {
    progress_callback: progress_callback as (p: unknown) => void,
    local_files_only: !download,
    session_options: ORT_SESSION_OPTIONS,
    ...(local.dtype ? { dtype: local.dtype as 'fp32' } : {}),
  };
  try {
    if (spec.kind === 'embedding') {
      const pipe = await pipeline('feature-extraction', spec.name, options);
      const encode = batchEncoder(pipe.tokenizer);
      post({ type: 'progress', key, state: 'loading' });
      // A static model's per-token vectors, read once (static-table.ts); RAGDESK_EMBED_TABLE=0 runs every batch.
      const table =
        process.env.RAGDESK_EMBED_TABLE === '0'
          ? undefined
          : await staticTokenTable(pipe.model as unknown as CallableModel, pipe.tokenizer, encode);
      const { dim } = await runEmbedding(pipe, encode, table, ['dimension probe']);
      const entry = {
        kind: 'embedding' as const,
        pipe,
        encode,
        ...(table ? { table } : {}),
        dim,
        ...(local.dtype ? { dtype: local.dtype } : {}),
      };
      models.set(key, entry);
      return embeddingLoaded(entry);
    }
    const [tokenizer, model] = await Promise.all([
      AutoTokenizer.from_pretrained(spec.name, options),
      AutoModelForSequenceClassification.from_pretrained(spec.name, options),
    ]);
    models.set(key, { kind: 'rerank', tokenizer, model, ...(local.dtype ? { dtype: local.dtype } : {}) });
    return local.dtype ? { dtype: local.dtype } : {};
  } catch (err) {
    throw new Failure(classifyLoadError(err, ctx));
  } finally {
    env.allowRemoteModels = false;
    env.useFSCache = true;
  }
}

function embeddingLoaded(m: Extract<Loaded, { kind: 'embedding' }>): LoadResult {
  return {
    dim: m.dim,
    ...(m.dtype ? { dtype: m.dtype } : {}),
    ...(m.table ? { table: true } : {}),
    ...(m.table?.simd ? { simd: true } : {}),
    ...(m.encode.takesIds ? { ids: true } : {}),
  };
}

function loaded<K extends Loaded['kind']>(key: string, kind: K): Extract<Loaded, { kind: K }> {
  const m = models.get(key);
  if (!m || m.kind !== kind) {
    throw new Failure({ code: 'model_unavailable', message: `model ${key} is not loaded in the embedding worker`, state: 'error' });
  }
  return m as Extract<Loaded, { kind: K }>;
}

/**
 * Tokenize (padded, truncated to the model's max length), run the model, masked-mean-pool and L2-normalise.
 * Models whose export already pools (`sentence_embedding`, or a 2-D output) are only normalised. A static model's
 * batch is pooled from its token table instead of run (the same vectors, bit for bit, or but for float32 rounding
 * where SIMD sums the rows: static-table.ts).
 */
async function runEmbedding(
  pipe: FeatureExtractionPipeline,
  encode: BatchEncoder,
  table: TokenTable | undefined,
  texts: string[],
  given?: GivenIds,
): Promise<{ data: Float32Array; dim: number }> {
  const rows = encode(texts, given);
  if (table && rows.input_ids && rows.attention_mask) {
    const data = tablePoolNormalize(table.rows, table.dim, rows.input_ids.data, rows.attention_mask.data, rows.input_ids.dims, table.simd);
    if (data) return { data, dim: table.dim };
  }
  const inputs: Record<string, Tensor> = {};
  for (const [key, { data, dims }] of Object.entries(rows)) inputs[key] = new Tensor('int64', data, dims);
  const outputs = (await pipe.model(inputs)) as Record<string, Tensor | undefined>;
  const output = embeddingOutput(outputs);
  if (output && 'pooled' in output) {
    const t = output.pooled;
    return { data: normalizeRows(t.data as ArrayLike<number>, t.dims), dim: t.dims[1] ?? 0 };
  }
  if (!output) throw new Error(`unexpected model outputs: ${Object.keys(outputs).join(', ')}`);
  const hidden = output.tokens;
  const mask = inputs.attention_mask;
  if (!mask) throw new Error('the tokenizer gave no attention_mask');
  const data = meanPoolNormalize(hidden.data as ArrayLike<number>, hidden.dims, mask.data as ArrayLike<bigint>);
  return { data, dim: hidden.dims[2] ?? 0 };
}

async function embed(key: string, texts: string[], given?: GivenIds): Promise<{ value: EmbedResult; transfer: ArrayBuffer[] }> {
  const { pipe, encode, table } = loaded(key, 'embedding');
  if (given && !encode.takesIds) throw new Error('token ids were given for a model whose tokenizer does not take them');
  const { data, dim } = await runEmbedding(pipe, encode, table, texts, given);
  // The pooled array owns its buffer: hand it over without a copy.
  const buffer = data.buffer as ArrayBuffer;
  return { value: { buffer, count: texts.length, dim }, transfer: [buffer] };
}

async function rerank(key: string, query: string, passages: string[], batchSize: number): Promise<RerankResult> {
  const { tokenizer, model } = loaded(key, 'rerank');
  const scores: number[] = [];
  for (let start = 0; start < passages.length; start += batchSize) {
    const batch = passages.slice(start, start + batchSize);
    const inputs = tokenizer(
      batch.map(() => query),
      { text_pair: batch, padding: true, truncation: true },
    );
    const { logits } = (await model(inputs)) as { logits: Tensor };
    const labels = logits.dims[1] ?? 1;
    const data = logits.data as Float32Array;
    for (let i = 0; i < batch.length; i++) {
      // One logit: the relevance score. Two (not-relevant, relevant): their difference, monotone in P(relevant).
      const s = labels === 1 ? data[i]! : data[i * labels + labels - 1]! - data[i * labels]!;
      scores.push(s);
    }
  }
  return { scores };
}

async function handle(msg: WorkerRequest): Promise<void> {
  try {
    switch (msg.type) {
      case 'load': {
        const value = await loads.run('load', () => load(msg.key, msg.spec, msg.allowDownload));
        post({ type: 'result', id: msg.id, ok: true, value });
        return;
      }
      case 'embed': {
        const { value, transfer } = await compute.run(() => embed(msg.key, msg.texts, msg.ids), msg.urgent === true);
        post({ type: 'result', id: msg.id, ok: true, value }, transfer);
        return;
      }
      case 'rerank': {
        const value = await compute.run(() => rerank(msg.key, msg.query, msg.passages, msg.batchSize), true);
        post({ type: 'result', id: msg.id, ok: true, value });
        return;
      }
      case 'unload': {
        const m = models.get(msg.key);
        models.delete(msg.key);
        if (m) await compute.run(async () => void (await (m.kind === 'embedding' ? m.pipe.dispose() : m.model.dispose())));
        post({ type: 'result', id: msg.id, ok: true, value: null });
        return;
      }
      case 'hold':
        await compute.run(() => new Promise((resolve) => setTimeout(resolve, msg.ms)));
        post({ type: 'result', id: msg.id, ok: true, value: null });
        return;
      case 'crash':
        // Test hook: die the way a native crash or an uncaught error would.
        setImmediate(() => {
          throw new Error('embed worker crash requested');
        });
        return;
    }
  } catch (err) {
    const error: WorkerFailure =
      err instanceof Failure
        ? err.failure
        : { code: 'internal', message: `embedding worker: ${err instanceof Error ? err.message : String(err)}` };
    post({ type: 'result', id: msg.id, ok: false, error });
  }
}

port.on('message', (msg: WorkerRequest) => void handle(msg));
post({ type: 'ready' });
