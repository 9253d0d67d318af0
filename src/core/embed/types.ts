import type { ModelPreset, ModelStatus } from '../../shared/contract/index.js';
import type { TokenCounter } from '../chunk/types.js';
import type { PassageIds } from './passage.js';

/** A loaded embedding model. Vectors are unit length (masked mean pooling + L2 normalisation). */
export interface Embedder {
  /** Preset name or folder as configured, and what it resolved to. */
  readonly model: string;
  readonly resolved: string;
  readonly dim: number;
  embedQueries(texts: string[]): Promise<Float32Array[]>;
  /** `ids`: the passages' token ids when the chunker has them (passage.ts); an embedder may use or ignore them. */
  embedPassages(texts: string[], ids?: PassageIds): Promise<Float32Array[]>;
}

/** A cross-encoder: one relevance score per passage, higher is better. */
export interface Reranker {
  readonly model: string;
  score(query: string, passages: string[]): Promise<number[]>;
}

export interface ModelProgressEvent {
  model: string;
  kind: 'embedding' | 'rerank';
  state: ModelStatus['state'];
  /** 0..1 while downloading. */
  progress?: number;
  file?: string;
}

export interface GetModelOptions {
  /** Allow a download from the hub when the model is not in `<data>/models` (default true). */
  allowDownload?: boolean;
  /**
   * A local model that failed to load less than 30 s ago fails again at once with its last error, without a new
   * attempt (a download among them): for callers that ask over and over, such as writes (one ask per batch).
   */
  skipRecentFailure?: boolean;
}

/**
 * Loads and caches models off the main thread. Everything goes through one loading path (the embedding worker, with
 * `cacheDir = <data>/models`), whether the model is a preset, a downloaded hub id or a local folder: onnxruntime
 * directly for a model on disk (bare-model.ts), transformers.js for downloads and the models it must load itself.
 */
export interface ModelManager {
  presets(): ModelPreset[];
  status(): ModelStatus[];
  /** Load (downloading if allowed) and return the embedder; throws RagError('model_unavailable') when it cannot. */
  getEmbedder(model: string, options?: GetModelOptions): Promise<Embedder>;
  /** The embedder if it is loaded right now, without waiting; starts a background load if it is not. */
  peekEmbedder(model: string): Embedder | undefined;
  getReranker(model?: string, options?: GetModelOptions): Promise<Reranker>;
  peekReranker(model?: string): Reranker | undefined;
  /** The model's tokenizer when its tokenizer.json is at hand, else an estimate. Never downloads. */
  getTokenCounter(model: string): Promise<TokenCounter>;
  onProgress(listener: (event: ModelProgressEvent) => void): () => void;
  dispose(): Promise<void>;
}
