/**
 * The embedding worker (worker_threads): loads the models (onnxruntime sessions of its own where it can:
 * bare-model.ts; transformers.js otherwise: transformers-models.ts) and runs them, so a host event loop (MCP
 * server, Electron main, CLI progress) stays responsive while models load and embed.
 * Spawned by EmbedWorkerClient; messages are defined in protocol.ts. Bundled builds emit it as
 * `out/main/embed-worker.js`; under vitest/tsx it runs from this .ts file.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { loadBareModel, loadBareReranker } from './bare-model.js';
import { ComputeQueue } from './compute-queue.js';
import type { Reranker } from './cross-encoder.js';
import { checkLocal, classifyLoadError, createProgressMapper, missingFailure } from './loader.js';
import type { ModelSpec } from './model-spec.js';
import type { BatchEncoder } from './batch-encoder.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { embeddingOutput, meanPoolNormalize, normalizeRows, tablePoolNormalize } from './pooling.js';
import { staticTokenTable, type ModelRunner, type TokenTable } from './static-table.js';
import type { EmbedResult, LoadResult, RerankResult, WorkerFailure, WorkerInit, WorkerRequest, WorkerResponse } from './protocol.js';
import type * as TransformersModels from './transformers-models.js';
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

/** transformers.js, imported on the first load that needs it (transformers-models.ts). */
let transformers: Promise<typeof TransformersModels> | undefined;
const viaTransformers = () =>
  (transformers ??= import('./transformers-models.js').then((m) => {
    m.configureTransformers(cacheDir, remoteHost);
    return m;
  }));

type Loaded =
  | {
      kind: 'embedding';
      runner: ModelRunner;
      encode: BatchEncoder;
      table?: TokenTable;
      dim: number;
      dtype?: string;
      bare: boolean;
      dispose(): Promise<unknown>;
    }
  | { kind: 'rerank'; reranker: Reranker; dtype?: string; bare: boolean; dispose(): Promise<unknown> };

const models = new Map<string, Loaded>();

class Failure extends Error {
  constructor(readonly failure: WorkerFailure) {
    super(failure.message);
  }
}

/** Loads run one at a time, in arrival order (transformers.js' loads set its global `env`). */
const loads = new KeyedMutex();
/** Compute runs one task at a time on its own lane, a search's work before queued passage batches. */
const compute = new ComputeQueue();

function post(msg: WorkerResponse, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(msg, transfer);
}

async function load(key: string, spec: ModelSpec, allowDownload: boolean): Promise<LoadResult> {
  const existing = models.get(key);
  if (existing) return existing.kind === 'embedding' ? embeddingLoaded(existing) : rerankLoaded(existing);
  const local = checkLocal(spec, cacheDir);
  const ctx = { spec, dir: local.dir, cacheDir, allowDownload, missing: local.missing };
  const download = !local.complete && allowDownload && spec.source === 'hub';
  if (!local.complete && !download) throw new Failure(missingFailure(ctx));

  post({ type: 'progress', key, state: download ? 'downloading' : 'loading', ...(download ? { progress: 0 } : {}) });
  const progress = createProgressMapper(download, (state, p, file) =>
    post({ type: 'progress', key, state, ...(p !== undefined ? { progress: p } : {}), ...(file ? { file } : {}) }),
  );
  const how = { spec, cacheDir, download, progress, ...(local.dtype ? { dtype: local.dtype } : {}) };
  // A model on disk loads without transformers.js where it can (bare-model.ts); RAGDESK_EMBED_BARE=0 never does.
  const tryBare = local.complete && process.env.RAGDESK_EMBED_BARE !== '0';
  try {
    if (spec.kind === 'embedding') {
      const bare = tryBare ? await loadBareModel(local.dir, local.dtype) : undefined;
      const model = typeof bare === 'object' ? bare : await (await viaTransformers()).loadTransformersEmbedding(how);
      if (download) post({ type: 'progress', key, state: 'loading' });
      let table: TokenTable | undefined;
      let dim: number;
      try {
        // A static model's per-token vectors, read once (static-table.ts); RAGDESK_EMBED_TABLE=0 runs every batch.
        if (process.env.RAGDESK_EMBED_TABLE !== '0') table = await staticTokenTable(model.runner, model.tokenizer, model.encode);
        ({ dim } = await runEmbedding(model.runner, model.encode, table, ['dimension probe']));
      } catch (err) {
        await model.dispose().catch(() => undefined);
        throw err;
      }
      const entry = {
        kind: 'embedding' as const,
        runner: model.runner,
        encode: model.encode,
        ...(table ? { table } : {}),
        dim,
        ...(local.dtype ? { dtype: local.dtype } : {}),
        bare: typeof bare === 'object',
        dispose: model.dispose,
      };
      models.set(key, entry);
      return embeddingLoaded(entry);
    }
    const bareReranker = tryBare ? await loadBareReranker(local.dir, local.dtype) : undefined;
    const reranker = typeof bareReranker === 'object' ? bareReranker : await (await viaTransformers()).loadTransformersReranker(how);
    const entry = {
      kind: 'rerank' as const,
      reranker,
      ...(local.dtype ? { dtype: local.dtype } : {}),
      bare: typeof bareReranker === 'object',
      dispose: reranker.dispose,
    };
    models.set(key, entry);
    return rerankLoaded(entry);
  } catch (err) {
    throw new Failure(classifyLoadError(err, ctx));
  }
}

function embeddingLoaded(m: Extract<Loaded, { kind: 'embedding' }>): LoadResult {
  return {
    dim: m.dim,
    ...(m.dtype ? { dtype: m.dtype } : {}),
    ...(m.table ? { table: true } : {}),
    ...(m.table?.simd ? { simd: true } : {}),
    ...(m.encode.takesIds ? { ids: true } : {}),
    ...(m.bare ? { bare: true } : {}),
  };
}

function rerankLoaded(m: Extract<Loaded, { kind: 'rerank' }>): LoadResult {
  return { ...(m.dtype ? { dtype: m.dtype } : {}), ...(m.bare ? { bare: true } : {}) };
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
  runner: ModelRunner,
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
  const outputs = await runner.run(rows);
  const output = embeddingOutput(outputs);
  if (output && 'pooled' in output) {
    const t = output.pooled;
    return { data: normalizeRows(t.data as ArrayLike<number>, t.dims), dim: t.dims[1] ?? 0 };
  }
  if (!output) throw new Error(`unexpected model outputs: ${Object.keys(outputs).join(', ')}`);
  const hidden = output.tokens;
  const mask = rows.attention_mask;
  if (!mask) throw new Error('the tokenizer gave no attention_mask');
  const data = meanPoolNormalize(hidden.data as ArrayLike<number>, hidden.dims, mask.data);
  return { data, dim: hidden.dims[2] ?? 0 };
}

async function embed(key: string, texts: string[], given?: GivenIds): Promise<{ value: EmbedResult; transfer: ArrayBuffer[] }> {
  const { runner, encode, table } = loaded(key, 'embedding');
  if (given && !encode.takesIds) throw new Error('token ids were given for a model whose tokenizer does not take them');
  const { data, dim } = await runEmbedding(runner, encode, table, texts, given);
  // The pooled array owns its buffer: hand it over without a copy.
  const buffer = data.buffer as ArrayBuffer;
  return { value: { buffer, count: texts.length, dim }, transfer: [buffer] };
}

async function rerank(key: string, query: string, passages: string[], batchSize: number): Promise<RerankResult> {
  return { scores: await loaded(key, 'rerank').reranker.rerank(query, passages, batchSize) };
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
        if (m) await compute.run(async () => void (await m.dispose()));
        post({ type: 'result', id: msg.id, ok: true, value: null });
        return;
      }
      case 'hold':
        await compute.run(() => new Promise((resolve) => setTimeout(resolve, msg.ms)));
        post({ type: 'result', id: msg.id, ok: true, value: null });
        return;
      case 'modules':
        post({ type: 'result', id: msg.id, ok: true, value: Object.keys(createRequire(import.meta.url).cache) });
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
