import type { ModelStatus } from '../../shared/contract/index.js';
import type { ModelSpec } from './model-spec.js';
import { applyPrefix } from './presets.js';
import type { Embedder } from './types.js';

/** What the model manager (model-manager.ts) keeps per model: its spec, status, and where it is loaded. */
export interface ModelEntry {
  key: string;
  spec: ModelSpec;
  status: ModelStatus;
  /** Worker generation the model is loaded in; -1 when it is not loaded. */
  loadedGen: number;
  loading?: { gen: number; allowDownload: boolean; promise: Promise<void> };
  lastFailureAt?: number;
  dim?: number;
}

/** An embedder over a model loaded in the worker: the model's query and passage prefixes applied, batches run by the manager. */
export class WorkerEmbedder implements Embedder {
  constructor(
    readonly model: string,
    private readonly entry: ModelEntry,
    private readonly run: (entry: ModelEntry, texts: string[], urgent: boolean) => Promise<Float32Array[]>,
  ) {}
  get resolved(): string {
    return this.entry.spec.resolved;
  }
  get dim(): number {
    return this.entry.dim ?? 0;
  }
  embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.run(this.entry, applyPrefix(texts, this.entry.spec.prefixes.query), true);
  }
  embedPassages(texts: string[]): Promise<Float32Array[]> {
    return this.run(this.entry, applyPrefix(texts, this.entry.spec.prefixes.passage), false);
  }
}
