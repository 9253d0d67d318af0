import type { ErrorEnvelope } from '../../shared/errors.js';
import type { ModelState } from '../../shared/contract/index.js';
import type { ModelSpec } from './model-spec.js';
import type { GivenIds } from './word-ids.js';

/** Messages between the main thread (EmbedWorkerClient) and embed-worker.ts. */

export interface WorkerInit {
  /** `<data>/models`: transformers.js `env.cacheDir`, where hub models are downloaded and looked up. */
  cacheDir: string;
  /** Hub mirror to download from (transformers.js `env.remoteHost`), e.g. https://hf-mirror.com/. */
  remoteHost?: string;
}

export type WorkerRequest =
  | { id: number; type: 'load'; key: string; spec: ModelSpec; allowDownload: boolean }
  /** `urgent`: a search's query, run before the passage batches waiting in the worker (compute-queue.ts). */
  /** `ids`: token ids of some texts (those texts are then empty), when the model's LoadResult said `ids`. */
  | { id: number; type: 'embed'; key: string; texts: string[]; urgent?: boolean; ids?: GivenIds }
  | { id: number; type: 'rerank'; key: string; query: string; passages: string[]; batchSize: number }
  | { id: number; type: 'unload'; key: string }
  | { id: number; type: 'crash' }
  /** Test hook: keep the compute lane busy for `ms` (a queued batch then waits behind it). */
  | { id: number; type: 'hold'; ms: number }
  /** Test hook: the CommonJS modules the worker has loaded (what a load pulled in, e.g. none of transformers.js'). */
  | { id: number; type: 'modules' };

export interface LoadResult {
  /** Embedding dimension (embedding models only). */
  dim?: number;
  dtype?: string;
  /** A static model: its batches are pooled from its token table (static-table.ts), not run. */
  table?: boolean;
  /** Its rows are summed with WebAssembly SIMD (simd-pool.ts). */
  simd?: boolean;
  /** It builds token rows from ids given with the texts (word-ids.ts GivenIds): a BERT-style tokenizer. */
  ids?: boolean;
  /** Loaded without transformers.js (bare-model.ts). */
  bare?: boolean;
}

export interface EmbedResult {
  /** Row-major [count, dim] float32 vectors, transferred (not copied). */
  buffer: ArrayBuffer;
  count: number;
  dim: number;
}

export interface RerankResult {
  scores: number[];
}

/** A failure; `state` says whether the model is missing (not on disk, no download) or broken. */
export interface WorkerFailure extends ErrorEnvelope {
  state?: Extract<ModelState, 'missing' | 'error'>;
}

export type WorkerResponse =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: WorkerFailure }
  | { type: 'progress'; key: string; state: ModelState; progress?: number; file?: string }
  | { type: 'ready' };
